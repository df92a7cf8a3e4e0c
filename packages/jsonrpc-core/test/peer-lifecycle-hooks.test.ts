import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '../src/messages';
import { JsonRpcPeer } from '../src/peer';
import type { Transport, TransportReceiver } from '../src/transport';
import { ScriptedTransport, testHooks } from './helpers';

// A server keeps thousands of idle peers, so the peer calls its subclass hook and `onerror` on itself instead of
// needing a closure per peer. These tests pin that contract.

class CountingPeer extends JsonRpcPeer {
  readonly events: string[] = [];
  protected override connectionClosed(): void {
    this.events.push('connectionClosed');
  }
}

describe('JsonRpcPeer lifecycle hooks', () => {
  it('runs connectionClosed once per close, before onclose, whoever set onclose', async () => {
    const peer = new CountingPeer();
    peer.onclose = () => peer.events.push('onclose');
    await peer.connect(new ScriptedTransport());
    await peer.close();
    await peer.close();
    expect(peer.events).toEqual(['connectionClosed', 'onclose']);
    await peer.connect(new ScriptedTransport());
    await peer.close();
    expect(peer.events).toEqual(['connectionClosed', 'onclose', 'connectionClosed', 'onclose']);
  });

  it('runs connectionClosed when the transport closes on its own', async () => {
    const peer = new CountingPeer();
    const transport = new ScriptedTransport();
    await peer.connect(transport);
    transport.onclose?.();
    expect(peer.events).toEqual(['connectionClosed']);
  });

  it('calls onerror with the peer as `this`, so one function can serve many peers', async () => {
    const seen: [unknown, string][] = [];
    function shared(this: unknown, error: Error) {
      seen.push([this, error.message]);
    }
    const peer = new JsonRpcPeer({ onError: shared });
    const transport = new ScriptedTransport();
    await peer.connect(transport);
    transport.deliver({ jsonrpc: '2.0', id: 99, result: 1 });
    expect(seen).toHaveLength(1);
    expect(seen[0]![0]).toBe(peer);
    expect(seen[0]![1]).toMatch(/unknown request id 99/);
  });

  it('tracks one running handler without a map, then several, and cancels the right one', async () => {
    const peer = new JsonRpcPeer({ hooks: testHooks });
    const transport = new ScriptedTransport();
    await peer.connect(transport);
    const releases = new Map<number, () => void>();
    const aborted: number[] = [];
    peer.setRequestHandler('wait', (params, ctx) => {
      const n = (params as { n: number }).n;
      ctx.signal.addEventListener('abort', () => aborted.push(n));
      return new Promise<number>((resolve) => releases.set(n, () => resolve(n)));
    });
    const settle = () => new Promise((resolve) => setTimeout(resolve, 1));
    transport.deliver({ jsonrpc: '2.0', id: 1, method: 'wait', params: { n: 1 } });
    expect(peer.runningHandlerCount).toBe(1);
    transport.deliver({ jsonrpc: '2.0', id: 2, method: 'wait', params: { n: 2 } });
    transport.deliver({ jsonrpc: '2.0', id: 3, method: 'wait', params: { n: 3 } });
    expect(peer.runningHandlerCount).toBe(3);
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } });
    expect(aborted).toEqual([2]);
    releases.get(1)!();
    releases.get(2)!();
    await settle();
    expect(peer.runningHandlerCount).toBe(1);
    // Back to a single running handler: cancellation still finds it.
    transport.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } });
    expect(aborted).toEqual([2, 3]);
    releases.get(3)!();
    await settle();
    expect(peer.runningHandlerCount).toBe(0);
    // Answers went out for 1 only: 2 and 3 were cancelled.
    expect(transport.sent.map((entry) => (entry.message as { id?: unknown }).id)).toEqual([1]);
    transport.deliver({ jsonrpc: '2.0', id: 4, method: 'wait', params: { n: 4 } });
    await peer.close();
    expect(aborted).toEqual([2, 3, 4]);
    expect(peer.runningHandlerCount).toBe(0);
  });

  it('delivers through attachReceiver when the transport has it, setting no slot closures', async () => {
    class ReceiverTransport implements Transport {
      onmessage?: Transport['onmessage'];
      onclose?: Transport['onclose'];
      onerror?: Transport['onerror'];
      receiver: TransportReceiver | undefined;
      readonly sent: JsonRpcMessage[] = [];
      attachReceiver(receiver: TransportReceiver): void {
        this.receiver = receiver;
      }
      async start(): Promise<void> {}
      send(message: JsonRpcMessage): void {
        this.sent.push(message);
      }
      async close(): Promise<void> {
        this.receiver?.transportClosed();
      }
    }
    const errors: string[] = [];
    let closes = 0;
    const peer = new JsonRpcPeer({ onError: (error) => errors.push(error.message), onClose: () => closes++ });
    peer.setRequestHandler('double', (params) => (params as number[]).map((n) => n * 2));
    const transport = new ReceiverTransport();
    await peer.connect(transport);
    expect(transport.receiver).toBeDefined();
    expect(transport.onmessage).toBeUndefined();
    expect(transport.onclose).toBeUndefined();
    expect(transport.onerror).toBeUndefined();
    transport.receiver!.receiveMessage({ jsonrpc: '2.0', id: 1, method: 'double', params: [1, 2] });
    await new Promise((resolve) => setTimeout(resolve, 1));
    expect(transport.sent).toEqual([{ jsonrpc: '2.0', id: 1, result: [2, 4] }]);
    transport.receiver!.transportError(new Error('bad frame'));
    expect(errors).toEqual(['bad frame']);
    const pending = peer.request('never', undefined, { timeoutMs: 0 });
    transport.receiver!.transportClosed(new Error('socket reset'));
    await expect(pending).rejects.toThrow(/socket reset/);
    expect(closes).toBe(1);
    expect(peer.connected).toBe(false);
  });
});
