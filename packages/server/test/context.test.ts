import { AbortLink } from '@mcpkit/jsonrpc-core';
import type { ProgressUpdatePayload } from '@mcpkit/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../src/index';
import { closeHarnesses, connect, type Harness, initialize, type Loose, modern, until } from './harness';

afterEach(closeHarnesses);

function instrumented(options: ConstructorParameters<typeof McpServer>[1] = {}) {
  const server = new McpServer({ name: 's', version: '1' }, options);
  const seen: { reason?: unknown; era?: string; requestId?: unknown; auth?: unknown; clientInfo?: unknown } = {};
  server.registerTool('chatty', {}, async (_args, ctx) => {
    for (const level of ['debug', 'info', 'warning', 'error'] as const) await ctx.log(level, { level }, 'chatty');
    await ctx.progress(1, 2, 'half');
    await ctx.progress(2, 2);
    return { content: [] };
  });
  server.registerTool('wait', {}, async (_args, ctx) => {
    seen.era = ctx.era;
    seen.requestId = ctx.requestId;
    seen.auth = ctx.auth;
    seen.clientInfo = ctx.clientInfo;
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    seen.reason = ctx.signal.reason;
    return { content: [] };
  });
  return { server, seen };
}

const logLevels = (harness: Harness) =>
  harness.notifications.filter((n) => n.method === 'notifications/message').map((n) => n.params.level);

describe('logging', () => {
  it('legacy: everything until logging/setLevel, then at or above the level', async () => {
    const { server } = instrumented();
    const harness = await connect(server);
    await initialize(harness.client, '2025-06-18');
    await harness.client.request('tools/call', { name: 'chatty' });
    expect(logLevels(harness)).toEqual(['debug', 'info', 'warning', 'error']);
    expect(harness.notifications[0]!.params).toEqual({ level: 'debug', data: { level: 'debug' }, logger: 'chatty' });
    harness.notifications.length = 0;
    await harness.client.request('logging/setLevel', { level: 'warning' });
    await harness.client.request('tools/call', { name: 'chatty' });
    expect(logLevels(harness)).toEqual(['warning', 'error']);
    await harness.session.log('info', 'dropped');
    await harness.session.log('error', 'session-level');
    await until(() => logLevels(harness).length === 3);
  });

  it('modern: nothing without the request logLevel; at or above it with one', async () => {
    const { server } = instrumented();
    const harness = await connect(server);
    await harness.client.request('tools/call', modern({ name: 'chatty' }));
    expect(logLevels(harness)).toEqual([]);
    await harness.client.request('tools/call', modern({ name: 'chatty' }, {}, { logLevel: 'info' }));
    expect(logLevels(harness)).toEqual(['info', 'warning', 'error']);
    // A log not tied to a request does not exist in 2026-07-28, even on a connection fixed to it.
    expect(harness.session.era).toBe('modern');
    await harness.session.log('error', 'no request');
    expect(logLevels(harness)).toEqual(['info', 'warning', 'error']);
  });

  it('sends nothing when the server does not declare logging', async () => {
    const { server } = instrumented({ logging: false });
    const harness = await connect(server);
    await initialize(harness.client, '2025-11-25');
    await harness.client.request('tools/call', { name: 'chatty' });
    expect(logLevels(harness)).toEqual([]);
  });
});

describe('progress', () => {
  for (const version of ['2024-11-05', '2025-11-25', 'modern'] as const) {
    it(`reports progress to the request's token (${version})`, async () => {
      const { server } = instrumented();
      const harness = await connect(server);
      if (version !== 'modern') await initialize(harness.client, version);
      const updates: ProgressUpdatePayload[] = [];
      const params = version === 'modern' ? modern({ name: 'chatty' }) : { name: 'chatty' };
      await harness.client.request('tools/call', params, {
        onProgress: (update) => updates.push(update as ProgressUpdatePayload),
      });
      expect(updates).toEqual([
        version === '2024-11-05' ? { progress: 1, total: 2 } : { progress: 1, total: 2, message: 'half' },
        { progress: 2, total: 2 },
      ]);
    });
  }

  it('sends no progress without a token', async () => {
    const { server } = instrumented();
    const harness = await connect(server);
    await harness.client.request('tools/call', modern({ name: 'chatty' }));
    expect(harness.notifications.filter((n) => n.method === 'notifications/progress')).toEqual([]);
  });
});

/** Calls the `wait` tool in `era` (initializing first in legacy); aborting the returned controller cancels the call. */
async function callWait(harness: Harness, era: 'legacy' | 'modern'): Promise<AbortController> {
  if (era === 'legacy') await initialize(harness.client, '2025-11-25');
  const controller = new AbortController();
  harness.client
    .request('tools/call', era === 'modern' ? modern({ name: 'wait' }) : { name: 'wait' }, {
      signal: controller.signal,
    })
    .catch(() => {});
  return controller;
}

describe('cancellation and context', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`notifications/cancelled aborts the handler's signal (${era})`, async () => {
      const { server, seen } = instrumented();
      const harness = await connect(server, { messageInfo: { auth: { token: 'tok', clientId: 'app' } } });
      const controller = await callWait(harness, era);
      await until(() => seen.era !== undefined);
      expect(seen.era).toBe(era);
      expect(seen.auth).toEqual({ token: 'tok', clientId: 'app' });
      expect(seen.clientInfo).toEqual({ name: 'test-client', version: '1.0.0' });
      controller.abort('user gave up');
      await until(() => seen.reason !== undefined);
      expect(String((seen.reason as { data?: { reason?: unknown } }).data?.reason)).toBe('user gave up');
      await until(() => harness.session.runningHandlerCount === 0);
    });
  }
});

describe('ctx.cancellation: the same cancellation without an AbortSignal', () => {
  function listening() {
    const server = new McpServer({ name: 's', version: '1' });
    const seen: { reason?: unknown; plain?: boolean; sameAsSignal?: boolean; started?: boolean } = {};
    server.registerTool('wait', {}, async (_args, ctx) => {
      const cancellation = ctx.cancellation;
      seen.plain = !(cancellation instanceof AbortSignal);
      seen.started = true;
      await new Promise<void>((resolve) => cancellation.addEventListener('abort', () => resolve(), { once: true }));
      seen.reason = cancellation.reason;
      seen.sameAsSignal = ctx.signal.aborted && ctx.signal.reason === cancellation.reason;
      return { content: [] };
    });
    return { server, seen };
  }

  for (const era of ['legacy', 'modern'] as const) {
    it(`aborts with notifications/cancelled, and agrees with ctx.signal (${era})`, async () => {
      const { server, seen } = listening();
      const harness = await connect(server);
      const controller = await callWait(harness, era);
      await until(() => seen.started === true);
      expect(seen.plain).toBe(true);
      controller.abort('user gave up');
      await until(() => seen.reason !== undefined);
      expect(String((seen.reason as { data?: { reason?: unknown } }).data?.reason)).toBe('user gave up');
      expect(seen.sameAsSignal).toBe(true);
      await until(() => harness.session.runningHandlerCount === 0);
    });
  }

  it('Server.handle takes an AbortLink as its signal: the handler hears of it, and no response comes', async () => {
    const { server, seen } = listening();
    const link = new AbortLink();
    const response = server.handle(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: modern({ name: 'wait' }) },
      { signal: link },
    );
    await until(() => seen.started === true);
    link.abort('client went away');
    await expect(response).resolves.toBeUndefined();
    expect(seen.reason).toBe('client went away');
    expect(seen.sameAsSignal).toBe(true);
  });
});

describe('subscriptions', () => {
  function docs() {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerResource('a', 'mem://a', {}, (uri) => ({ contents: [{ uri, text: 'a' }] }));
    server.registerResource('b', 'mem://b', {}, (uri) => ({ contents: [{ uri, text: 'b' }] }));
    return server;
  }

  it('legacy: subscribe/unsubscribe per session; updated only for subscribed URIs', async () => {
    const server = docs();
    const harness = await connect(server);
    const other = await connect(server);
    await initialize(harness.client, '2025-06-18');
    await initialize(other.client, '2025-06-18');
    await harness.client.request('resources/subscribe', { uri: 'mem://a' });
    server.notifyResourceUpdated('mem://a');
    server.notifyResourceUpdated('mem://b');
    await until(() => harness.notifications.length === 1);
    expect(harness.notifications[0]).toEqual({ method: 'notifications/resources/updated', params: { uri: 'mem://a' } });
    expect(other.notifications).toEqual([]);
    await harness.client.request('resources/unsubscribe', { uri: 'mem://a' });
    server.notifyResourceUpdated('mem://a');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(harness.notifications).toHaveLength(1);
    other.checked.assertClean();
    await other.close();
  });

  it('modern: listen acknowledges the honoured subset first, tags updates, and ends gracefully', async () => {
    const server = docs(); // no prompts registered: promptsListChanged is not honoured
    const harness = await connect(server);
    const listen = harness.client.request<Loose>(
      'subscriptions/listen',
      modern({
        notifications: { promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ['mem://a'] },
      }),
      { timeoutMs: 0 },
    );
    await until(() => harness.notifications.length === 1);
    expect(harness.notifications[0]).toEqual({
      method: 'notifications/subscriptions/acknowledged',
      params: {
        _meta: { 'io.modelcontextprotocol/subscriptionId': 1 },
        notifications: { resourcesListChanged: true, resourceSubscriptions: ['mem://a'] },
      },
    });
    server.notifyResourceUpdated('mem://b');
    server.notifyResourceUpdated('mem://a');
    await until(() => harness.notifications.length === 2);
    expect(harness.notifications[1]).toEqual({
      method: 'notifications/resources/updated',
      params: { uri: 'mem://a', _meta: { 'io.modelcontextprotocol/subscriptionId': 1 } },
    });
    server.server.closeSubscriptions();
    expect(await listen).toEqual({
      resultType: 'complete',
      _meta: {
        'io.modelcontextprotocol/subscriptionId': 1,
        'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' },
      },
    });
    expect(server.server.listenStreams.size).toBe(0);
  });

  it('modern: several listen streams on one connection are told apart by id', async () => {
    const server = docs();
    const harness = await connect(server);
    const first = harness.client.request(
      'subscriptions/listen',
      modern({ notifications: { resourceSubscriptions: ['mem://a'] } }),
      { timeoutMs: 0 },
    );
    const second = harness.client.request(
      'subscriptions/listen',
      modern({ notifications: { resourceSubscriptions: ['mem://a', 'mem://b'] } }),
      { timeoutMs: 0 },
    );
    await until(() => harness.notifications.length === 2);
    server.notifyResourceUpdated('mem://b');
    await until(() => harness.notifications.length === 3);
    expect(harness.notifications[2]!.params._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': 2 });
    server.notifyResourceUpdated('mem://a');
    await until(() => harness.notifications.length === 5);
    const ids = harness.notifications
      .slice(3)
      .map((n) => (n.params._meta as Record<string, unknown>)['io.modelcontextprotocol/subscriptionId']);
    expect(ids.sort()).toEqual([1, 2]);
    server.server.closeSubscriptions();
    await Promise.all([first, second]);
  });
});
