import { describe, expect, it, vi } from 'vitest';
import { ConnectionClosedError } from './errors';
import { createLinkedTransports, InMemoryTransport } from './memory-transport';
import type { JsonRpcMessage } from './messages';

const note = (n: number): JsonRpcMessage => ({ jsonrpc: '2.0', method: 'n', params: [n] });

async function flush() {
  for (let round = 0; round < 20; round++) await Promise.resolve();
}

describe('createLinkedTransports', () => {
  it('delivers messages asynchronously and in order', async () => {
    const [a, b] = createLinkedTransports();
    const received: JsonRpcMessage[] = [];
    b.onmessage = (message) => received.push(message);
    await a.start();
    await b.start();
    for (let n = 0; n < 5; n++) void a.send(note(n));
    expect(received).toEqual([]); // not synchronous
    await flush();
    expect(received).toEqual([0, 1, 2, 3, 4].map(note));
  });

  it('holds messages sent before the receiver started', async () => {
    const [a, b] = createLinkedTransports();
    await a.start();
    await a.send(note(1));
    await a.send(note(2));
    const received: JsonRpcMessage[] = [];
    b.onmessage = (message) => received.push(message);
    await flush();
    expect(received).toEqual([]);
    await b.start();
    await b.send(note(99)); // the other direction does not interfere
    await a.send(note(3));
    await flush();
    expect(received).toEqual([note(1), note(2), note(3)]);
  });

  it('attaches MessageInfo, fixed or computed, on the receiving side', async () => {
    const auth = { token: 'secret', clientId: 'c1' };
    const [a, b] = createLinkedTransports({
      first: { messageInfo: (message) => ({ request: { url: `/m/${(message as { method: string }).method}` } }) },
      second: { messageInfo: { auth } },
    });
    const atA: unknown[] = [];
    const atB: unknown[] = [];
    a.onmessage = (_message, info) => atA.push(info);
    b.onmessage = (_message, info) => atB.push(info);
    await a.start();
    await b.start();
    await a.send(note(1));
    await b.send(note(2));
    await flush();
    expect(atB).toEqual([{ auth }]);
    expect(atA).toEqual([{ request: { url: '/m/n' } }]);
  });

  it('closes both sides on close of either, calling each onclose exactly once', async () => {
    const [a, b] = createLinkedTransports();
    const onA = vi.fn();
    const onB = vi.fn();
    a.onclose = onA;
    b.onclose = onB;
    await a.start();
    await b.start();
    await b.close();
    await a.close();
    await b.close();
    expect(onA).toHaveBeenCalledTimes(1);
    expect(onB).toHaveBeenCalledTimes(1);
    expect(a.closed && b.closed).toBe(true);
  });

  it('marks both sides closed before either onclose runs', async () => {
    const [a, b] = createLinkedTransports();
    const seen: boolean[] = [];
    a.onclose = () => seen.push(b.closed);
    await a.start();
    await b.start();
    await a.close();
    expect(seen).toEqual([true]);
  });

  it('rejects send after close, on both sides, with ConnectionClosedError', async () => {
    const [a, b] = createLinkedTransports();
    await a.start();
    await b.start();
    await a.close();
    await expect(a.send(note(1))).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(b.send(note(1))).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('delivers the messages sent before close, then onclose, then nothing', async () => {
    const [a, b] = createLinkedTransports();
    const seen: unknown[] = [];
    b.onmessage = (message) => seen.push(message);
    b.onclose = () => seen.push('closed');
    await a.start();
    await b.start();
    void a.send(note(1));
    void a.send(note(2));
    await a.close();
    await expect(a.send(note(3))).rejects.toBeInstanceOf(ConnectionClosedError);
    await flush();
    expect(seen).toEqual([note(1), note(2), 'closed']);
  });

  it('refuses a second start and reports an onmessage exception through onerror', async () => {
    const [a, b] = createLinkedTransports();
    await a.start();
    await expect(a.start()).rejects.toThrow(/already started/);
    const errors: Error[] = [];
    b.onerror = (error) => errors.push(error);
    b.onmessage = () => {
      throw new Error('handler blew up');
    };
    await b.start();
    await a.send(note(1));
    await flush();
    expect(errors.map((error) => error.message)).toEqual(['handler blew up']);
  });

  it('an unlinked transport cannot send', async () => {
    const lone = new InMemoryTransport();
    await lone.start();
    await expect(lone.send(note(1))).rejects.toThrow(/not linked/);
  });
});
