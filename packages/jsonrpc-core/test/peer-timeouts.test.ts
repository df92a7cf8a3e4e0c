import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestTimeoutError } from '../src/errors';
import type { JsonRpcRequest } from '../src/messages';
import { JsonRpcPeer } from '../src/peer';
import { flushMicrotasks, progressTokenOf, scriptedPeer, testHooks } from './helpers';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

function progress(token: string | number, value: number) {
  return { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: value } };
}

async function settledState(promise: Promise<unknown>) {
  let state: 'pending' | 'fulfilled' | 'rejected' = 'pending';
  promise.then(
    () => {
      state = 'fulfilled';
    },
    () => {
      state = 'rejected';
    },
  );
  await flushMicrotasks();
  return state;
}

describe('JsonRpcPeer: timeouts', () => {
  it('times out after 60 s by default and forgets the request', async () => {
    const { peer } = await scriptedPeer();
    const pending = peer.request('slow');
    const caught = pending.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(await settledState(pending)).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    const error = (await caught) as RequestTimeoutError;
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.code).toBe('ERR_REQUEST_TIMEOUT');
    expect(error.data).toEqual({ method: 'slow', requestId: 1, timeoutMs: 60_000, maxTotal: false });
    expect(error.message).toContain("'slow'");
    expect(peer.pendingRequestCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('uses the per-request timeout over the peer default', async () => {
    const { peer } = await scriptedPeer({ defaultTimeoutMs: 1_000 });
    const byDefault = peer.request('a').catch((error: unknown) => error);
    const explicit = peer.request('b', undefined, { timeoutMs: 300 }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(300);
    expect(await explicit).toBeInstanceOf(RequestTimeoutError);
    expect(peer.pendingRequestCount).toBe(1);
    await vi.advanceTimersByTimeAsync(700);
    expect(((await byDefault) as RequestTimeoutError).data.timeoutMs).toBe(1_000);
  });

  it('has no timeout with timeoutMs 0 or Infinity (and no timer at all)', async () => {
    const { peer, transport } = await scriptedPeer();
    const zero = peer.request('a', undefined, { timeoutMs: 0 });
    const infinite = peer.request('b', undefined, { timeoutMs: Number.POSITIVE_INFINITY });
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(24 * 60 * 60 * 1000);
    expect(await settledState(zero)).toBe('pending');
    expect(await settledState(infinite)).toBe('pending');
    const [a, b] = transport.messages() as JsonRpcRequest[];
    transport.deliver({ jsonrpc: '2.0', id: a!.id, result: 'a' });
    transport.deliver({ jsonrpc: '2.0', id: b!.id, result: 'b' });
    await expect(Promise.all([zero, infinite])).resolves.toEqual(['a', 'b']);
  });

  it('a peer default of 0 means no timeout', async () => {
    const { peer } = await scriptedPeer({ defaultTimeoutMs: 0 });
    void peer.request('a');
    expect(vi.getTimerCount()).toBe(0);
    expect(peer.pendingRequestCount).toBe(1);
  });

  it('rejects invalid timeout values', async () => {
    const { peer } = await scriptedPeer();
    await expect(peer.request('a', undefined, { timeoutMs: -1 })).rejects.toBeInstanceOf(RangeError);
    await expect(peer.request('a', undefined, { maxTotalTimeoutMs: Number.NaN })).rejects.toBeInstanceOf(RangeError);
    expect(() => new JsonRpcPeer({ defaultTimeoutMs: -5 })).toThrow(RangeError);
    expect(peer.pendingRequestCount).toBe(0);
  });

  it('keeps one timer for every request in flight, and a settled request times out nothing later', async () => {
    const { peer, transport } = await scriptedPeer();
    const first = peer.request('a', undefined, { timeoutMs: 1_000, maxTotalTimeoutMs: 5_000 });
    const second = peer.request('b', undefined, { timeoutMs: 2_000 });
    expect(vi.getTimerCount()).toBe(1);
    transport.deliver({ jsonrpc: '2.0', id: 1, result: 'ok' });
    transport.deliver({ jsonrpc: '2.0', id: 2, result: 'ok' });
    await expect(first).resolves.toBe('ok');
    await expect(second).resolves.toBe('ok');
    // Nothing in flight: the timer no longer holds the process, fires once, finds nothing due, and is gone.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(vi.getTimerCount()).toBe(0);
    expect(transport.methods()).toEqual(['a', 'b']);
  });

  it('times out the earliest deadline first, whatever order the requests were sent in', async () => {
    const { peer } = await scriptedPeer();
    const slow = peer.request('slow', undefined, { timeoutMs: 3_000 }).catch((error: unknown) => error);
    const fast = peer.request('fast', undefined, { timeoutMs: 1_000 }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(999);
    expect(await settledState(fast)).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(await fast).toBeInstanceOf(RequestTimeoutError);
    expect(await settledState(slow)).toBe('pending');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await slow).toBeInstanceOf(RequestTimeoutError);
    expect(peer.pendingRequestCount).toBe(0);
  });

  it('resets the idle timeout on each progress notification', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const updates: unknown[] = [];
    const pending = peer.request('work', {}, { timeoutMs: 1_000, onProgress: (update) => updates.push(update) });
    const caught = pending.catch((error: unknown) => error);
    const token = progressTokenOf(transport.last());
    for (let step = 1; step <= 5; step++) {
      await vi.advanceTimersByTimeAsync(900);
      transport.deliver(progress(token, step));
    }
    // 4.5 s have passed, far beyond the 1 s idle timeout, but progress kept it alive.
    expect(await settledState(pending)).toBe('pending');
    expect(updates).toHaveLength(5);
    await vi.advanceTimersByTimeAsync(1_000);
    const error = (await caught) as RequestTimeoutError;
    expect(error.data).toMatchObject({ timeoutMs: 1_000, maxTotal: false });
  });

  it('does not reset on progress when resetTimeoutOnProgress is false', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const updates: unknown[] = [];
    const caught = peer
      .request('work', {}, { timeoutMs: 1_000, resetTimeoutOnProgress: false, onProgress: (u) => updates.push(u) })
      .catch((error: unknown) => error);
    const token = progressTokenOf(transport.last());
    await vi.advanceTimersByTimeAsync(900);
    transport.deliver(progress(token, 1));
    await vi.advanceTimersByTimeAsync(100);
    expect(await caught).toBeInstanceOf(RequestTimeoutError);
    expect(updates).toHaveLength(1);
  });

  it('caps the total time with maxTotalTimeoutMs regardless of progress', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const caught = peer
      .request('work', {}, { timeoutMs: 1_000, maxTotalTimeoutMs: 3_000, onProgress: () => {} })
      .catch((error: unknown) => error);
    const token = progressTokenOf(transport.last());
    for (let step = 1; step <= 5; step++) {
      await vi.advanceTimersByTimeAsync(500);
      transport.deliver(progress(token, step));
    }
    await vi.advanceTimersByTimeAsync(499);
    expect(peer.pendingRequestCount).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const error = (await caught) as RequestTimeoutError;
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error.data).toEqual({ method: 'work', requestId: 1, timeoutMs: 3_000, maxTotal: true });
    expect(error.message).toContain('maximum total time');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('applies the peer-level maxTotalTimeoutMs, even without an idle timeout', async () => {
    const { peer } = await scriptedPeer({ maxTotalTimeoutMs: 2_000 });
    const caught = peer.request('a', undefined, { timeoutMs: 0 }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(((await caught) as RequestTimeoutError).data.maxTotal).toBe(true);
  });

  it('sends the cancellation notification from the hook on timeout', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const caught = peer.request('tools/call', { name: 'x' }, { timeoutMs: 100 }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(100);
    await caught;
    expect(transport.last()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1, reason: expect.stringContaining('100 ms') },
    });
  });

  it('ignores the late response to a timed-out request and reports it through onerror', async () => {
    const errors: Error[] = [];
    const { peer, transport } = await scriptedPeer({ onError: (error) => errors.push(error) });
    const caught = peer.request('a', undefined, { timeoutMs: 10 }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(10);
    expect(await caught).toBeInstanceOf(RequestTimeoutError);
    expect(() => transport.deliver({ jsonrpc: '2.0', id: 1, result: 'too late' })).not.toThrow();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'ERR_UNKNOWN_RESPONSE', data: { id: 1 } });
  });
});
