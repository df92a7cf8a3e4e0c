// The one server definition of this app, deployed three ways: a Cloudflare Worker with Durable Objects (worker.ts),
// Bun (bun.ts) and Deno (deno.ts). Web-standard APIs only, so every runtime loads it as is.

import { McpServer, type NonceStore } from '@mcpkit/server';
import { TaskServer, type TaskStore } from '@mcpkit/tasks';

/** Where the server keeps what must outlive a process or an isolate; in memory when not given (Bun, Deno). */
export interface EdgeServerState {
  /** Tasks (the Worker: a Durable Object's SQLite). */
  taskStore?: TaskStore;
  /** The HMAC key of `requestState` tokens: the same in every isolate, so any of them accepts another's token. */
  requestStateSecret?: string;
  /** Used `requestState` nonces (the Worker: one Durable Object per nonce). */
  nonceStore?: NonceStore;
  /** Errors no client sees (a handler's crash is answered 'Internal error'). Default: the console. */
  onError?: (error: Error) => void;
}

/** Everything the edge app's server offers; the runtimes differ only in how they listen and where state lives. */
export function buildServer(state: EdgeServerState = {}): McpServer {
  const server = new McpServer(
    { name: 'edge-demo', version: '1.0.0' },
    {
      onError: state.onError ?? ((error) => console.error('edge-demo:', error)),
      ...(state.requestStateSecret === undefined ? {} : { requestStateSecret: state.requestStateSecret }),
      ...(state.nonceStore === undefined ? {} : { nonceStore: state.nonceStore }),
    },
  );
  let counter = 0;
  // On start, tasks a gone process or isolate left unfinished are recovered (the Worker's store hands out only those
  // whose isolate's lease ran out): `slow-sum` runs again, anything else reads `failed`.
  new TaskServer(server, {
    ...(state.taskStore === undefined ? {} : { store: state.taskStore }),
    pollIntervalMs: 50,
    tools: { 'slow-sum': { resumable: true } },
  });

  server.registerTool(
    'slow-sum',
    {
      description: 'Adds two numbers, slowly (`ms`, default 50); may run as a task, and runs again after a restart',
      inputSchema: {
        type: 'object',
        properties: {
          a: { type: 'number' },
          b: { type: 'number' },
          ms: { type: 'integer', minimum: 0, maximum: 60_000 },
        },
        required: ['a', 'b'],
      } as const,
      execution: { taskSupport: 'optional' },
    },
    async ({ a, b, ms }) => {
      await new Promise((resolve) => setTimeout(resolve, ms ?? 50));
      return { content: [{ type: 'text', text: String(a + b) }] };
    },
  );

  server.registerTool(
    'add',
    {
      description: 'Adds two numbers',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      } as const,
    },
    ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );

  server.registerTool('runtime', { description: 'Names the runtime answering' }, () => ({
    content: [{ type: 'text', text: runtimeName() }],
  }));

  server.registerTool('whoami', { description: 'Names the authenticated subject' }, (_args, ctx) => ({
    content: [{ type: 'text', text: ctx.auth?.subject ?? 'anonymous' }],
  }));

  server.registerTool(
    'countdown',
    {
      description: 'Counts down from `from`, one progress notification every `stepMs`',
      inputSchema: {
        type: 'object',
        properties: { from: { type: 'integer', minimum: 1, maximum: 50 }, stepMs: { type: 'integer', minimum: 0 } },
        required: ['from'],
      } as const,
    },
    async ({ from, stepMs }, ctx) => {
      for (let left = from; left > 0; left--) {
        await ctx.progress(from - left + 1, from, `${left} left`);
        await new Promise((resolve) => setTimeout(resolve, stepMs ?? 20));
      }
      return { content: [{ type: 'text', text: 'liftoff' }] };
    },
  );

  server.registerTool(
    'confirm',
    { description: 'Asks the user (elicitation) whether to go on' },
    async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Go on?',
        requestedSchema: { type: 'object', properties: { goOn: { type: 'boolean' } }, required: ['goOn'] },
      });
      const yes = answer.action === 'accept' && answer.content?.goOn === true;
      return { content: [{ type: 'text', text: yes ? 'going on' : 'stopped' }] };
    },
  );

  server.registerTool(
    'haiku',
    { description: 'Asks the client’s model (sampling) for a haiku' },
    async (_args, ctx) => {
      const result = await ctx.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: 'A haiku about the edge' } }],
        maxTokens: 50,
      });
      const block = Array.isArray(result.content) ? result.content[0] : result.content;
      const text = block?.type === 'text' ? block.text : '(not text)';
      return { content: [{ type: 'text', text }] };
    },
  );

  server.registerResource('counter', 'edge://counter', { mimeType: 'text/plain' }, (uri) => ({
    contents: [{ uri, mimeType: 'text/plain', text: String(counter) }],
  }));

  server.registerTool('increment', { description: 'Increments edge://counter (subscribers hear of it)' }, () => {
    counter += 1;
    server.notifyResourceUpdated('edge://counter');
    return { content: [{ type: 'text', text: String(counter) }] };
  });

  return server;
}

function runtimeName(): string {
  const global = globalThis as { Bun?: unknown; Deno?: unknown; navigator?: { userAgent?: string } };
  if (global.Bun !== undefined) return 'bun';
  if (global.Deno !== undefined) return 'deno';
  if (global.navigator?.userAgent === 'Cloudflare-Workers') return 'workerd';
  return 'node';
}
