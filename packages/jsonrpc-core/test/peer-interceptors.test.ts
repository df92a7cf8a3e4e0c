import { describe, expect, it, vi } from 'vitest';
import { JsonRpcError } from '../src/errors';
import type { Interceptor } from '../src/interceptor';
import type { JsonRpcRequest } from '../src/messages';
import { JsonRpcPeer } from '../src/peer';
import { connectedPeers, flushMicrotasks, ScriptedTransport, scriptedPeer } from './helpers';

function recorder(name: string, log: string[]): Interceptor {
  return {
    async inboundRequest(request, _ctx, next) {
      log.push(`${name}:in:${request.method}`);
      const result = await next();
      log.push(`${name}:in-done`);
      return result;
    },
    async outboundRequest(request, next) {
      log.push(`${name}:out:${request.method}`);
      const result = await next();
      log.push(`${name}:out-done`);
      return result;
    },
    inboundResponse(response, next) {
      log.push(`${name}:response:${String(response.id)}`);
      return next();
    },
    async outboundNotification(notification, options, next) {
      log.push(`${name}:notify:${notification.method}`);
      await next(notification, options);
    },
  };
}

describe('JsonRpcPeer: interceptors', () => {
  it('wraps all four points, the first added outermost', async () => {
    const log: string[] = [];
    const { client, server } = await connectedPeers({
      client: { interceptors: [recorder('A', log), recorder('B', log)] },
      server: { interceptors: [recorder('S', log)] },
    });
    server.setRequestHandler('work', async (_params, ctx) => {
      log.push('handler');
      await ctx.notify('note');
      return 'ok';
    });
    await expect(client.request('work')).resolves.toBe('ok');
    await client.notify('bye');
    expect(log).toEqual([
      'A:out:work',
      'B:out:work',
      'S:in:work',
      'handler',
      'S:notify:note',
      'S:in-done',
      'A:response:1',
      'B:response:1',
      'B:out-done',
      'A:out-done',
      'A:notify:bye',
      'B:notify:bye',
    ]);
  });

  it('lets an inbound-request interceptor answer itself, even for methods without a handler', async () => {
    const { client, server } = await connectedPeers();
    server.use({
      inboundRequest(request, _ctx, next) {
        if (request.method === 'tasks/get') return { status: 'working' };
        return next();
      },
    });
    await expect(client.request('tasks/get')).resolves.toEqual({ status: 'working' });
    await expect(client.request('other')).rejects.toMatchObject({ code: -32601 });
  });

  it('lets an inbound-request interceptor reject with a JsonRpcError or rewrite the request', async () => {
    const { client, server } = await connectedPeers();
    server.setRequestHandler('v2/echo', (params) => params);
    server.use({
      inboundRequest(request, _ctx, next) {
        if (request.method === 'forbidden') throw new JsonRpcError(-32001, 'Forbidden', { method: request.method });
        if (request.method === 'echo') return next({ ...request, method: 'v2/echo' });
        return next();
      },
    });
    await expect(client.request('forbidden')).rejects.toMatchObject({ code: -32001, data: { method: 'forbidden' } });
    await expect(client.request('echo', [1])).resolves.toEqual([1]);
  });

  it('lets an outbound-request interceptor rewrite params and options', async () => {
    const { peer, transport } = await scriptedPeer();
    peer.use({
      outboundRequest(request, next) {
        return next({
          ...request,
          params: { ...request.params, traced: true },
          options: { ...request.options, relatedRequestId: 'r' },
        });
      },
    });
    void peer.request('x', { a: 1 }).catch(() => {});
    expect(transport.sent).toEqual([
      {
        message: { jsonrpc: '2.0', id: 1, method: 'x', params: { a: 1, traced: true } },
        options: { relatedRequestId: 'r' },
      },
    ]);
    await peer.close();
  });

  it('lets an outbound-request interceptor answer locally without sending', async () => {
    const { peer, transport } = await scriptedPeer();
    peer.use({ outboundRequest: async (request, next) => (request.method === 'cached' ? 'from cache' : next()) });
    await expect(peer.request('cached')).resolves.toBe('from cache');
    expect(transport.sent).toEqual([]);
  });

  it('turns a synchronous throw in an outbound interceptor into a rejection', async () => {
    const { peer } = await scriptedPeer();
    peer.use({
      outboundRequest() {
        throw new Error('interceptor bug');
      },
      outboundNotification() {
        throw new Error('notification interceptor bug');
      },
    });
    const request = peer.request('x');
    await expect(request).rejects.toThrow('interceptor bug');
    await expect(peer.notify('y')).rejects.toThrow('notification interceptor bug');
  });

  it('lets an inbound-response interceptor rewrite or swallow responses', async () => {
    const { peer, transport } = await scriptedPeer();
    peer.use({
      inboundResponse(response, next) {
        if (response.id === 2) return; // swallowed
        if ('result' in response) return next({ ...response, result: { wrapped: response.result } });
        return next();
      },
    });
    const first = peer.request('a');
    const second = peer.request('b', undefined, { timeoutMs: 0 });
    transport.deliver({ jsonrpc: '2.0', id: 1, result: 'raw' });
    transport.deliver({ jsonrpc: '2.0', id: 2, result: 'never seen' });
    await expect(first).resolves.toEqual({ wrapped: 'raw' });
    await flushMicrotasks();
    expect(peer.pendingRequestCount).toBe(1);
    await peer.close();
    await expect(second).rejects.toThrow(/closed/);
  });

  it('lets an outbound-notification interceptor drop or rewrite notifications', async () => {
    const { peer, transport } = await scriptedPeer();
    peer.use({
      outboundNotification(notification, options, next) {
        if (notification.method === 'noisy') return Promise.resolve();
        return next({ ...notification, params: { stamped: true } }, { ...options, relatedRequestId: 9 });
      },
    });
    await peer.notify('noisy');
    await peer.notify('kept');
    expect(transport.sent).toEqual([
      { message: { jsonrpc: '2.0', method: 'kept', params: { stamped: true } }, options: { relatedRequestId: 9 } },
    ]);
  });

  it('reports a rejecting inbound-response interceptor through onerror', async () => {
    const errors: Error[] = [];
    const { peer, transport } = await scriptedPeer({ onError: (error) => errors.push(error) });
    peer.use({ inboundResponse: async () => Promise.reject(new Error('response interceptor failed')) });
    void peer.request('x', undefined, { timeoutMs: 0 }).catch(() => {});
    transport.deliver({ jsonrpc: '2.0', id: 1, result: null });
    await flushMicrotasks();
    expect(errors.map((error) => error.message)).toEqual(['response interceptor failed']);
    await peer.close();
  });

  it('use() returns a remover, and a peer without interceptors runs the terminals directly', async () => {
    const { peer, transport } = await scriptedPeer();
    const seen = vi.fn();
    const remove = peer.use({
      outboundNotification: (notification, options, next) => {
        seen(notification.method);
        return next(notification, options);
      },
    });
    await peer.notify('one');
    remove();
    await peer.notify('two');
    expect(seen.mock.calls).toEqual([['one']]);
    expect(transport.methods()).toEqual(['one', 'two']);
  });

  it('runs interceptors given in the constructor, then ones added with use(), in that order', async () => {
    const log: string[] = [];
    const transport = new ScriptedTransport();
    const peer = new JsonRpcPeer({ interceptors: [recorder('ctor', log)] });
    peer.use(recorder('used', log));
    await peer.connect(transport);
    void peer.request('x').catch(() => {});
    expect(log).toEqual(['ctor:out:x', 'used:out:x']);
    expect((transport.last() as JsonRpcRequest).method).toBe('x');
    await peer.close();
  });

  it('gives the inbound interceptor the same context the handler gets', async () => {
    const { peer, transport } = await scriptedPeer();
    let interceptorCtx: unknown;
    let handlerCtx: unknown;
    peer.use({
      inboundRequest(_request, ctx, next) {
        interceptorCtx = ctx;
        return next();
      },
    });
    peer.setRequestHandler('x', (_params, ctx) => {
      handlerCtx = ctx;
    });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'x' });
    await flushMicrotasks();
    expect(interceptorCtx).toBeDefined();
    expect(interceptorCtx).toBe(handlerCtx);
  });
});
