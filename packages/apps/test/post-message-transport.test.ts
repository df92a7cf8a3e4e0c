import { JsonRpcPeer } from '@mcpkit/jsonrpc-core';
import { describe, expect, it, vi } from 'vitest';
import { PostMessageTransport } from '../src/post-message-transport';

/** A stand-in for a cross-origin WindowProxy: `window` is itself, posts are recorded. */
function fakeWindow() {
  const posted: Array<{ message: unknown; targetOrigin: string }> = [];
  const win = {
    postMessage(message: unknown, targetOrigin: string) {
      posted.push({ message, targetOrigin });
    },
  } as { postMessage: (message: unknown, targetOrigin: string) => void; window?: unknown };
  win.window = win;
  return { win, posted };
}

function deliver(source: EventTarget, data: unknown, origin: string, from: unknown) {
  // Node's MessageEvent takes only a MessagePort as source; a browser's takes a window. The transport reads the fields.
  source.dispatchEvent(Object.assign(new Event('message'), { data, origin, source: from }));
}

describe('PostMessageTransport', () => {
  it('posts to a window with the target origin and hears only that origin and that window', async () => {
    const { win, posted } = fakeWindow();
    const { win: stranger } = fakeWindow();
    const events = new EventTarget();
    const rejected: string[] = [];
    const transport = new PostMessageTransport({
      target: win,
      source: events,
      targetOrigin: 'https://sandbox.example',
      onrejected: (reason, event) => rejected.push(`${reason}:${event.origin}`),
    });
    const received: unknown[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    transport.send({ jsonrpc: '2.0', method: 'hello' });
    expect(posted).toEqual([{ message: { jsonrpc: '2.0', method: 'hello' }, targetOrigin: 'https://sandbox.example' }]);

    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    deliver(events, ping, 'https://evil.example', win);
    deliver(events, ping, 'https://sandbox.example', stranger);
    deliver(events, ping, 'https://sandbox.example', win);
    expect(rejected).toEqual(['origin:https://evil.example', 'source:https://sandbox.example']);
    expect(received).toEqual([ping]);
    await transport.close();
  });

  it('answers a malformed request with -32600 and reports what it cannot answer', async () => {
    const { win, posted } = fakeWindow();
    const events = new EventTarget();
    const transport = new PostMessageTransport({ target: win, source: events });
    const errors: string[] = [];
    transport.onerror = (error) => errors.push(error.message);
    transport.onmessage = () => expect.unreachable('nothing malformed reaches the peer');
    await transport.start();
    deliver(events, { jsonrpc: '2.0', id: 7, method: 42 }, 'null', win);
    deliver(events, 'not even an object', 'null', win);
    deliver(events, { jsonrpc: '1.0', method: 'x' }, 'null', win);
    expect(errors).toHaveLength(3);
    expect(posted).toEqual([
      {
        message: expect.objectContaining({ id: 7, error: expect.objectContaining({ code: -32600 }) }),
        targetOrigin: '*',
      },
    ]);
    await transport.close();
  });

  it('carries a JSON-RPC peer over a MessageChannel (a worker is the same)', async () => {
    const channel = new MessageChannel();
    const a = new JsonRpcPeer();
    const b = new JsonRpcPeer();
    b.setRequestHandler('add', (params) => (params as number[]).reduce((x, y) => x + y, 0));
    await a.connect(new PostMessageTransport({ target: channel.port1 }));
    await b.connect(new PostMessageTransport({ target: channel.port2 }));
    expect(await a.request('add', [2, 3])).toBe(5);
    const closed = vi.fn();
    a.onclose = closed;
    await a.close();
    await b.close();
    channel.port1.close();
    expect(closed).toHaveBeenCalledOnce();
  });
});
