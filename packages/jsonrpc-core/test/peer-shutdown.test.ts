import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionClosedError } from '../src/errors';
import { connectedPeers, deferred, flushMicrotasks, scriptedPeer, testHooks } from './helpers';

afterEach(() => {
  vi.useRealTimers();
});

describe('JsonRpcPeer: shutdown', () => {
  it('rejects every pending request at once with ConnectionClosedError and clears every timer', async () => {
    vi.useFakeTimers();
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const controller = new AbortController();
    const requests = [
      peer.request('a'),
      peer.request('b', undefined, { timeoutMs: 5_000, maxTotalTimeoutMs: 60_000 }),
      peer.request('c', undefined, { signal: controller.signal, onProgress: () => {} }),
    ];
    // One timer for the deadlines of every request in flight.
    expect(vi.getTimerCount()).toBe(1);
    const outcomes = requests.map((request) =>
      request.then(
        () => 'resolved',
        (error: unknown) => error,
      ),
    );
    const closing = peer.close();
    // Rejected synchronously inside close(), before the transport finished closing.
    const errors = (await Promise.all(outcomes)) as ConnectionClosedError[];
    await closing;
    expect(errors.every((error) => error instanceof ConnectionClosedError)).toBe(true);
    expect(errors.map((error) => error.data)).toEqual([
      { method: 'a', requestId: 1 },
      { method: 'b', requestId: 2 },
      { method: 'c', requestId: 3 },
    ]);
    expect(errors[1]!.message).toBe("The connection closed while request 'b' (id 2) was pending");
    expect(vi.getTimerCount()).toBe(0);
    expect(peer.pendingRequestCount).toBe(0);
    // Nothing more was sent: no cancellations for a closed connection, and aborting later does nothing.
    controller.abort();
    await flushMicrotasks();
    expect(transport.methods()).toEqual(['a', 'b', 'c']);
  });

  it('rejects all pending requests in the same tick', async () => {
    const { peer } = await scriptedPeer();
    const settled: number[] = [];
    const requests = Array.from({ length: 50 }, (_, index) =>
      peer.request('x').catch(() => {
        settled.push(index);
      }),
    );
    void peer.close();
    await Promise.resolve();
    await Promise.resolve();
    expect(settled).toHaveLength(50);
    await Promise.all(requests);
  });

  it('reacts to the transport closing by itself the same way, calling onclose once', async () => {
    const { client, server, serverTransport } = await connectedPeers();
    const onClientClose = vi.fn();
    const onServerClose = vi.fn();
    client.onclose = onClientClose;
    server.onclose = onServerClose;
    const never = deferred();
    server.setRequestHandler('hang', () => never.promise);
    const pending = client.request('hang');
    await flushMicrotasks();
    expect(server.runningHandlerCount).toBe(1);
    await serverTransport.close();
    await expect(pending).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(onClientClose).toHaveBeenCalledTimes(1);
    expect(onServerClose).toHaveBeenCalledTimes(1);
    expect(server.runningHandlerCount).toBe(0);
    expect(client.connected).toBe(false);
    await client.close();
    await server.close();
    expect(onClientClose).toHaveBeenCalledTimes(1);
    expect(onServerClose).toHaveBeenCalledTimes(1);
  });

  it('is idempotent and closes the transport once', async () => {
    const onclose = vi.fn();
    const { peer, transport } = await scriptedPeer({ onClose: onclose });
    await Promise.all([peer.close(), peer.close()]);
    await peer.close();
    expect(transport.closeCalls).toBe(1);
    expect(onclose).toHaveBeenCalledTimes(1);
  });

  it('calls onclose even when the transport never reports its close', async () => {
    const onclose = vi.fn();
    const { peer, transport } = await scriptedPeer({ onClose: onclose });
    transport.close = async () => {};
    await peer.close();
    expect(onclose).toHaveBeenCalledTimes(1);
  });

  it('ignores messages the transport delivers after close', async () => {
    const { peer, transport } = await scriptedPeer();
    const handler = vi.fn(() => 'x');
    peer.setRequestHandler('x', handler);
    await peer.close();
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'x' });
    await flushMicrotasks();
    expect(handler).not.toHaveBeenCalled();
    expect(transport.sent).toEqual([]);
  });

  it('sends no response for a handler that finishes after close', async () => {
    const { peer, transport } = await scriptedPeer();
    const release = deferred<string>();
    peer.setRequestHandler('x', () => release.promise);
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'x' });
    await peer.close();
    release.resolve('late');
    await flushMicrotasks();
    expect(transport.sent).toEqual([]);
  });

  it('rejects requests made after close', async () => {
    const { peer } = await scriptedPeer();
    await peer.close();
    await expect(peer.request('x')).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(peer.notify('x')).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('names the reason the transport gives for closing, and keeps it as the cause', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const pending = peer.request('tools/call').catch((error: unknown) => error);
    const exited = new Error('The MCP server process (node) exited with code 3');
    transport.onclose?.(exited);
    const error = (await pending) as ConnectionClosedError;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(error.message).toBe(
      "The connection closed while request 'tools/call' (id 1) was pending: The MCP server process (node) exited with code 3",
    );
    expect(error.cause).toBe(exited);
  });

  it('names the reason given to close(), keeps it as the cause, and still closes the transport', async () => {
    const { peer, transport } = await scriptedPeer({ hooks: testHooks });
    const pending = peer.request('tools/list').catch((error: unknown) => error);
    const silent = new Error('no answer to 3 pings in 90 s');
    await peer.close(silent);
    const error = (await pending) as ConnectionClosedError;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect(error.message).toBe(
      "The connection closed while request 'tools/list' (id 1) was pending: no answer to 3 pings in 90 s",
    );
    expect(error.cause).toBe(silent);
    expect(transport.closeCalls).toBe(1);
  });
});
