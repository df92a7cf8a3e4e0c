import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestTimeoutError } from '../src/errors';
import type { JsonRpcRequest } from '../src/messages';
import { scriptedPeer } from './helpers';

// Browsers and Deno give `setTimeout` a number, not Node's Timeout object with ref()/unref(): the engine must not
// rely on them (a browser page once got the discover answer and then waited forever, the unref() call throwing while
// the response was handled).
afterEach(() => {
  vi.unstubAllGlobals();
});

function numericTimers() {
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  const handles = new Map<number, ReturnType<typeof setTimeout>>();
  let next = 1;
  vi.stubGlobal('setTimeout', (callback: () => void, ms?: number) => {
    const id = next++;
    handles.set(
      id,
      realSet(() => {
        handles.delete(id);
        callback();
      }, ms),
    );
    return id;
  });
  vi.stubGlobal('clearTimeout', (id: number) => {
    realClear(handles.get(id));
    handles.delete(id);
  });
}

describe('JsonRpcPeer where timers are numbers (browsers, Deno)', () => {
  it('resolves a request when its response arrives', async () => {
    numericTimers();
    const { peer, transport } = await scriptedPeer();
    const pending = peer.request('work', {}, { timeoutMs: 1_000 });
    const { id } = transport.sent[0]!.message as JsonRpcRequest;
    transport.deliver({ jsonrpc: '2.0', id, result: { done: true } });
    await expect(pending).resolves.toEqual({ done: true });
    const second = peer.request('again', {}, { timeoutMs: 1_000 });
    transport.deliver({ jsonrpc: '2.0', id: (transport.sent[1]!.message as JsonRpcRequest).id, result: 2 });
    await expect(second).resolves.toBe(2);
    await peer.close();
  });

  it('times a request out', async () => {
    numericTimers();
    const { peer } = await scriptedPeer();
    await expect(peer.request('slow', {}, { timeoutMs: 20 })).rejects.toBeInstanceOf(RequestTimeoutError);
    await peer.close();
  });
});
