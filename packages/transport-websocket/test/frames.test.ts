import type { AddressInfo } from 'node:net';
import type { JsonRpcMessage } from '@mcpkit/jsonrpc-core';
import { ConnectionClosedError } from '@mcpkit/jsonrpc-core';
import { describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { WebSocketTransportError } from '../src/index';
import {
  clientTransport,
  closeAfterEach,
  closeEvent,
  MODERN_META,
  nextMessage,
  rawSocket,
  startServer,
} from './helpers';

closeAfterEach();

describe('server: bad frames get a JSON-RPC error and the connection stays usable', () => {
  it('answers invalid JSON with -32700, a non-message with -32600 and a binary frame with -32600', async () => {
    const { endpoint } = await startServer();
    const socket = await rawSocket(endpoint.url);

    socket.send('{not json');
    expect(await nextMessage(socket)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });

    socket.send('{"jsonrpc":"2.0","id":7}');
    expect(await nextMessage(socket)).toMatchObject({ id: 7, error: { code: -32600 } });

    socket.send(Buffer.from('{"jsonrpc":"2.0","id":8,"method":"ping"}'), { binary: true });
    const binary = await nextMessage(socket);
    expect(binary).toMatchObject({ id: null, error: { code: -32600 } });
    expect(String((binary.error as { message: string }).message)).toMatch(/binary frames are not accepted/);

    // A notification is never answered, even an invalid one: the next frame out is the answer to id 9.
    socket.send('{"jsonrpc":"2.0","method":"x","params":"x"}');
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'server/discover', params: { _meta: MODERN_META } }));
    expect(await nextMessage(socket)).toMatchObject({ id: 9, result: { supportedVersions: expect.any(Array) } });
    socket.close();
  });
});

describe('client: bad frames from the server are reported, never a crash', () => {
  it('reports a binary frame and invalid JSON through onerror and delivers the next valid message', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'mcp' });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    wss.on('connection', (socket) => {
      socket.send(Buffer.from([1, 2, 3]), { binary: true });
      socket.send('not json at all');
      socket.send('{"jsonrpc":"2.0","method":"notifications/ok"}');
    });
    try {
      const transport = clientTransport(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
      const errors: WebSocketTransportError[] = [];
      const received: JsonRpcMessage[] = [];
      const delivered = new Promise<void>((resolve) => {
        transport.onmessage = (message) => {
          received.push(message);
          resolve();
        };
      });
      transport.onerror = (error) => errors.push(error as WebSocketTransportError);
      await transport.start();
      await delivered;
      expect(errors.map((error) => error.code)).toEqual(['ERR_WS_BINARY_FRAME', 'ERR_WS_INVALID_MESSAGE']);
      expect(errors[1]?.data.jsonRpcCode).toBe(-32700);
      expect(received).toEqual([{ jsonrpc: '2.0', method: 'notifications/ok' }]);
      await transport.close();
    } finally {
      for (const socket of wss.clients) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    }
  });
});

describe('client transport lifecycle', () => {
  it('calls onclose once with no reason on close(), and rejects send afterwards', async () => {
    const { endpoint } = await startServer();
    const transport = clientTransport(endpoint.url);
    const reasons: (Error | undefined)[] = [];
    transport.onclose = (reason) => reasons.push(reason);
    await transport.start();
    await transport.close();
    await transport.close();
    expect(reasons).toEqual([undefined]);
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it('returns nothing from an accepted send (no promise per message) and delivers it', async () => {
    const { endpoint } = await startServer();
    const transport = clientTransport(endpoint.url);
    await transport.start();
    const answered = new Promise<JsonRpcMessage>((resolve) => {
      transport.onmessage = resolve;
    });
    const sent = transport.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: { _meta: MODERN_META },
    });
    expect(sent).toBeUndefined();
    expect(await answered).toMatchObject({ id: 1, result: { supportedVersions: expect.any(Array) } });
  });

  it('passes the close code and reason to onclose when the server closes', async () => {
    const { endpoint } = await startServer();
    const transport = clientTransport(endpoint.url);
    const closed = new Promise<Error | undefined>((resolve) => {
      transport.onclose = resolve;
    });
    await transport.start();
    await expect.poll(() => endpoint?.connections).toBe(1);
    await endpoint.close();
    const reason = (await closed) as WebSocketTransportError;
    expect(reason.code).toBe('ERR_WS_CLOSED');
    expect(reason.data).toMatchObject({ closeCode: 1001, closeReason: 'server shutting down' });
    expect(reason.message).toMatch(/1001 \(going away\)/);
  });

  it('fails start() clearly when nothing listens', async () => {
    const transport = clientTransport('ws://127.0.0.1:9/mcp');
    await expect(transport.start()).rejects.toMatchObject({ code: 'ERR_WS_CONNECT' });
  });

  it('a raw socket closing cleanly ends its server session', async () => {
    const started = await startServer();
    const { endpoint } = started;
    const socket = await rawSocket(endpoint.url);
    await expect.poll(() => started.mcp.sessions.size).toBe(1);
    const closed = closeEvent(socket);
    socket.close(1000);
    expect((await closed).code).toBe(1000);
    await expect.poll(() => started.mcp.sessions.size).toBe(0);
  });
});
