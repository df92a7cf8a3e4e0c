// The ws settings the transport relies on for speed and safety, as seen on the wire: no compression is negotiated
// whatever the client offers, and a text frame that is not valid UTF-8 closes the connection with 1007 on either side
// instead of reaching JSON.parse with replacement characters (silent corruption).
import type { AddressInfo } from 'node:net';
import type { JsonRpcMessage } from '@mcpkit/jsonrpc-core';
import { describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { WebSocketTransportError } from '../src/index';
import { clientTransport, closeAfterEach, closeEvent, rawSocket, recordingWebSocket, startServer } from './helpers';

closeAfterEach();

/** A ping request whose string holds a lone 0xff byte: invalid UTF-8 anywhere. */
function invalidUtf8Ping(): Buffer {
  const head = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"note":"');
  return Buffer.concat([head, Buffer.from([0xff]), Buffer.from('"}}')]);
}

describe('compression', () => {
  it('is never negotiated, although ws clients offer permessage-deflate by default', async () => {
    const { endpoint } = await startServer();
    const raw = await rawSocket(endpoint.url);
    expect(raw.extensions).toBe('');
    raw.close();

    const { WebSocket, sockets } = recordingWebSocket();
    const transport = clientTransport(endpoint.url, { WebSocket });
    await transport.start();
    expect(sockets[0]?.extensions).toBe('');
    await transport.close();
  });
});

describe('invalid UTF-8 in a text frame', () => {
  it('from a client: the server closes that connection with 1007 and never answers the frame', async () => {
    const { endpoint } = await startServer();
    const socket = await rawSocket(endpoint.url);
    const answers: string[] = [];
    socket.on('message', (data) => answers.push(String(data)));
    const closed = closeEvent(socket);
    // ws sends a Buffer as it is: a text frame with the raw bytes.
    socket.send(invalidUtf8Ping(), { binary: false });
    expect((await closed).code).toBe(1007);
    expect(answers).toEqual([]);
  });

  it('from a server: the client transport reports the invalid UTF-8, closes and delivers nothing', async () => {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, handleProtocols: () => 'mcp' });
    await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
    wss.on('connection', (socket) => socket.send(invalidUtf8Ping(), { binary: false }));
    try {
      const transport = clientTransport(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
      const received: JsonRpcMessage[] = [];
      const errors: Error[] = [];
      transport.onmessage = (message) => received.push(message);
      transport.onerror = (error) => errors.push(error);
      const closed = new Promise<Error | undefined>((resolve) => {
        transport.onclose = resolve;
      });
      await transport.start();
      const reason = (await closed) as WebSocketTransportError;
      // ws answers the frame with a 1007 close and reports why; the socket then ends (1006 when the server does not
      // send its close frame back first).
      expect(reason.code).toBe('ERR_WS_CLOSED');
      expect(errors.map((error) => error.message).join('\n')).toMatch(/invalid UTF-8/);
      expect(transport.closed).toBe(true);
      expect(received).toEqual([]);
    } finally {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    }
  });
});
