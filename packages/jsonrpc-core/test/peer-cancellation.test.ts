import { describe, expect, it, vi } from 'vitest';
import { ConnectionClosedError, RequestAbortedError } from '../src/errors';
import type { JsonRpcRequest } from '../src/messages';
import { connectedPeers, deferred, flushMicrotasks, scriptedPeer, testHooks } from './helpers';

describe('JsonRpcPeer: outbound cancellation by AbortSignal', () => {
  it('rejects at once, without sending, when the signal is already aborted', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const controller = new AbortController();
    controller.abort('never mind');
    const error = await peer.request('x', {}, { signal: controller.signal }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect((error as RequestAbortedError).reason).toBe('never mind');
    expect(transport.sent).toEqual([]);
    expect(peer.pendingRequestCount).toBe(0);
  });

  it('rejects an in-flight request, forgets it and sends the hook cancellation', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const controller = new AbortController();
    const pending = peer.request(
      'tools/call',
      { name: 'slow' },
      { signal: controller.signal, relatedRequestId: 'outer' },
    );
    expect(peer.pendingRequestCount).toBe(1);
    controller.abort('user pressed stop');
    const error = (await pending.catch((caught: unknown) => caught)) as RequestAbortedError;
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(error.code).toBe('ERR_REQUEST_ABORTED');
    expect(error.data).toEqual({ method: 'tools/call', requestId: 1, reason: 'user pressed stop' });
    expect(peer.pendingRequestCount).toBe(0);
    await flushMicrotasks();
    expect(transport.sent.at(-1)).toEqual({
      message: {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 1, reason: 'user pressed stop' },
      },
      options: { relatedRequestId: 'outer' },
    });
  });

  it('sends no cancellation when the hook returns undefined (e.g. initialize)', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const controller = new AbortController();
    const pending = peer.request('initialize', {}, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(RequestAbortedError);
    await flushMicrotasks();
    expect(transport.methods()).toEqual(['initialize']);
  });

  it('sends no cancellation without the hook', async () => {
    const { peer, transport } = await scriptedPeer();
    const controller = new AbortController();
    const pending = peer.request('x', {}, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(RequestAbortedError);
    await flushMicrotasks();
    expect(transport.sent).toHaveLength(1);
  });

  it('removes its abort listener once the request settles', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const controller = new AbortController();
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    const pending = peer.request('x', {}, { signal: controller.signal });
    transport.deliver({ jsonrpc: '2.0', id: 1, result: 'done' });
    await expect(pending).resolves.toBe('done');
    expect(remove).toHaveBeenCalledTimes(1);
    controller.abort();
    await flushMicrotasks();
    expect(transport.sent).toHaveLength(1); // no cancellation for a settled request
  });
});

describe('JsonRpcPeer: inbound cancellation', () => {
  it('aborts the handler signal and sends no response', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const started = deferred();
    let reason: unknown;
    peer.setRequestHandler('slow', (_params, ctx) => {
      started.resolve();
      return new Promise((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => {
          reason = ctx.signal.reason;
          reject(ctx.signal.reason);
        });
      });
    });
    transport.deliver({ jsonrpc: '2.0', id: 5, method: 'slow' });
    await started.promise;
    expect(peer.runningHandlerCount).toBe(1);
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5, reason: 'bored' } });
    await flushMicrotasks();
    expect(reason).toBeInstanceOf(RequestAbortedError);
    expect((reason as RequestAbortedError).reason).toBe('bored');
    expect(peer.runningHandlerCount).toBe(0);
    expect(transport.sent).toEqual([]);
  });

  it('suppresses the response even when the handler ignores the signal', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const release = deferred<string>();
    peer.setRequestHandler('stubborn', () => release.promise);
    transport.deliver({ jsonrpc: '2.0', id: 'a', method: 'stubborn' });
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'a' } });
    release.resolve('finished anyway');
    await flushMicrotasks();
    expect(transport.sent).toEqual([]);
  });

  it('aborts a signal first read after the cancellation', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const gate = deferred();
    let aborted: boolean | undefined;
    peer.setRequestHandler('late-reader', async (_params, ctx) => {
      await gate.promise;
      aborted = ctx.signal.aborted;
    });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'late-reader' });
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    gate.resolve();
    await flushMicrotasks();
    expect(aborted).toBe(true);
  });

  it('ignores cancellations for unknown ids, leaving other handlers alone', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const release = deferred<string>();
    peer.setRequestHandler('slow', () => release.promise);
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'slow' });
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } });
    release.resolve('ok');
    await flushMicrotasks();
    expect(transport.last()).toEqual({ jsonrpc: '2.0', id: 1, result: 'ok' });
  });

  it('still passes the cancellation notification to a registered handler', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const seen = vi.fn();
    peer.setNotificationHandler('notifications/cancelled', seen);
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } });
    expect(seen).toHaveBeenCalledWith({ requestId: 3 }, expect.objectContaining({ method: 'notifications/cancelled' }));
  });

  it('cancels end to end: aborting the client request aborts the server handler', async () => {
    const { client, server } = await connectedPeers({ client: { hooks: testHooks }, server: { hooks: testHooks } });
    const started = deferred();
    const handlerAborted = deferred<unknown>();
    server.setRequestHandler('long', (_params, ctx) => {
      started.resolve();
      ctx.signal.addEventListener('abort', () => handlerAborted.resolve(ctx.signal.reason));
      return new Promise(() => {});
    });
    const controller = new AbortController();
    const pending = client.request('long', {}, { signal: controller.signal });
    await started.promise;
    controller.abort('stop');
    await expect(pending).rejects.toBeInstanceOf(RequestAbortedError);
    const reason = (await handlerAborted.promise) as RequestAbortedError;
    expect(reason.reason).toBe('stop');
  });

  it('aborts nested requests made through ctx.request when the outer request is cancelled', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    let nested: Promise<unknown> | undefined;
    peer.setRequestHandler('outer', (_params, ctx) => {
      nested = ctx.request('inner');
      return nested;
    });
    transport.deliver({ jsonrpc: '2.0', id: 'outer-1', method: 'outer' });
    await flushMicrotasks();
    const inner = transport.last() as JsonRpcRequest;
    expect(inner.method).toBe('inner');
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'outer-1' } });
    await expect(nested).rejects.toBeInstanceOf(RequestAbortedError);
    await flushMicrotasks();
    // The nested request was cancelled in turn; no response went out for the outer one.
    expect(transport.messages().slice(-1)).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: inner.id, reason: expect.any(String) },
      },
    ]);
  });
});

describe('JsonRpcPeer: transport info.signal', () => {
  it('aborts the handler signal when the transport aborts info.signal, and sends no response', async () => {
    const { peer, transport } = await scriptedPeer();
    const stream = new AbortController();
    const started = deferred();
    const aborted = deferred<unknown>();
    const release = deferred<string>();
    peer.setRequestHandler('stream', (_params, ctx) => {
      ctx.signal.addEventListener('abort', () => aborted.resolve(ctx.signal.reason));
      started.resolve();
      return release.promise;
    });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'stream' }, { signal: stream.signal });
    await started.promise;
    const reason = new Error('client closed the response stream');
    stream.abort(reason);
    expect(await aborted.promise).toBe(reason);
    release.resolve('too late');
    await flushMicrotasks();
    expect(transport.sent).toEqual([]);
  });

  it('sees an info.signal aborted before the handler read ctx.signal', async () => {
    const { peer, transport } = await scriptedPeer();
    const stream = new AbortController();
    stream.abort('gone');
    let aborted: boolean | undefined;
    peer.setRequestHandler('x', (_params, ctx) => {
      aborted = ctx.signal.aborted;
      return 'result';
    });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'x' }, { signal: stream.signal });
    await flushMicrotasks();
    expect(aborted).toBe(true);
    expect(transport.sent).toEqual([]);
  });

  it('suppresses the response when info.signal aborted even if ctx.signal was never read', async () => {
    const { peer, transport } = await scriptedPeer();
    const stream = new AbortController();
    const release = deferred<string>();
    peer.setRequestHandler('x', () => release.promise);
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'x' }, { signal: stream.signal });
    stream.abort();
    release.resolve('ignored');
    await flushMicrotasks();
    expect(transport.sent).toEqual([]);
  });

  it('stops listening to a long-lived info.signal when the handler finishes', async () => {
    const { peer, transport } = await scriptedPeer();
    const connection = new AbortController();
    const add = vi.spyOn(connection.signal, 'addEventListener');
    const remove = vi.spyOn(connection.signal, 'removeEventListener');
    peer.setRequestHandler('x', (_params, ctx) => ctx.signal.aborted);
    for (let id = 1; id <= 3; id++)
      transport.deliver({ jsonrpc: '2.0', id, method: 'x' }, { signal: connection.signal });
    await flushMicrotasks();
    expect(add).toHaveBeenCalledTimes(3);
    expect(remove).toHaveBeenCalledTimes(3);
    expect(transport.messages()).toHaveLength(3);
  });

  it('creates no AbortController for handlers that never read ctx.signal', async () => {
    const { peer, transport } = await scriptedPeer();
    const Original = globalThis.AbortController;
    let created = 0;
    class Counting extends Original {
      constructor() {
        super();
        created++;
      }
    }
    globalThis.AbortController = Counting;
    try {
      peer.setRequestHandler('fast', () => 1);
      for (let id = 1; id <= 10; id++) transport.deliver({ jsonrpc: '2.0', id, method: 'fast' });
      await flushMicrotasks();
      expect(transport.messages()).toHaveLength(10);
      expect(created).toBe(0);
    } finally {
      globalThis.AbortController = Original;
    }
  });

  it('aborts running handlers with ConnectionClosedError when the peer closes', async () => {
    const { peer, transport } = await scriptedPeer();
    const aborted = deferred<unknown>();
    peer.setRequestHandler('x', (_params, ctx) => {
      ctx.signal.addEventListener('abort', () => aborted.resolve(ctx.signal.reason));
      return new Promise(() => {});
    });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'x' });
    await flushMicrotasks();
    await peer.close();
    expect(await aborted.promise).toBeInstanceOf(ConnectionClosedError);
    expect(transport.sent).toEqual([]);
  });
});
