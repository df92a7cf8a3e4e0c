import { createLinkedTransports, JsonRpcPeer, RequestAbortedError } from '@mcpkit/jsonrpc-core';
import { describe, expect, it } from 'vitest';
import { createMcpPeerHooks, mcpPeerHooks } from './peer-hooks';

async function pair(hooks = mcpPeerHooks) {
  const [a, b] = createLinkedTransports();
  const client = new JsonRpcPeer({ hooks });
  const server = new JsonRpcPeer({ hooks });
  const seen: { method: string; params: unknown }[] = [];
  server.router.fallbackNotificationHandler = (params, ctx) => {
    seen.push({ method: ctx.method, params });
  };
  await Promise.all([client.connect(a), server.connect(b)]);
  return { client, server, seen };
}

describe('mcpPeerHooks', () => {
  it('carries the progress token in _meta and routes notifications/progress back to the request', async () => {
    const { client, server } = await pair();
    let token: unknown;
    server.setRequestHandler('tools/call', async (params, ctx) => {
      const meta = (params as { _meta: { progressToken: string | number }; name: string })._meta;
      token = meta.progressToken;
      await ctx.notify('notifications/progress', {
        progressToken: meta.progressToken,
        progress: 1,
        total: 2,
        message: 'half',
      });
      return { content: [], name: (params as { name: string }).name };
    });
    const updates: unknown[] = [];
    const result = await client.request(
      'tools/call',
      { name: 'x', _meta: { traceparent: 't' } },
      { onProgress: (progress) => updates.push(progress) },
    );
    expect(token).toBeDefined();
    expect(updates).toEqual([{ progress: 1, total: 2, message: 'half' }]);
    expect(result).toEqual({ content: [], name: 'x' });
  });

  it('sends notifications/cancelled with the reason on abort, and the receiver aborts the handler', async () => {
    const { client, server, seen } = await pair();
    const aborted = new Promise<unknown>((resolve) => {
      server.setRequestHandler('tools/call', (_params, ctx) => {
        ctx.signal.addEventListener('abort', () => resolve(ctx.signal.reason));
        return new Promise(() => {});
      });
    });
    const controller = new AbortController();
    const call = client.request('tools/call', { name: 'slow' }, { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort('user stop');
    await expect(call).rejects.toBeInstanceOf(RequestAbortedError);
    expect(await aborted).toBeDefined();
    // The engine acted on it, and still lets notification handlers observe it.
    expect(seen).toEqual([{ method: 'notifications/cancelled', params: { requestId: 1, reason: 'user stop' } }]);
  });

  it('never cancels initialize', () => {
    const hooks = createMcpPeerHooks();
    expect(hooks.cancellationNotification?.({ jsonrpc: '2.0', id: 1, method: 'initialize' }, 'x')).toBeUndefined();
    expect(
      hooks.cancellationNotification?.({ jsonrpc: '2.0', id: 2, method: 'tools/call' }, new Error('late')),
    ).toEqual({
      method: 'notifications/cancelled',
      params: { requestId: 2, reason: 'late' },
    });
  });

  it('lets a transport turn cancellation notifications off', () => {
    const hooks = createMcpPeerHooks({ sendCancellation: () => false });
    expect(hooks.cancellationNotification?.({ jsonrpc: '2.0', id: 2, method: 'tools/call' }, 'x')).toBeUndefined();
  });

  it('ignores malformed progress and cancellations without a request id', () => {
    expect(mcpPeerHooks.readProgress?.('notifications/progress', { progress: 'x', progressToken: 1 })).toBeUndefined();
    expect(mcpPeerHooks.readProgress?.('notifications/message', { progress: 1, progressToken: 1 })).toBeUndefined();
    expect(mcpPeerHooks.readCancellation?.('notifications/cancelled', { reason: 'task' })).toBeUndefined();
    expect(mcpPeerHooks.readCancellation?.('notifications/cancelled', { requestId: 'a' })).toEqual({ requestId: 'a' });
  });
});
