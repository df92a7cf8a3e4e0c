import { describe, expect, it, vi } from 'vitest';
import type { JsonRpcRequest } from '../src/messages';
import { connectedPeers, flushMicrotasks, progressTokenOf, scriptedPeer, testHooks } from './helpers';

function progress(token: unknown, value: number) {
  return { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: value } };
}

describe('JsonRpcPeer: progress', () => {
  it('attaches a token through the hook and routes matching notifications to onProgress', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const updates: unknown[] = [];
    const pending = peer.request('work', { input: 1 }, { onProgress: (update) => updates.push(update) });
    const sent = transport.last() as JsonRpcRequest;
    expect(sent.params).toEqual({ input: 1, _meta: { progressToken: sent.id } });
    transport.deliver(progress(sent.id, 1));
    transport.deliver(progress(sent.id, 2));
    expect(updates).toEqual([{ progress: 1 }, { progress: 2 }]);
    transport.deliver({ jsonrpc: '2.0', id: sent.id, result: 'done' });
    await expect(pending).resolves.toBe('done');
  });

  it('does not attach a token when onProgress is not given', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const pending = peer.request('work', { input: 1 });
    expect((transport.last() as JsonRpcRequest).params).toEqual({ input: 1 });
    await peer.close();
    await expect(pending).rejects.toThrow(/closed/);
  });

  it('routes progress to the right one of several pending requests', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const first: unknown[] = [];
    const second: unknown[] = [];
    void peer.request('a', undefined, { onProgress: (u) => first.push(u) }).catch(() => {});
    const tokenA = progressTokenOf(transport.last());
    void peer.request('b', undefined, { onProgress: (u) => second.push(u) }).catch(() => {});
    const tokenB = progressTokenOf(transport.last());
    transport.deliver(progress(tokenB, 10));
    transport.deliver(progress(tokenA, 20));
    transport.deliver(progress(tokenB, 30));
    expect(first).toEqual([{ progress: 20 }]);
    expect(second).toEqual([{ progress: 10 }, { progress: 30 }]);
    await peer.close();
  });

  it('lets progress with unknown tokens fall through to notification handlers', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const handler = vi.fn();
    const onProgress = vi.fn();
    peer.setNotificationHandler('notifications/progress', handler);
    void peer.request('a', undefined, { onProgress }).catch(() => {});
    transport.deliver(progress('someone-else', 1));
    // No pending request at all: also falls through.
    await peer.close();
    expect(handler).toHaveBeenCalledTimes(1);
    expect(handler.mock.calls[0]![0]).toEqual({ progressToken: 'someone-else', progress: 1 });
    expect(onProgress).not.toHaveBeenCalled();
  });

  it('stops routing progress once the request settled (late progress falls through)', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const handler = vi.fn();
    const onProgress = vi.fn();
    peer.setNotificationHandler('notifications/progress', handler);
    const pending = peer.request('a', undefined, { onProgress });
    const token = progressTokenOf(transport.last());
    transport.deliver({ jsonrpc: '2.0', id: 1, result: null });
    await pending;
    transport.deliver(progress(token, 1));
    expect(onProgress).not.toHaveBeenCalled();
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('does not route progress to a pending request that asked for none', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const handler = vi.fn();
    peer.setNotificationHandler('notifications/progress', handler);
    void peer.request('a').catch(() => {});
    transport.deliver(progress(1, 1)); // token equals the pending request's id
    expect(handler).toHaveBeenCalledTimes(1);
    await peer.close();
  });

  it('rejects onProgress without an attachProgressToken hook', async () => {
    const { peer, transport } = await scriptedPeer();
    await expect(peer.request('a', {}, { onProgress: () => {} })).rejects.toThrow(/attachProgressToken/);
    expect(transport.sent).toEqual([]);
    expect(peer.pendingRequestCount).toBe(0);
  });

  it('reports an onProgress callback that throws, and keeps the request alive', async () => {
    const errors: Error[] = [];
    const { peer, transport } = await scriptedPeer({ hooks: testHooks, onError: (error) => errors.push(error) });
    const pending = peer.request('a', undefined, {
      onProgress: () => {
        throw new Error('ui crashed');
      },
    });
    transport.deliver(progress(1, 1));
    expect(errors.map((error) => error.message)).toEqual(['ui crashed']);
    transport.deliver({ jsonrpc: '2.0', id: 1, result: 'fine' });
    await expect(pending).resolves.toBe('fine');
  });

  it('works end to end: a handler reports progress through ctx.notify', async () => {
    const { client, server } = await connectedPeers({ client: { hooks: testHooks }, server: { hooks: testHooks } });
    server.setRequestHandler('count', async (params, ctx) => {
      const token = (params as { _meta?: { progressToken?: string | number } })._meta?.progressToken;
      for (let step = 1; step <= 3; step++) {
        if (token !== undefined) await ctx.notify('notifications/progress', { progressToken: token, progress: step });
      }
      return 'counted';
    });
    const updates: unknown[] = [];
    await expect(client.request('count', {}, { onProgress: (u) => updates.push(u) })).resolves.toBe('counted');
    await flushMicrotasks();
    expect(updates).toEqual([{ progress: 1 }, { progress: 2 }, { progress: 3 }]);
  });
});
