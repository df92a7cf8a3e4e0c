import { once } from 'node:events';
import type { Socket } from 'node:net';
import type { JsonRpcMessage } from '@mcpkit/jsonrpc-core';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { WebSocketClientTransport } from '../src/index';
import { WebSocketServerTransport } from '../src/node/index';

// Both ends hold the frames of one event-loop turn, up to eight per TCP write (write-batch.ts): one `writev` per message
// was a third of the CPU of both ends with 64 requests in flight, and a whole turn per write made the ends take turns. Held frames must still all arrive, in order, also when the
// transport is closed in the very turn they were sent in.

const opened: { close(): void }[] = [];
afterEach(() => {
  for (const closable of opened.splice(0)) closable.close();
});

/** A bare `ws` server on 127.0.0.1 that hands each connection to `onConnection`. */
async function bareServer(onConnection: (socket: WebSocket) => void): Promise<string> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'mcp' });
  opened.push(wss);
  wss.on('connection', onConnection);
  await once(wss, 'listening');
  const address = wss.address();
  if (address === null || typeof address === 'string') throw new Error('expected a TCP address');
  return `ws://127.0.0.1:${address.port}/mcp`;
}

/** Counts the TCP writes (`_write` and `_writev` calls) of the net socket under a `ws` socket. */
function countWrites(socket: WebSocket): { readonly count: number } {
  const tcp = (socket as unknown as { _socket: Socket & { _write: Function; _writev: Function } })._socket;
  const counter = { count: 0 };
  const write = tcp._write;
  const writev = tcp._writev;
  tcp._write = function (this: Socket, ...args: unknown[]) {
    counter.count += 1;
    return write.apply(this, args);
  };
  tcp._writev = function (this: Socket, ...args: unknown[]) {
    counter.count += 1;
    return writev.apply(this, args);
  };
  return counter;
}

function notification(index: number): JsonRpcMessage {
  return { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `n${index}` } };
}

/** Collects the text frames a `ws` socket receives until it closes; resolves with them and the close code. */
function collectUntilClose(socket: WebSocket): Promise<{ frames: string[]; code: number }> {
  const frames: string[] = [];
  socket.on('message', (data) => frames.push(String(data)));
  return new Promise((resolve) => socket.once('close', (code) => resolve({ frames, code })));
}

/** A started server transport on a bare `ws` server, with a `ws` client connected to it. */
async function serverSide(): Promise<{
  transport: WebSocketServerTransport;
  serverSocket: WebSocket;
  client: WebSocket;
}> {
  let accepted!: (socket: WebSocket) => void;
  const connection = new Promise<WebSocket>((resolve) => {
    accepted = resolve;
  });
  const url = await bareServer((socket) => accepted(socket));
  const client = new WebSocket(url, ['mcp']);
  opened.push(client);
  const serverSocket = await connection;
  const transport = new WebSocketServerTransport(serverSocket);
  await transport.start();
  return { transport, serverSocket, client };
}

describe('server transport: one TCP write per eight frames of a turn', () => {
  it('sends the frames of one turn eight to a write, all of them, in order', async () => {
    const { transport, serverSocket, client } = await serverSide();
    const writes = countWrites(serverSocket);
    const frames: string[] = [];
    const received = new Promise<void>((resolve) => {
      client.on('message', (data) => {
        frames.push(String(data));
        if (frames.length === 20) resolve();
      });
    });
    for (let i = 0; i < 20; i++) void transport.send(notification(i));
    await received;
    expect(frames.map((frame) => (JSON.parse(frame) as { params: { data: string } }).params.data)).toEqual(
      Array.from({ length: 20 }, (_, i) => `n${i}`),
    );
    // Eight frames a write (8 + 8 + 4); two when a write is still in the kernel as the next eight are released.
    expect(writes.count).toBeGreaterThanOrEqual(2);
    expect(writes.count).toBeLessThanOrEqual(3);
  });

  it('delivers what was sent in the turn it closes, then closes with 1000', async () => {
    const { transport, client } = await serverSide();
    const outcome = collectUntilClose(client);
    for (let i = 0; i < 50; i++) void transport.send(notification(i));
    await transport.close();
    const { frames, code } = await outcome;
    expect(frames).toHaveLength(50);
    expect((JSON.parse(frames[49] as string) as { params: { data: string } }).params.data).toBe('n49');
    expect(code).toBe(1000);
  });

  it('has written what was sent before close() returns, so even a terminate right after loses nothing', async () => {
    const { transport, serverSocket, client } = await serverSide();
    const outcome = collectUntilClose(client);
    for (let i = 0; i < 50; i++) void transport.send(notification(i));
    void transport.close();
    serverSocket.terminate();
    const { frames } = await outcome;
    expect(frames).toHaveLength(50);
  });
});

describe('client transport (ws class): one TCP write per eight frames of a turn', () => {
  async function connected(): Promise<{
    transport: WebSocketClientTransport;
    outcome: Promise<{ frames: string[]; code: number }>;
  }> {
    let outcome!: Promise<{ frames: string[]; code: number }>;
    const url = await bareServer((socket) => {
      outcome = collectUntilClose(socket);
    });
    const transport = new WebSocketClientTransport(url, { WebSocket });
    opened.push({ close: () => void transport.close() });
    await transport.start();
    // The server's connection handler has run by the time the client saw the handshake answer.
    await new Promise((resolve) => setImmediate(resolve));
    return { transport, outcome };
  }

  it('sends the frames of one turn eight to a write, all of them, in order', async () => {
    const { transport, outcome } = await connected();
    const writes = countWrites(transport.socket as unknown as WebSocket);
    for (let i = 0; i < 7; i++) void transport.send(notification(i));
    expect(writes.count).toBe(0);
    void transport.send(notification(7));
    void transport.send(notification(8));
    // The first eight left when the ninth was sent; the rest wait for the end of the turn.
    expect(writes.count).toBe(1);
    for (let i = 9; i < 20; i++) void transport.send(notification(i));
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes.count).toBeGreaterThanOrEqual(2);
    expect(writes.count).toBeLessThanOrEqual(3);
    await transport.close();
    const { frames } = await outcome;
    expect(frames.map((frame) => (JSON.parse(frame) as { params: { data: string } }).params.data)).toEqual(
      Array.from({ length: 20 }, (_, i) => `n${i}`),
    );
  });

  it('delivers what was sent in the turn it closes, then closes with 1000', async () => {
    const { transport, outcome } = await connected();
    for (let i = 0; i < 50; i++) void transport.send(notification(i));
    await transport.close();
    const { frames, code } = await outcome;
    expect(frames).toHaveLength(50);
    expect(code).toBe(1000);
  });

  it('has written what was sent before close() returns, so even a terminate right after loses nothing', async () => {
    const { transport, outcome } = await connected();
    const socket = transport.socket as unknown as WebSocket;
    for (let i = 0; i < 50; i++) void transport.send(notification(i));
    void transport.close();
    socket.terminate();
    const { frames } = await outcome;
    expect(frames).toHaveLength(50);
  });
});
