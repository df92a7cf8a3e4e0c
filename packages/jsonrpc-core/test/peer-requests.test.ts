import { describe, expect, it, vi } from 'vitest';
import type { RequestContext } from '../src/context';
import { ConnectionClosedError, JsonRpcError, JsonRpcErrorCode } from '../src/errors';
import type { JsonRpcRequest, JsonRpcResponse } from '../src/messages';
import { JsonRpcPeer } from '../src/peer';
import { Router } from '../src/router';
import { connectedPeers, deferred, flushMicrotasks, ScriptedTransport, scriptedPeer } from './helpers';

describe('JsonRpcPeer: correlation', () => {
  it('answers a request from a handler over the linked pair', async () => {
    const { client, server } = await connectedPeers();
    server.setRequestHandler('add', (params) => {
      const [a, b] = params as [number, number];
      return a + b;
    });
    await expect(client.request('add', [2, 3])).resolves.toBe(5);
    expect(client.pendingRequestCount).toBe(0);
  });

  it('matches many concurrent requests to their own responses', async () => {
    const { client, server } = await connectedPeers();
    server.setRequestHandler('echo', async (params) => {
      const { n } = params as { n: number };
      // Finish in a scrambled order so responses leave out of order.
      for (let tick = 0; tick < (n * 7) % 13; tick++) await Promise.resolve();
      return n;
    });
    const numbers = Array.from({ length: 200 }, (_, n) => n);
    const results = await Promise.all(numbers.map((n) => client.request('echo', { n })));
    expect(results).toEqual(numbers);
  });

  it('settles out-of-order responses by id', async () => {
    const { peer, transport } = await scriptedPeer();
    const first = peer.request('a');
    const second = peer.request('b');
    const third = peer.request('c');
    const [a, b, c] = transport.messages() as JsonRpcRequest[];
    transport.deliver({ jsonrpc: '2.0', id: c!.id, result: 'C' });
    transport.deliver({ jsonrpc: '2.0', id: a!.id, result: 'A' });
    transport.deliver({ jsonrpc: '2.0', id: b!.id, error: { code: -32000, message: 'B failed', data: { x: 1 } } });
    await expect(third).resolves.toBe('C');
    await expect(first).resolves.toBe('A');
    const error = await second.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).toJSON()).toEqual({ code: -32000, message: 'B failed', data: { x: 1 } });
  });

  it('uses incrementing integer ids by default, and a custom generator when given', async () => {
    const { peer, transport } = await scriptedPeer();
    void peer.request('a').catch(() => {});
    void peer.request('b').catch(() => {});
    expect(transport.messages().map((message) => (message as JsonRpcRequest).id)).toEqual([1, 2]);

    let n = 0;
    const custom = await scriptedPeer({ idGenerator: () => `req-${++n}` });
    void custom.peer.request('a').catch(() => {});
    expect((custom.transport.last() as JsonRpcRequest).id).toBe('req-1');
    await peer.close();
    await custom.peer.close();
  });

  it('rejects a request whose generated id is already pending', async () => {
    const { peer } = await scriptedPeer({ idGenerator: () => 'same' });
    const first = peer.request('a');
    await expect(peer.request('b')).rejects.toThrow(/already uses/);
    expect(peer.pendingRequestCount).toBe(1);
    await peer.close();
    await expect(first).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('omits params when none are given and sends notifications without id', async () => {
    const { peer, transport } = await scriptedPeer();
    void peer.request('ping').catch(() => {});
    await peer.notify('notifications/initialized');
    await peer.notify('log', { level: 'info' }, { relatedRequestId: 7 });
    expect(transport.sent).toEqual([
      { message: { jsonrpc: '2.0', id: 1, method: 'ping' }, options: undefined },
      { message: { jsonrpc: '2.0', method: 'notifications/initialized' }, options: undefined },
      { message: { jsonrpc: '2.0', method: 'log', params: { level: 'info' } }, options: { relatedRequestId: 7 } },
    ]);
    await peer.close();
  });

  it('rejects requests and notifications when not connected', async () => {
    const peer = new JsonRpcPeer();
    await expect(peer.request('x')).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(peer.notify('x')).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(peer.request('x')).rejects.toThrow(/not connected/);
  });

  it('refuses to connect twice, but reconnects after close', async () => {
    const { peer } = await scriptedPeer();
    await expect(peer.connect(new ScriptedTransport())).rejects.toThrow(/already connected/);
    await peer.close();
    const next = new ScriptedTransport();
    await peer.connect(next);
    expect(peer.connected).toBe(true);
    expect(next.startCalls).toBe(1);
    void peer.request('again').catch(() => {});
    expect(next.messages()).toHaveLength(1);
    await peer.close();
  });

  it('rejects connect when start fails and stays disconnected', async () => {
    const transport = new ScriptedTransport();
    transport.start = () => Promise.reject(new Error('port busy'));
    const peer = new JsonRpcPeer();
    await expect(peer.connect(transport)).rejects.toThrow('port busy');
    expect(peer.connected).toBe(false);
    await expect(peer.request('x')).rejects.toBeInstanceOf(ConnectionClosedError);
  });
});

describe('JsonRpcPeer: inbound requests', () => {
  it('runs handlers concurrently', async () => {
    const { client, server } = await connectedPeers();
    let running = 0;
    let maxRunning = 0;
    const release = deferred();
    server.setRequestHandler('slow', async () => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await release.promise;
      running--;
      return 'done';
    });
    const calls = [client.request('slow'), client.request('slow'), client.request('slow')];
    await vi.waitFor(() => expect(running).toBe(3), { timeout: 1000, interval: 1 });
    expect(server.runningHandlerCount).toBe(3);
    release.resolve();
    await expect(Promise.all(calls)).resolves.toEqual(['done', 'done', 'done']);
    expect(maxRunning).toBe(3);
    expect(server.runningHandlerCount).toBe(0);
  });

  it('answers an unknown method with -32601 naming the method', async () => {
    const { peer, transport } = await scriptedPeer();
    transport.deliver({ jsonrpc: '2.0', id: 4, method: 'nope/missing' });
    await flushMicrotasks();
    expect(transport.last()).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32601, message: 'Method not found: nope/missing', data: { method: 'nope/missing' } },
    });
    await peer.close();
  });

  it('uses the fallback handler for unknown methods', async () => {
    const router = new Router();
    router.fallbackRequestHandler = (_params, ctx) => `fallback for ${ctx.method}`;
    const { client } = await connectedPeers({ server: { router } });
    await expect(client.request('anything')).resolves.toBe('fallback for anything');
  });

  it('maps handler errors: JsonRpcError as is, other errors to -32603 with the message only', async () => {
    const { peer, transport } = await scriptedPeer();
    peer.setRequestHandler('rpc-error', () => {
      throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, 'name is required', { field: 'name' });
    });
    peer.setRequestHandler('plain', async () => {
      throw new TypeError('cannot read x of undefined');
    });
    peer.setRequestHandler('string', () => {
      throw 'just a string';
    });
    peer.setRequestHandler('nothing', () => {
      throw undefined;
    });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'rpc-error' });
    transport.deliver({ jsonrpc: '2.0', id: 2, method: 'plain' });
    transport.deliver({ jsonrpc: '2.0', id: 3, method: 'string' });
    transport.deliver({ jsonrpc: '2.0', id: 4, method: 'nothing' });
    await flushMicrotasks();
    const byId = new Map(transport.messages().map((message) => [(message as JsonRpcResponse).id, message]));
    expect(byId.get(1)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'name is required', data: { field: 'name' } },
    });
    expect(byId.get(2)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32603, message: 'cannot read x of undefined' },
    });
    expect(JSON.stringify(byId.get(2))).not.toContain('at ');
    expect(byId.get(3)).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'just a string' } });
    expect(byId.get(4)).toEqual({ jsonrpc: '2.0', id: 4, error: { code: -32603, message: 'Internal error' } });
    await peer.close();
  });

  it('maps a JsonRpcError from another copy of the package by its brand', async () => {
    const { peer, transport } = await scriptedPeer();
    class Foreign extends Error {
      code = -32042;
      data = 'extra';
    }
    Object.defineProperty(Foreign.prototype, Symbol.for('@mcpkit/jsonrpc-core/JsonRpcError'), { value: true });
    peer.setRequestHandler('x', () => {
      throw new Foreign('from elsewhere');
    });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'x' });
    await flushMicrotasks();
    expect(transport.last()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32042, message: 'from elsewhere', data: 'extra' },
    });
    await peer.close();
  });

  it('sends null for a handler that returns undefined (JSON-RPC requires result)', async () => {
    const { peer, transport } = await scriptedPeer();
    peer.setRequestHandler('void', () => undefined);
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'void' });
    await flushMicrotasks();
    expect(transport.last()).toEqual({ jsonrpc: '2.0', id: 1, result: null });
    await peer.close();
  });

  it('gives handlers a context and sends responses with relatedRequestId', async () => {
    const { peer, transport } = await scriptedPeer();
    const auth = { token: 't', clientId: 'c' };
    let seen: RequestContext | undefined;
    peer.setRequestHandler('ctx', (params, ctx) => {
      seen = ctx;
      return params;
    });
    transport.deliver({ jsonrpc: '2.0', id: 'r1', method: 'ctx', params: { a: 1 } }, { auth });
    await flushMicrotasks();
    expect(seen?.requestId).toBe('r1');
    expect(seen?.method).toBe('ctx');
    expect(seen?.message).toEqual({ jsonrpc: '2.0', id: 'r1', method: 'ctx', params: { a: 1 } });
    expect(seen?.info.auth).toBe(auth);
    expect(seen?.peer).toBe(peer);
    expect(seen?.signal.aborted).toBe(false);
    expect(transport.sent.at(-1)).toEqual({
      message: { jsonrpc: '2.0', id: 'r1', result: { a: 1 } },
      options: { relatedRequestId: 'r1' },
    });
    await peer.close();
  });

  it('gives an empty info object when the transport passes none', async () => {
    const { peer, transport } = await scriptedPeer();
    let info: unknown;
    peer.setRequestHandler('x', (_params, ctx) => {
      info = ctx.info;
    });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'x' });
    await flushMicrotasks();
    expect(info).toEqual({});
    await peer.close();
  });

  it('ctx.notify and ctx.request are tied to the inbound request', async () => {
    const { peer, transport } = await scriptedPeer();
    peer.setRequestHandler('outer', async (_params, ctx) => {
      await ctx.notify('progress', { step: 1 });
      return ctx.request('inner/ask', { q: 1 });
    });
    transport.deliver({ jsonrpc: '2.0', id: 10, method: 'outer' });
    await flushMicrotasks();
    expect(transport.sent).toEqual([
      { message: { jsonrpc: '2.0', method: 'progress', params: { step: 1 } }, options: { relatedRequestId: 10 } },
      { message: { jsonrpc: '2.0', id: 1, method: 'inner/ask', params: { q: 1 } }, options: { relatedRequestId: 10 } },
    ]);
    transport.deliver({ jsonrpc: '2.0', id: 1, result: 'answer' });
    await flushMicrotasks();
    expect(transport.last()).toEqual({ jsonrpc: '2.0', id: 10, result: 'answer' });
    await peer.close();
  });

  it('delivers notifications to their handler, then the fallback, and ignores the rest', async () => {
    const router = new Router();
    const log = vi.fn();
    const fallback = vi.fn();
    router.setNotificationHandler('log', log);
    const { peer, transport } = await scriptedPeer({ router });
    transport.deliver({ jsonrpc: '2.0', method: 'log', params: { text: 'hi' } }, { auth: { token: 't' } });
    transport.deliver({ jsonrpc: '2.0', method: 'other' });
    router.fallbackNotificationHandler = fallback;
    transport.deliver({ jsonrpc: '2.0', method: 'other', params: [1] });
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]![0]).toEqual({ text: 'hi' });
    expect(log.mock.calls[0]![1]).toMatchObject({ method: 'log', info: { auth: { token: 't' } }, peer });
    expect(fallback).toHaveBeenCalledTimes(1);
    expect(fallback.mock.calls[0]![0]).toEqual([1]);
    expect(transport.sent).toEqual([]);
    await peer.close();
  });

  it('reports notification handler failures (sync and async) through onerror', async () => {
    const errors: Error[] = [];
    const { peer, transport } = await scriptedPeer({ onError: (error) => errors.push(error) });
    peer.setNotificationHandler('sync', () => {
      throw new Error('sync failure');
    });
    peer.setNotificationHandler('async', async () => {
      throw new Error('async failure');
    });
    transport.deliver({ jsonrpc: '2.0', method: 'sync' });
    transport.deliver({ jsonrpc: '2.0', method: 'async' });
    await flushMicrotasks();
    expect(errors.map((error) => error.message)).toEqual(['sync failure', 'async failure']);
    await peer.close();
  });

  it('shares one router between peers', async () => {
    const router = new Router();
    router.setRequestHandler('whoami', (_params, ctx) => ctx.info.auth?.clientId);
    const one = await connectedPeers({
      server: { router },
      transports: { second: { messageInfo: { auth: { token: 'a', clientId: 'one' } } } },
    });
    const two = await connectedPeers({
      server: { router },
      transports: { second: { messageInfo: { auth: { token: 'b', clientId: 'two' } } } },
    });
    await expect(one.client.request('whoami')).resolves.toBe('one');
    await expect(two.client.request('whoami')).resolves.toBe('two');
    expect(one.server.router).toBe(two.server.router);
  });

  it('tells the caller the request as sent, id and progress token included, before the transport sees it', async () => {
    const { client, server } = await connectedPeers({
      client: { hooks: { attachProgressToken: (params, token) => ({ ...(params as object), token }) } },
    });
    const seenByServer: unknown[] = [];
    server.setRequestHandler('listen', (params, ctx) => {
      seenByServer.push(ctx.requestId);
      return params;
    });
    let announced: JsonRpcRequest | undefined;
    const result = await client.request(
      'listen',
      { a: 1 },
      { onRequest: (request) => (announced = request), onProgress: () => {} },
    );
    expect(announced).toMatchObject({ jsonrpc: '2.0', method: 'listen', params: { a: 1, token: announced?.id } });
    expect(seenByServer).toEqual([announced?.id]);
    expect(result).toEqual({ a: 1, token: announced?.id });
  });

  it('fails the request, and sends nothing, when onRequest throws', async () => {
    const { peer, transport } = await scriptedPeer();
    await expect(
      peer.request('x', undefined, {
        onRequest: () => {
          throw new Error('no');
        },
      }),
    ).rejects.toThrow('no');
    expect(transport.sent).toEqual([]);
    expect(peer.pendingRequestCount).toBe(0);
  });
});
