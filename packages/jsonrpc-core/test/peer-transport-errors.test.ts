import { describe, expect, it } from 'vitest';
import { InvalidMessageError, JsonRpcError, UnknownResponseError } from '../src/errors';
import { flushMicrotasks, scriptedPeer, testHooks } from './helpers';

describe('JsonRpcPeer: send failures', () => {
  it('rejects the request with the error a rejecting send gave, and forgets it', async () => {
    const { peer, transport } = await scriptedPeer();
    const failure = new Error('socket hung up');
    transport.sendImpl = () => Promise.reject(failure);
    await expect(peer.request('x')).rejects.toBe(failure);
    expect(peer.pendingRequestCount).toBe(0);
  });

  it('rejects the request with the error a throwing send gave', async () => {
    const { peer, transport } = await scriptedPeer();
    const failure = new Error('write after end');
    transport.sendImpl = () => {
      throw failure;
    };
    await expect(peer.request('x')).rejects.toBe(failure);
    await expect(peer.notify('y')).rejects.toBe(failure);
    expect(peer.pendingRequestCount).toBe(0);
  });

  it('reports a failed response write through onerror', async () => {
    const errors: Error[] = [];
    const { peer, transport } = await scriptedPeer({ onError: (error) => errors.push(error) });
    peer.setRequestHandler('x', () => 'result');
    transport.sendImpl = () => Promise.reject(new Error('response write failed'));
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'x' });
    await flushMicrotasks();
    expect(errors.map((error) => error.message)).toEqual(['response write failed']);
  });

  it('reports a failed cancellation write through onerror', async () => {
    const errors: Error[] = [];
    const { peer, transport } = await scriptedPeer({ hooks: testHooks, onError: (error) => errors.push(error) });
    const controller = new AbortController();
    const pending = peer.request('x', {}, { signal: controller.signal });
    transport.sendImpl = () => Promise.reject(new Error('cancel write failed'));
    controller.abort();
    await expect(pending).rejects.toThrow(/aborted/);
    await flushMicrotasks();
    expect(errors.map((error) => error.message)).toEqual(['cancel write failed']);
  });

  it('forwards transport errors to onerror without closing', async () => {
    const errors: Error[] = [];
    const { peer, transport } = await scriptedPeer({ onError: (error) => errors.push(error) });
    transport.onerror?.(new Error('bad frame'));
    expect(errors.map((error) => error.message)).toEqual(['bad frame']);
    expect(peer.connected).toBe(true);
  });

  it('survives an onerror handler that throws', async () => {
    const { peer, transport } = await scriptedPeer({
      onError: () => {
        throw new Error('logger broke');
      },
    });
    expect(() => transport.deliver({ jsonrpc: '2.0', id: 77, result: 1 })).not.toThrow();
    expect(peer.connected).toBe(true);
  });
});

describe('JsonRpcPeer: unknown and late responses', () => {
  it('reports a response with an unknown id and ignores it', async () => {
    const errors: Error[] = [];
    const { peer, transport } = await scriptedPeer({ onError: (error) => errors.push(error) });
    const pending = peer.request('x');
    transport.deliver({ jsonrpc: '2.0', id: 'nope', result: 1 });
    transport.deliver({ jsonrpc: '2.0', id: 42, error: { code: 1, message: 'x' } });
    expect(errors).toHaveLength(2);
    expect(errors.every((error) => error instanceof UnknownResponseError)).toBe(true);
    expect((errors[0] as UnknownResponseError).data).toEqual({ id: 'nope' });
    expect(peer.pendingRequestCount).toBe(1);
    transport.deliver({ jsonrpc: '2.0', id: 1, result: 'mine' });
    await expect(pending).resolves.toBe('mine');
  });

  it('ignores a duplicate response for an already settled request', async () => {
    const errors: Error[] = [];
    const { peer, transport } = await scriptedPeer({ onError: (error) => errors.push(error) });
    const pending = peer.request('x');
    transport.deliver({ jsonrpc: '2.0', id: 1, result: 'first' });
    transport.deliver({ jsonrpc: '2.0', id: 1, result: 'second' });
    await expect(pending).resolves.toBe('first');
    expect(errors).toHaveLength(1);
  });

  it('reports an error response with a null id as the JsonRpcError it carries', async () => {
    const errors: Error[] = [];
    const { peer, transport } = await scriptedPeer({ onError: (error) => errors.push(error) });
    transport.deliver({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    transport.deliver({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' } });
    expect(errors.map((error) => (error as JsonRpcError).code)).toEqual([-32700, -32600]);
    expect(errors.every((error) => error instanceof JsonRpcError)).toBe(true);
    expect(peer.connected).toBe(true);
  });
});

describe('JsonRpcPeer: invalid messages from the transport', () => {
  it('answers an invalid request whose id can be recovered with -32600', async () => {
    const errors: Error[] = [];
    const { transport } = await scriptedPeer({ onError: (error) => errors.push(error) });
    transport.deliver({ jsonrpc: '2.0', id: 5, method: 3 });
    transport.deliver({ jsonrpc: '1.0', id: 'v', method: 'x' });
    transport.deliver({ jsonrpc: '2.0', id: 6, method: 'x', params: 'scalar' });
    expect(transport.sent.map(({ message, options }) => [message, options])).toEqual([
      [
        { jsonrpc: '2.0', id: 5, error: { code: -32600, message: expect.stringContaining('"method"') } },
        { relatedRequestId: 5 },
      ],
      [
        { jsonrpc: '2.0', id: 'v', error: { code: -32600, message: expect.stringContaining('"jsonrpc"') } },
        { relatedRequestId: 'v' },
      ],
      [
        { jsonrpc: '2.0', id: 6, error: { code: -32600, message: expect.stringContaining('"params"') } },
        { relatedRequestId: 6 },
      ],
    ]);
    expect(errors).toEqual([]);
  });

  it('reports what it cannot answer through onerror, and never replies to broken responses', async () => {
    const errors: Error[] = [];
    const { peer, transport } = await scriptedPeer({ onError: (error) => errors.push(error) });
    const inputs: unknown[] = [
      'a string',
      42,
      null,
      [{ jsonrpc: '2.0', method: 'batched' }],
      { jsonrpc: '2.0', id: null, method: 'x' },
      { jsonrpc: '2.0', id: { nested: true }, method: 'x' },
      { jsonrpc: '2.0', method: 7 },
      { jsonrpc: '2.0', id: 3, result: 1, error: { code: 1, message: 'both' } },
      { jsonrpc: '2.0', id: 3, error: { message: 'no code' } },
      { jsonrpc: '2.0', id: 3 },
    ];
    for (const input of inputs) transport.deliver(input);
    expect(transport.sent).toEqual([]);
    expect(errors).toHaveLength(inputs.length);
    for (const [index, error] of errors.entries()) {
      expect(error).toBeInstanceOf(InvalidMessageError);
      expect((error as InvalidMessageError).data.received).toBe(inputs[index]);
      expect((error as InvalidMessageError).data.error.code).toBe(-32600);
    }
    expect(peer.connected).toBe(true);
  });

  it('reports a throwing protocol hook and keeps going', async () => {
    const errors: Error[] = [];
    const { peer, transport } = await scriptedPeer({
      hooks: {
        readCancellation: () => {
          throw new Error('hook bug');
        },
      },
      onError: (error) => errors.push(error),
    });
    peer.setRequestHandler('x', () => 'ok');
    transport.deliver({ jsonrpc: '2.0', method: 'anything' });
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'x' });
    await flushMicrotasks();
    expect(errors.map((error) => error.message)).toEqual(['hook bug']);
    expect(transport.last()).toEqual({ jsonrpc: '2.0', id: 1, result: 'ok' });
  });
});
