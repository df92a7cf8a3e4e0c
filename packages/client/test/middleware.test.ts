import type { JsonRpcPeer } from '@mcpkit/jsonrpc-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ClientMiddleware, McpClientError } from '../src/index';
import { complete, harness, legacyServer, MODERN, metaOf, modernServer } from './helpers/harness';

// client.use(): one onion around every outgoing request (each input round) and every inbound request and
// notification; client.request / notify / setNotificationHandler / setRequestHandler / extend: the public seam an
// extension (tasks) is built on.

function toolServer(era: 'legacy' | 'modern') {
  return (peer: JsonRpcPeer) => {
    if (era === 'modern') modernServer(peer, { tools: {}, extensions: { 'com.example/x': {} } } as never);
    else legacyServer(peer, { tools: {} });
    let calls = 0;
    peer.setRequestHandler('tools/call', (params) => {
      calls++;
      const { name } = params as { name: string };
      if (name === 'asks' && era === 'modern' && (params as { requestState?: string }).requestState === undefined) {
        return {
          resultType: 'input_required',
          inputRequests: { who: { method: 'roots/list', params: {} } },
          requestState: 's1',
        };
      }
      if (name === 'task') return { resultType: 'task', task: { taskId: 't-1', status: 'working' } };
      if (name === 'flaky' && calls < 2) throw new Error('transient');
      const text = JSON.stringify({
        name,
        meta: (params as { _meta?: Record<string, unknown> })._meta?.traceparent ?? null,
      });
      return era === 'modern' ? complete({ content: [{ type: 'text', text }] }) : { content: [{ type: 'text', text }] };
    });
    peer.setRequestHandler('com.example/x/list', (params) => ({ items: [(params as { q?: string }).q ?? 'none'] }));
  };
}

describe('client.use', () => {
  it('sees every outgoing request with its era and round, and the raw result before classification', async () => {
    const h = await harness({
      server: toolServer('modern'),
      client: { handlers: { roots: () => ({ roots: [] }) } },
    });
    const seen: string[] = [];
    h.client.use(async (ctx, next) => {
      if (ctx.direction !== 'outbound') return next();
      const result = (await next()) as { resultType?: string };
      seen.push(`${ctx.method} ${ctx.era} ${ctx.protocolVersion} round=${ctx.round} → ${result.resultType}`);
      return result;
    });
    await h.client.callTool({ name: 'asks' });
    expect(seen).toEqual([
      `tools/call modern ${MODERN} round=0 → input_required`,
      `tools/call modern ${MODERN} round=1 → complete`,
    ]);
    await h.client.close();
  });

  it('changes params before they are sent (the envelope is still added)', async () => {
    const h = await harness({ server: toolServer('modern') });
    h.client.use((ctx, next) => {
      if (ctx.direction === 'outbound')
        ctx.params = { ...ctx.params, _meta: { ...(ctx.params?._meta as object), traceparent: '00-t-s-01' } };
      return next();
    });
    const result = await h.client.callTool({ name: 'echo' });
    expect(JSON.parse((result.content[0] as { text: string }).text).meta).toBe('00-t-s-01');
    const sent = h.requests('tools/call')[0]!;
    expect(metaOf(sent)?.['io.modelcontextprotocol/protocolVersion']).toBe(MODERN);
    await h.client.close();
  });

  it('learns the id each request went out with (ctx.requestId), a new one per round', async () => {
    const h = await harness({ server: toolServer('modern'), client: { handlers: { roots: () => ({ roots: [] }) } } });
    const ids: unknown[] = [];
    h.client.use(async (ctx, next) => {
      if (ctx.direction !== 'outbound') return next();
      expect(ctx.requestId).toBeUndefined();
      const result = await next();
      ids.push(ctx.requestId);
      return result;
    });
    await h.client.callTool({ name: 'asks' });
    expect(ids).toEqual(h.requests('tools/call').map((request) => request.id));
    expect(new Set(ids).size).toBe(2);
    await h.client.close();
  });

  it('short-circuits: a refusal sends nothing, a local answer sends nothing', async () => {
    const h = await harness({ server: toolServer('legacy') });
    const deny: ClientMiddleware = (ctx, next) => {
      if (ctx.direction === 'outbound' && ctx.method === 'tools/call' && ctx.params?.name === 'danger') {
        throw new McpClientError('ERR_INVALID_RESULT', 'denied by the user', {});
      }
      if (ctx.direction === 'outbound' && ctx.params?.name === 'cached')
        return { content: [{ type: 'text', text: 'local' }] };
      return next();
    };
    h.client.use(deny);
    await expect(h.client.callTool({ name: 'danger' })).rejects.toThrow('denied by the user');
    const local = await h.client.callTool({ name: 'cached' });
    expect(local.content).toEqual([{ type: 'text', text: 'local' }]);
    expect(h.requests('tools/call')).toEqual([]);
    await h.client.close();
  });

  it('retries by calling next again', async () => {
    const h = await harness({ server: toolServer('legacy') });
    h.client.use(async (ctx, next) => {
      try {
        return await next();
      } catch (error) {
        if (ctx.direction === 'outbound') return next();
        throw error;
      }
    });
    const result = await h.client.callTool({ name: 'flaky' });
    expect((result.content[0] as { text: string }).text).toContain('flaky');
    expect(h.requests('tools/call')).toHaveLength(2);
    await h.client.close();
  });

  it('sees inbound server→client requests and notifications, and may answer or swallow them', async () => {
    const h = await harness({
      server: toolServer('legacy'),
      client: { handlers: { roots: () => ({ roots: [{ uri: 'file:///real', name: 'real' }] }) } },
    });
    const seen: string[] = [];
    h.client.use((ctx, next) => {
      if (ctx.direction === 'inbound') seen.push(`${ctx.kind} ${ctx.method} ${ctx.era}`);
      if (ctx.direction === 'inbound' && ctx.method === 'notifications/message') return undefined; // swallowed
      return next();
    });
    const logs: unknown[] = [];
    h.client.setNotificationHandler('com.example/event', (params) => void logs.push(params));
    const roots = await h.server.request('roots/list', {});
    expect(roots).toEqual({ roots: [{ uri: 'file:///real', name: 'real' }] });
    await h.server.notify('com.example/event', { n: 1 });
    await h.server.notify('notifications/message', { level: 'info', data: 'x' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual([
      'request roots/list legacy',
      'notification com.example/event legacy',
      'notification notifications/message legacy',
    ]);
    expect(logs).toEqual([{ n: 1 }]);
    await h.client.close();
  });

  it('use() while connected applies to later requests; the returned function removes it', async () => {
    const h = await harness({ server: toolServer('legacy') });
    const seen: string[] = [];
    await h.client.callTool({ name: 'a' });
    const remove = h.client.use((ctx, next) => {
      seen.push(ctx.method);
      return next();
    });
    await h.client.callTool({ name: 'b' });
    remove();
    await h.client.callTool({ name: 'c' });
    expect(seen).toEqual(['tools/call']);
    await h.client.close();
  });
});

describe('client.request, notify, setRequestHandler, extend', () => {
  it("sends an extension's method with the envelope and validates the result with a Standard Schema", async () => {
    const h = await harness({ server: toolServer('modern') });
    const result = await h.client.request(
      'com.example/x/list',
      { q: 'eu' },
      { resultSchema: z.object({ items: z.array(z.string()) }) },
    );
    expect(result.items).toEqual(['eu']);
    expect(metaOf(h.requests('com.example/x/list')[0]!)?.['io.modelcontextprotocol/protocolVersion']).toBe(MODERN);
    const bad = await h.client
      .request('com.example/x/list', {}, { resultSchema: z.object({ items: z.array(z.number()) }) })
      .catch((error: unknown) => error);
    expect(McpClientError.is(bad) && bad.code).toBe('ERR_INVALID_RESULT');
    await h.client.close();
  });

  it('checks spec methods against the revision like the typed methods', async () => {
    const h = await harness({ server: toolServer('modern') });
    await expect(h.client.request('ping')).rejects.toThrow(/ping/);
    await h.client.close();
  });

  it('notifies, and refuses to replace the handlers the client owns', async () => {
    const received: string[] = [];
    const h = await harness({
      server: (peer) => {
        toolServer('legacy')(peer);
        peer.setNotificationHandler('com.example/hello', () => void received.push('hello'));
      },
    });
    await h.client.notify('com.example/hello');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(received).toEqual(['hello']);
    expect(() => h.client.setRequestHandler('roots/list', () => ({}))).toThrow(/answers 'roots\/list' itself/);
    h.client.setRequestHandler('com.example/ask', (params) => ({ answer: (params as { q: string }).q.toUpperCase() }));
    expect(await h.server.request('com.example/ask', { q: 'yes' })).toEqual({ answer: 'YES' });
    await h.client.close();
  });

  it('an extension declares itself, owns its resultType and installs its middleware', async () => {
    const seen: string[] = [];
    const h = await harness({ server: toolServer('modern'), manualConnect: true });
    h.client.extend({
      id: 'io.modelcontextprotocol/tasks',
      resultTypes: ['task'],
      middleware: (ctx, next) => {
        seen.push(ctx.method);
        return next();
      },
    });
    expect(() => h.client.extend({ id: 'io.modelcontextprotocol/tasks' })).toThrow(/already registered/);
    await h.client.connect(h.transport);
    const raw = await h.client.request('tools/call', { name: 'task', arguments: {} });
    expect(raw).toEqual({ resultType: 'task', task: { taskId: 't-1', status: 'working' } });
    const envelope = metaOf(h.requests('tools/call')[0]!)?.['io.modelcontextprotocol/clientCapabilities'] as {
      extensions?: object;
    };
    expect(envelope.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
    expect(seen).toContain('tools/call');
    await h.client.close();
  });

  it('an extension installs through the public API and extend returns its API; declaration and settings both declare', async () => {
    const h = await harness({ server: toolServer('modern'), manualConnect: true });
    const api = h.client.extend({
      id: 'com.example/notes',
      declaration: { pages: 2 },
      install: ({ client }) => ({ call: () => client.request('tools/call', { name: 'plain', arguments: {} }) }),
    });
    h.client.extend({ id: 'com.example/old-shape', settings: { legacy: true } });
    await h.client.connect(h.transport);
    expect(await api.call()).toMatchObject({ resultType: 'complete' });
    const envelope = metaOf(h.requests('tools/call')[0]!)?.['io.modelcontextprotocol/clientCapabilities'] as {
      extensions?: object;
    };
    expect(envelope.extensions).toEqual({
      'com.example/notes': { pages: 2 },
      'com.example/old-shape': { legacy: true },
    });
    await h.client.close();
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`tells a VersionedTransport the negotiated version before anything of the era is sent (${era})`, async () => {
      const h = await harness({ server: toolServer(era), manualConnect: true });
      const told: Array<{ version: string; sentBefore: string[] }> = [];
      const methodsSent = () => h.sent.map((message) => ('method' in message ? message.method : 'response'));
      const transport = Object.assign(h.transport, {
        setProtocolVersion: (version: string) => told.push({ version, sentBefore: methodsSent() }),
      });
      await h.client.connect(transport, { era });
      expect(told).toEqual([
        era === 'legacy'
          ? { version: '2025-11-25', sentBefore: ['initialize'] }
          : { version: MODERN, sentBefore: ['server/discover'] },
      ]);
      await h.client.close();
    });
  }

  it('without the extension, an unknown resultType is refused', async () => {
    const h = await harness({ server: toolServer('modern') });
    const error = await h.client.callTool({ name: 'task' }).catch((caught: unknown) => caught);
    expect(McpClientError.is(error) && error.code).toBe('ERR_INVALID_RESULT');
    await h.client.close();
  });
});
