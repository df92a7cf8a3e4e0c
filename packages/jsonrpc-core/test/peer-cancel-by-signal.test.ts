import { describe, expect, it } from 'vitest';
import { AbortLink } from '../src/abort-link';
import { RequestAbortedError, RequestTimeoutError } from '../src/errors';
import type { JsonRpcRequest } from '../src/messages';
import { JsonRpcPeer } from '../src/peer';
import { flushMicrotasks, ScriptedTransport, testHooks } from './helpers';

// A transport that cancels some requests its own way (HTTP in MCP 2026-07-28 closes the response stream) says so with
// cancelsBySignal: the peer hands it a signal per such request and aborts it instead of sending a notification.

class SignalTransport extends ScriptedTransport {
  cancelsBySignal(request: JsonRpcRequest): boolean {
    return request.method !== 'legacy';
  }
}

async function peerOn(transport: ScriptedTransport) {
  const peer = new JsonRpcPeer({ hooks: testHooks });
  await peer.connect(transport);
  return peer;
}

describe('JsonRpcPeer: transports that cancel by signal', () => {
  it('passes a live signal with the request and aborts it, sending no notification, when the caller aborts', async () => {
    const transport = new SignalTransport();
    const peer = await peerOn(transport);
    const controller = new AbortController();
    const pending = peer.request('work', {}, { signal: controller.signal, relatedRequestId: 'outer' });
    const options = transport.sent[0]!.options!;
    expect(options.relatedRequestId).toBe('outer');
    expect(options.signal?.aborted).toBe(false);
    controller.abort('stop');
    await expect(pending).rejects.toBeInstanceOf(RequestAbortedError);
    expect(options.signal?.aborted).toBe(true);
    expect(options.signal?.reason).toBe('stop');
    await flushMicrotasks();
    expect(transport.methods()).toEqual(['work']);
  });

  it('passes the same cancellation as a plain AbortSource, and makes no AbortSignal until one is read', async () => {
    const transport = new SignalTransport();
    const peer = await peerOn(transport);
    const controller = new AbortController();
    const pending = peer.request('work', {}, { signal: controller.signal });
    const options = transport.sent[0]!.options!;
    const cancellation = options.cancellation!;
    expect(cancellation).toBeInstanceOf(AbortLink);
    let heard: unknown;
    cancellation.addEventListener('abort', () => {
      heard = cancellation.reason;
    });
    controller.abort('stop');
    await expect(pending).rejects.toBeInstanceOf(RequestAbortedError);
    expect(heard).toBe('stop');
    // Read only now: made already aborted, with the same reason.
    expect(options.signal?.aborted).toBe(true);
    expect(options.signal?.reason).toBe('stop');
  });

  it('aborts the signal on timeout, with the timeout error as the reason', async () => {
    const transport = new SignalTransport();
    const peer = await peerOn(transport);
    const pending = peer.request('work', {}, { timeoutMs: 5 });
    const error = await pending.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    const signal = transport.sent[0]!.options!.signal!;
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(error);
    await flushMicrotasks();
    expect(transport.methods()).toEqual(['work']);
  });

  it('leaves the signal untouched when the response arrives', async () => {
    const transport = new SignalTransport();
    const peer = await peerOn(transport);
    const pending = peer.request('work', {});
    transport.deliver({ jsonrpc: '2.0', id: 1, result: 'done' });
    await expect(pending).resolves.toBe('done');
    expect(transport.sent[0]!.options!.signal!.aborted).toBe(false);
  });

  it('sends the protocol notification for requests the transport does not cancel itself', async () => {
    const transport = new SignalTransport();
    const peer = await peerOn(transport);
    const controller = new AbortController();
    const pending = peer.request('legacy', {}, { signal: controller.signal });
    expect(transport.sent[0]!.options).toBeUndefined();
    controller.abort('stop');
    await expect(pending).rejects.toBeInstanceOf(RequestAbortedError);
    await flushMicrotasks();
    expect(transport.methods()).toEqual(['legacy', 'notifications/cancelled']);
  });

  it('gives transports without cancelsBySignal no signal, and sends the notification', async () => {
    const transport = new ScriptedTransport();
    const peer = await peerOn(transport);
    const controller = new AbortController();
    const pending = peer.request('work', {}, { signal: controller.signal });
    expect(transport.sent[0]!.options).toBeUndefined();
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(RequestAbortedError);
    await flushMicrotasks();
    expect(transport.methods()).toEqual(['work', 'notifications/cancelled']);
  });
});
