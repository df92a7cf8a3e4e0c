import type { JsonRpcRequest } from '@mcpkit/jsonrpc-core';
import { MetaKeys } from '@mcpkit/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer, type McpToolServer, Server, type ServerExtension } from '../src/index';
import { closeHarnesses, connect, initialize, type Loose, MODERN, modern } from './harness';

// The extension seam as a plugin author meets it: a factory that returns a `ServerExtension`, installed with
// `extend`, using only the public API — what the tasks extension needs (re-running a stored request through the era
// rules and middleware, a stand-in session for a connection that is gone, a middleware that sees only its methods,
// typed method tables) — and the era a transport decided reaching the handler without a second read.

afterEach(closeHarnesses);

/** What the jobs extension hands back from `extend`. */
interface Jobs {
  /** Runs a stored `tools/call` again, in the legacy era of a session that is gone (as tasks resume after a restart). */
  replay(call: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  /** The methods its scoped middleware saw. */
  readonly seen: readonly string[];
}

/** A small "jobs" extension written only against the public API, with no cast. */
function jobs(): ServerExtension<Jobs, McpToolServer> {
  const seen: string[] = [];
  const started = new Map<string, string>();
  return {
    id: 'com.example/jobs',
    declaration: { replay: true },
    methods: {
      // Each handler declares the params it reads: no cast on the table.
      'com.example/jobs/start': (params: { tool?: unknown } | undefined) => {
        const id = `job-${started.size + 1}`;
        started.set(id, String(params?.tool));
        return { id };
      },
      'com.example/jobs/get': (params: { id?: unknown } | undefined) => ({ tool: started.get(String(params?.id)) }),
    },
    middleware: {
      methods: ['tools/call'],
      middleware: (ctx, next) => {
        seen.push(ctx.method);
        return next();
      },
    },
    install: ({ server, host }) => ({
      seen,
      async replay(call) {
        // The host is what `extend` was called on: its tool registry is public.
        if (host.getTool(call.name) === undefined) throw new Error(`no tool ${call.name}`);
        const session = server.openSession({ protocolVersion: '2025-11-25', clientCapabilities: {} });
        const request: JsonRpcRequest = { jsonrpc: '2.0', id: 'replay-1', method: 'tools/call', params: call };
        const response = (await server.handle(request, { session })) as Loose;
        return response.result ?? response.error;
      },
    }),
  };
}

function toolServer(): McpServer {
  const mcp = new McpServer({ name: 'seam', version: '1.0.0' });
  mcp.registerTool('echo', { inputSchema: { type: 'object' } }, (args, ctx) => ({
    content: [{ type: 'text', text: `${JSON.stringify(args)} ${ctx.era} ${ctx.protocolVersion}` }],
  }));
  return mcp;
}

describe('server.extend with install (the seam tasks and skills are built on)', () => {
  it('returns what install returns, re-runs a request through the era rules and middleware in a stand-in session', async () => {
    const mcp = toolServer();
    const api = mcp.extend(jobs());
    const result = (await api.replay({ name: 'echo', arguments: { n: 1 } })) as Loose;
    expect(result.content[0].text).toBe('{"n":1} legacy 2025-11-25');
    // The replay went through the middleware like any request.
    expect(api.seen).toEqual(['tools/call']);
    expect((mcp.server.capabilities.extensions as Loose)['com.example/jobs']).toEqual({ replay: true });
  });

  it('a scoped middleware sees only the methods it names, on every path', async () => {
    const mcp = toolServer();
    const api = mcp.extend(jobs());
    const started = (await mcp.server.handle({
      jsonrpc: '2.0',
      id: 1,
      method: 'com.example/jobs/start',
      params: modern({ tool: 'echo' }),
    })) as Loose;
    expect(started.result.id).toBe('job-1');
    await mcp.server.handle({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: modern({}) });
    await mcp.server.handle({ jsonrpc: '2.0', id: 3, method: 'server/discover', params: modern({}) });
    await mcp.server.handle({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: modern({ name: 'echo', arguments: {} }),
    });
    const harness = await connect(mcp, { revision: '2025-11-25' });
    await initialize(harness.client, '2025-11-25');
    await harness.client.request('tools/list', {});
    await harness.client.request('tools/call', { name: 'echo', arguments: {} });
    expect(api.seen).toEqual(['tools/call', 'tools/call']);
  });

  it('the object shape still works and extend returns nothing for it', () => {
    const server = new Server({ name: 'plain', version: '1.0.0' });
    const installed = server.extend({ id: 'com.example/plain', methods: { 'com.example/plain/ping': () => ({}) } });
    expect(installed).toBeUndefined();
    expect(server.extensions.has('com.example/plain')).toBe(true);
  });

  it("a session's era is written by the era objects only: openSession opens it, assignment is refused", () => {
    const server = new Server({ name: 'plain', version: '1.0.0' });
    const session = server.openSession({ protocolVersion: '2025-06-18', clientCapabilities: { roots: {} } });
    expect([session.era, session.protocolVersion, session.initialized]).toEqual(['legacy', '2025-06-18', true]);
    expect(session.clientCapabilities).toEqual({ roots: {} });
    expect(server.sessions.has(session)).toBe(false);
    expect(() => {
      (session as Loose).era = 'modern';
    }).toThrow(TypeError);
  });
});

describe('the era a transport decided reaches the handler', () => {
  /** Modern params whose envelope counts how often its protocol version is read. */
  function countedParams(): { params: Record<string, unknown>; reads: () => number } {
    let reads = 0;
    const params = modern({ name: 'echo', arguments: {} });
    const meta = params._meta as Record<string, unknown>;
    const version = meta[MetaKeys.ProtocolVersion];
    Object.defineProperty(meta, MetaKeys.ProtocolVersion, {
      enumerable: true,
      get: () => {
        reads++;
        return version;
      },
    });
    return { params, reads: () => reads };
  }

  it('handle({ era }) runs the request in that era with one read of the envelope (the check), not two', async () => {
    const mcp = toolServer();
    const decided = countedParams();
    const response = (await mcp.server.handle(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: decided.params },
      { era: 'modern' },
    )) as Loose;
    expect(response.result.content[0].text).toBe(`{} modern ${MODERN}`);
    expect(decided.reads()).toBe(1);
    // Left to the server, it decides the era itself: that is the one more read the transport's decision saves.
    const undecided = countedParams();
    await mcp.server.handle({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: undecided.params });
    expect(undecided.reads()).toBe(2);
  });
});
