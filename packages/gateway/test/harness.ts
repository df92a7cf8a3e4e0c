import { Client, type ClientOptions } from '@mcpkit/client';
import { createLinkedTransports, type Transport } from '@mcpkit/jsonrpc-core';
import { McpServer, ResourceTemplate } from '@mcpkit/server';
import { type CheckedTransport, checkWire } from '@mcpkit/testkit';
import { Gateway, type GatewayOptions, type MountOptions, type UpstreamConnection } from '../src/index';

export const LEGACY = '2025-11-25';
export const OLDEST = '2024-11-05';

/** Every server end of every connection the tests open, checked against the official schema of its revision. */
export const wireChecks: CheckedTransport[] = [];

/** Throws with every schema violation seen on any checked connection since the last call. */
export function assertWireClean(): void {
  const checks = wireChecks.splice(0);
  for (const check of checks) check.assertClean();
}
export const MODERN = '2026-07-28';

/** Every pairing of the downstream client's era with the upstream server's. */
export const PAIRINGS = [
  { downstream: LEGACY, upstream: LEGACY, name: 'legacy client → legacy upstream' },
  { downstream: MODERN, upstream: LEGACY, name: 'modern client → legacy upstream' },
  { downstream: LEGACY, upstream: MODERN, name: 'legacy client → modern upstream' },
  { downstream: MODERN, upstream: MODERN, name: 'modern client → modern upstream' },
] as const;

/** An upstream server with one of everything that crosses; `seen` records what its handlers observed. */
export function sampleUpstream(name = 'upstream') {
  const seen = { cancelled: 0, calls: 0 };
  let release: (() => void) | undefined;
  const server = new McpServer({ name, version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Echoes its text',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    async (args, ctx) => {
      seen.calls += 1;
      await ctx.progress(1, 2, 'half');
      await ctx.log('info', { said: args.text });
      await ctx.log('debug', 'chatter');
      return { content: [{ type: 'text', text: String(args.text) }] };
    },
  );
  server.registerTool('ask', { description: 'Asks the user their name' }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      mode: 'form',
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    });
    const sampled = await ctx.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: 'a word?' } }],
      maxTokens: 5,
    });
    const { roots } = await ctx.listRoots();
    const word = sampled.content && 'text' in sampled.content ? sampled.content.text : '?';
    return {
      content: [
        {
          type: 'text',
          text: `hello ${String(answer.content?.name)}, ${word}, ${roots.map((root) => root.uri).join()}`,
        },
      ],
    };
  });
  server.registerTool('slow', { description: 'Waits until cancelled or released' }, (_args, ctx) => {
    return new Promise((resolve) => {
      release = () => resolve({ content: [{ type: 'text', text: 'released' }] });
      ctx.signal.addEventListener('abort', () => {
        seen.cancelled += 1;
        resolve({ content: [{ type: 'text', text: 'cancelled' }] });
      });
    });
  });
  server.registerPrompt(
    'greet',
    {
      description: 'Greets someone',
      argsSchema: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
      complete: { who: (value) => ['alice', 'albert', 'bob'].filter((name) => name.startsWith(value)) },
    },
    (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello ${String(args.who)}` } }] }),
  );
  server.registerResource('a note', 'file:///notes/a b.txt', { mimeType: 'text/plain' }, (uri) => ({
    contents: [{ uri, text: 'note A' }],
  }));
  server.registerResource(
    'any file',
    new ResourceTemplate('file:///files/{name}', {
      complete: { name: (value) => ['x.txt', 'y.txt'].filter((file) => file.startsWith(value)) },
    }),
    {},
    (uri, variables) => ({ contents: [{ uri, text: `file ${String(variables.name)}` }] }),
  );
  return { server, seen, release: () => release?.() };
}

/** An upstream connection over an in-memory pair to `server`, in `version` (`auto`: probed); `state` counts attempts. */
export function memoryUpstream(server: McpServer, version: string) {
  const opened: Transport[] = [];
  /** The upstream's ends of the connections, to make it die. */
  const serverSides: Transport[] = [];
  /** How many of the next attempts fail as if the upstream were not there. */
  const state = { failNext: 0, attempts: 0 };
  const connection: UpstreamConnection = {
    connect: version === 'auto' ? { era: 'auto' } : { protocolVersion: version },
    transport: async () => {
      state.attempts += 1;
      if (state.failNext > 0) {
        state.failNext -= 1;
        throw new Error('connect ECONNREFUSED 127.0.0.1:1');
      }
      const [clientSide, serverSide] = createLinkedTransports();
      const checked = checkWire(serverSide, { side: 'server' });
      wireChecks.push(checked);
      await server.connect(checked);
      opened.push(clientSide);
      serverSides.push(checked);
      return clientSide;
    },
  };
  return { connection, opened, serverSides, state };
}

/** A gateway server, and a downstream client connected to it in `version`. */
export async function gatewayWithClient(
  version: string,
  clientOptions: ClientOptions = {},
  gatewayOptions: GatewayOptions = {},
) {
  const front = new McpServer({ name: 'gateway', version: '1.0.0' }, { listChangedDebounceMs: 1 });
  const warnings: string[] = [];
  const gateway = new Gateway(front, { onWarning: (message) => warnings.push(message), ...gatewayOptions });
  const client = new Client({ name: 'downstream', version: '1.0.0' }, clientOptions);
  const connectClient = async () => {
    const [clientSide, serverSide] = createLinkedTransports();
    const checked = checkWire(serverSide, { side: 'server' });
    wireChecks.push(checked);
    await front.connect(checked);
    await client.connect(clientSide, { protocolVersion: version });
  };
  return { front, gateway, client, connectClient, warnings };
}

/** Mounts `upstream` then connects the client (so the client's first lists already hold the mount). */
export async function mounted(
  pairing: { downstream: string; upstream: string },
  clientOptions: ClientOptions = {},
  mountOptions: MountOptions = {},
) {
  const upstream = sampleUpstream();
  const memory = memoryUpstream(upstream.server, pairing.upstream);
  const setup = await gatewayWithClient(pairing.downstream, clientOptions);
  const mount = await setup.gateway.mount('up', memory.connection, mountOptions);
  await setup.connectClient();
  return { ...setup, upstream, memory, mount };
}

/** Resolves when `check` holds, polling (bounded). */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
