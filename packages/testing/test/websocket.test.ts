// The WebSocket transport against the contract: WebSocketClientTransport (WHATWG API, here on the ws package's
// WebSocket) and WebSocketServerTransport on a ws server listening on 127.0.0.1.
import { WebSocketClientTransport } from '@mcpkit/transport-websocket';
import { WebSocketServerTransport } from '@mcpkit/transport-websocket/node';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { acceptedEnd, describeTransport } from '../src/index';

let wss: WebSocketServer;
let url: string;
let onConnection: ((socket: WebSocket, path: string) => void) | undefined;

beforeAll(async () => {
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  wss.on('connection', (socket, request) => onConnection?.(socket, request.url ?? ''));
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const address = wss.address() as { port: number };
  url = `ws://127.0.0.1:${address.port}/mcp`;
});

afterAll(async () => {
  for (const socket of wss.clients) socket.terminate();
  await new Promise<void>((resolve) => wss.close(() => resolve()));
});

let clientSocket: WebSocket | undefined;
class CapturingWebSocket extends WebSocket {
  constructor(address: string | URL, protocols?: string | string[]) {
    super(address, protocols);
    clientSocket = this;
  }
}

describeTransport(
  'WebSocket',
  () => {
    const server = acceptedEnd<WebSocketServerTransport>();
    onConnection = (socket, path) =>
      server.arrive(new WebSocketServerTransport(socket, { info: { request: { url: path, headers: {} } } }));
    const client = new WebSocketClientTransport(url, {
      WebSocket: CapturingWebSocket as unknown as typeof globalThis.WebSocket,
    });
    return {
      client,
      server,
      injectInvalidFrame: () => clientSocket!.send('this is not json'),
    };
  },
  {
    describe,
    it,
    capabilities: {
      invalidFrames: true,
      messageInfo: (info) => {
        if (info?.request?.url !== '/mcp') throw new Error('the upgrade request url is missing');
      },
    },
  },
);
