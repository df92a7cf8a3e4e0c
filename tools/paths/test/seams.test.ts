import type { ClientContext } from '@mcpkit/client';
import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import { McpServer, type ServerContext } from '@mcpkit/server';
import { afterEach, describe, expect, it } from 'vitest';
import { type Connected, connectOn, PATHS, type Path, pathName } from '../src/paths';

// The two extension seams (server.use / useOutbound / extend, client.use / request) and cancellation, proven on every
// path and era a client can reach a server by. A feature that works on stdio but not on stateless HTTP fails here.

const open: Connected[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connected) => connected.close()));
});

interface Probe {
  server: string[];
  outbound: string[];
  client: string[];
  aborted: string[];
}

const until = async (condition: () => boolean, what: string) => {
  const deadline = Date.now() + 3_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

function makeServer(probe: Probe): McpServer {
  const mcp = new McpServer({ name: 'paths', version: '1.0.0' });
  mcp.registerTool(
    'echo',
    { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    (args, ctx) => ({
      content: [{ type: 'text', text: `${String((args as { text?: string }).text)} tagged ${String(ctx.get('tag'))}` }],
    }),
  );
  mcp.registerTool('progress', {}, async (_args, ctx) => {
    await ctx.progress(1, 2);
    await ctx.progress(2, 2);
    return { content: [{ type: 'text', text: 'progressed' }] };
  });
  mcp.registerTool('wait', {}, (_args, ctx) => {
    return new Promise((_resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('never cancelled')), 5_000);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        probe.aborted.push('wait');
        reject(ctx.signal.reason);
      });
    });
  });
  // roots/list is the one ask every revision has (elicitation arrived in 2025-06-18).
  mcp.registerTool('ask', {}, async (_args, ctx) => {
    const answer = await ctx.listRoots();
    return { content: [{ type: 'text', text: `hello ${answer.roots.map((root) => root.name).join(',')}` }] };
  });
  mcp.use((ctx: ServerContext, next) => {
    probe.server.push(`${ctx.kind} ${ctx.method} ${ctx.era ?? '-'}`);
    ctx.set('tag', 'from-middleware');
    if (ctx.kind === 'request' && ctx.params?.name === 'limited') {
      throw new JsonRpcError(-31029, 'Slow down', {
        retryAfterMs: 2000,
        httpStatus: 429,
        httpHeaders: { 'retry-after': '2' },
      });
    }
    return next();
  });
  mcp.useOutbound((message, next) => {
    probe.outbound.push(`${message.kind} ${message.method}`);
    return next();
  });
  mcp.extend({
    id: 'com.example/paths',
    methods: { 'com.example/paths/hello': (params) => ({ hello: (params as { who?: string })?.who ?? 'world' }) },
  });
  return mcp;
}

function clientProbe(probe: Probe) {
  return (ctx: ClientContext, next: () => Promise<unknown>) => {
    probe.client.push(
      ctx.direction === 'outbound' ? `out ${ctx.method} round=${ctx.round}` : `in ${ctx.kind} ${ctx.method}`,
    );
    return next();
  };
}

async function setUp(path: Path) {
  const probe: Probe = { server: [], outbound: [], client: [], aborted: [] };
  const connected = await connectOn(path, makeServer(probe), {
    handlers: { roots: () => ({ roots: [{ uri: 'file:///ada', name: 'ada' }] }) },
  });
  open.push(connected);
  connected.client.use(clientProbe(probe));
  return { probe, client: connected.client };
}

describe.each(PATHS.map((path) => [pathName(path), path] as const))('%s', (_name, path) => {
  it('server middleware sees the call in its era and its variables reach the handler; client middleware sees it too', async () => {
    const { probe, client } = await setUp(path);
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'hi tagged from-middleware' }]);
    expect(probe.server).toContain(`request tools/call ${path.era}`);
    expect(probe.client).toContain('out tools/call round=0');
    expect(client.era).toBe(path.era);
  });

  it('the outbound hook sees the notifications a handler sends, and they still arrive', async () => {
    const { probe, client } = await setUp(path);
    const progress: number[] = [];
    await client.callTool({ name: 'progress' }, { onProgress: ({ progress: value }) => progress.push(value) });
    expect(probe.outbound.filter((entry) => entry === 'notification notifications/progress')).toHaveLength(2);
    await until(() => progress.length === 2, 'both progress notifications');
    expect(progress).toEqual([1, 2]);
  });

  it('an aborted call stops the server handler', async () => {
    const { probe, client } = await setUp(path);
    const controller = new AbortController();
    const pending = client.callTool({ name: 'wait' }, { signal: controller.signal });
    await until(() => probe.server.includes(`request tools/call ${path.era}`), 'the call to reach the server');
    controller.abort(new Error('the user stopped it'));
    await expect(pending).rejects.toThrow();
    await until(() => probe.aborted.includes('wait'), 'the server handler to be aborted');
  });

  it("routes an extension's method, through both sides' middleware", async () => {
    const { probe, client } = await setUp(path);
    expect(await client.request('com.example/paths/hello', { who: path.transport })).toMatchObject({
      hello: path.transport,
    });
    expect(probe.server).toContain(`request com.example/paths/hello ${path.era}`);
    expect(probe.client).toContain('out com.example/paths/hello round=0');
  });

  it('asks the client for input the way the era does, every step through the seams', async () => {
    const { probe, client } = await setUp(path);
    if (path.era === 'legacy' && !path.serverRequests) {
      // Stateless legacy HTTP has no channel for server→client requests: the ask fails, the server says why.
      const result = await client.callTool({ name: 'ask' });
      expect(result.isError).toBe(true);
      return;
    }
    const result = await client.callTool({ name: 'ask' });
    expect(result.content).toEqual([{ type: 'text', text: 'hello ada' }]);
    if (path.era === 'legacy') {
      expect(probe.outbound).toContain('request roots/list');
      expect(probe.client).toContain('in request roots/list');
    } else {
      expect(probe.client).toEqual(expect.arrayContaining(['out tools/call round=0', 'out tools/call round=1']));
    }
  });

  it('a refusal before the handler is an HTTP status on HTTP paths and the JSON-RPC error elsewhere', async () => {
    const { client } = await setUp(path);
    const error = (await client.callTool({ name: 'limited' }).catch((caught: unknown) => caught)) as {
      code?: unknown;
      data?: Record<string, unknown>;
      message: string;
    };
    // The same error on every path: over HTTP the transport answered with the refusal's status (429, Retry-After)
    // and its JSON-RPC error body, which the client transport reads back.
    if (path.transport === 'legacy-sse') {
      expect(error.message).toMatch(/429/);
    } else {
      expect(error).toMatchObject({ code: -31029, data: { retryAfterMs: 2000 } });
    }
  });
});
