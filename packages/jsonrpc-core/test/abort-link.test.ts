import { describe, expect, it } from 'vitest';
import { AbortLink, toAbortSignal } from '../src/abort-link';
import { RequestAbortedError } from '../src/errors';
import { connectedPeers, deferred, flushMicrotasks, scriptedPeer, testHooks } from './helpers';

describe('AbortLink: an abort switch without an EventTarget', () => {
  it('runs its listeners once, in order, with an AbortError reason unless given one', () => {
    const link = new AbortLink();
    const seen: string[] = [];
    const second = () => seen.push('second');
    link.addEventListener('abort', () => seen.push(`first ${link.aborted}`));
    link.addEventListener('abort', second);
    link.addEventListener('abort', () => seen.push('third'));
    link.removeEventListener('abort', second);
    link.removeEventListener('abort', () => {}); // not added: nothing happens
    expect(link.aborted).toBe(false);
    expect(link.reason).toBeUndefined();
    link.abort();
    link.abort(new Error('later'));
    expect(seen).toEqual(['first true', 'third']);
    expect(link.reason).toMatchObject({ name: 'AbortError' });
    expect(link.reason).toBeInstanceOf(Error);
    // As with EventTarget, a listener added after the event never runs.
    link.addEventListener('abort', () => seen.push('late'));
    expect(seen).toHaveLength(2);

    const withReason = new AbortLink();
    const reason = new Error('closed');
    withReason.abort(reason);
    expect(withReason.reason).toBe(reason);
  });

  it('makes one real AbortSignal on demand, aborted with it (before or after)', () => {
    const link = new AbortLink();
    const signal = link.signal;
    expect(link.signal).toBe(signal);
    expect(signal.aborted).toBe(false);
    const reason = new Error('cancelled');
    link.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);

    const already = new AbortLink();
    already.abort();
    expect(already.signal.aborted).toBe(true);
    expect(already.signal.reason).toMatchObject({ name: 'AbortError' });
  });

  it('follows another source, and stops following when told', () => {
    const parent = new AbortController();
    const child = new AbortLink();
    const stop = child.follow(parent.signal);
    parent.abort('gone');
    expect(child.aborted).toBe(true);
    expect(child.reason).toBe('gone');

    const other = new AbortController();
    const detached = new AbortLink();
    detached.follow(other.signal)();
    other.abort();
    expect(detached.aborted).toBe(false);
    stop(); // after the abort: harmless

    const done = new AbortLink();
    done.abort('early');
    const late = new AbortLink();
    late.follow(done);
    expect(late.reason).toBe('early');
  });

  it('toAbortSignal: an AbortSignal as it is, a link its own signal, anything else a tied signal', () => {
    const real = new AbortController().signal;
    expect(toAbortSignal(real)).toBe(real);
    const link = new AbortLink();
    expect(toAbortSignal(link)).toBe(link.signal);
    let listener: (() => void) | undefined;
    const foreign = {
      aborted: false,
      reason: undefined as unknown,
      addEventListener: (_type: 'abort', added: () => void) => {
        listener = added;
      },
      removeEventListener: () => {},
    };
    const tied = toAbortSignal(foreign);
    expect(tied.aborted).toBe(false);
    foreign.aborted = true;
    foreign.reason = 'stop';
    listener?.();
    expect(tied.aborted).toBe(true);
    expect(tied.reason).toBe('stop');
  });
});

describe('an AbortLink as the signal of a request, and a handler context cancellation', () => {
  it('aborts an outgoing request and takes its listener off once it settles', async () => {
    const { client, server } = await connectedPeers({ client: { hooks: testHooks }, server: { hooks: testHooks } });
    const release = deferred<string>();
    server.setRequestHandler('slow', () => release.promise);
    server.setRequestHandler('quick', () => 'ok');
    const link = new AbortLink();
    const removed: unknown[] = [];
    const remove = link.removeEventListener.bind(link);
    link.removeEventListener = (type, listener) => {
      removed.push(listener);
      remove(type, listener);
    };
    await expect(client.request('quick', {}, { signal: link })).resolves.toBe('ok');
    expect(removed).toHaveLength(1);
    const pending = client.request('slow', {}, { signal: link });
    link.abort('stop');
    await expect(pending).rejects.toBeInstanceOf(RequestAbortedError);
    release.resolve('late');
    await client.close();
    await server.close();
  });

  it("a handler's cancellation aborts with the request, without making an AbortSignal, and forwards as a signal", async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const started = deferred();
    let sources: { cancellation: unknown; aborted: boolean; reason: unknown } | undefined;
    peer.setRequestHandler('slow', (_params, ctx) => {
      started.resolve();
      return new Promise((_resolve, reject) => {
        const cancellation = ctx.cancellation;
        expect(ctx.cancellation).toBe(cancellation);
        cancellation.addEventListener('abort', () => {
          sources = { cancellation, aborted: cancellation.aborted, reason: cancellation.reason };
          reject(cancellation.reason);
        });
      });
    });
    transport.deliver({ jsonrpc: '2.0', id: 7, method: 'slow' });
    await started.promise;
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'bored' } });
    await flushMicrotasks();
    expect(sources?.aborted).toBe(true);
    expect(sources?.reason).toBeInstanceOf(RequestAbortedError);
    expect(sources?.cancellation).toBeInstanceOf(AbortLink);
    expect(transport.sent).toEqual([]);
  });

  it('a cancellation read after the request was cancelled is aborted already; signal and cancellation agree', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const gate = deferred();
    let seen: { cancellation: boolean; signal: boolean; sameReason: boolean } | undefined;
    peer.setRequestHandler('late', async (_params, ctx) => {
      await gate.promise;
      seen = {
        cancellation: ctx.cancellation.aborted,
        signal: ctx.signal.aborted,
        sameReason: ctx.signal.reason === ctx.cancellation.reason,
      };
    });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'late' });
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    gate.resolve();
    await flushMicrotasks();
    expect(seen).toEqual({ cancellation: true, signal: true, sameReason: true });
  });
});
