import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { Client, type ClientOptions } from '@mcpkit/client';
import type { Transport } from '@mcpkit/jsonrpc-core';
import type { McpServer } from '@mcpkit/server';
import {
  createSseHandler,
  createStreamableHttpHandler,
  SseClientTransport,
  StreamableHttpClientTransport,
} from '@mcpkit/transport-http';
import { listen, toNodeHandler } from '@mcpkit/transport-http/node';
import { StreamTransport } from '@mcpkit/transport-stdio';
import { WebSocketClientTransport } from '@mcpkit/transport-websocket';
import { createWebSocketServer } from '@mcpkit/transport-websocket/node';
import { WebSocket } from 'ws';

// Every way a client reaches an McpServer, each in the eras it carries. A test written against `PATHS` proves a seam
// on all of them: what works on stdio but not on stateless HTTP (or the reverse) fails here.

/** One way to reach a server: a transport pair and the era it speaks. */
export interface Path {
  /** `stdio`, `http-session`, `http-stateless`, `http-2026`, `legacy-sse`, `websocket`. */
  readonly transport: string;
  readonly era: 'legacy' | 'modern';
  /** The protocol version the client pins. */
  readonly version: string;
  /** Whether server→client requests (legacy asks) can travel on it. */
  readonly serverRequests: boolean;
}

/** A connected client and what to close afterwards. */
export interface Connected {
  readonly client: Client;
  close(): Promise<void>;
}

const LEGACY = '2025-11-25';
const MODERN = '2026-07-28';

export const PATHS: readonly Path[] = [
  { transport: 'stdio', era: 'legacy', version: LEGACY, serverRequests: true },
  { transport: 'stdio', era: 'modern', version: MODERN, serverRequests: false },
  { transport: 'http-session', era: 'legacy', version: LEGACY, serverRequests: true },
  { transport: 'http-stateless', era: 'legacy', version: LEGACY, serverRequests: false },
  { transport: 'http-2026', era: 'modern', version: MODERN, serverRequests: false },
  { transport: 'legacy-sse', era: 'legacy', version: '2024-11-05', serverRequests: true },
  { transport: 'websocket', era: 'legacy', version: LEGACY, serverRequests: true },
  { transport: 'websocket', era: 'modern', version: MODERN, serverRequests: false },
];

/** A readable name for a test title. */
export function pathName(path: Path): string {
  return `${path.transport} ${path.era} (${path.version})`;
}

/** Starts `server` on `path` and connects a new client to it with `options`. */
export async function connectOn(path: Path, server: McpServer, options: ClientOptions = {}): Promise<Connected> {
  const client = new Client({ name: 'paths', version: '1.0.0' }, options);
  const serving = await serve(path, server);
  try {
    await client.connect(serving.transport, { protocolVersion: path.version });
  } catch (error) {
    await serving.close();
    throw error;
  }
  return {
    client,
    close: async () => {
      await client.close().catch(() => undefined);
      await serving.close();
    },
  };
}

async function serve(path: Path, server: McpServer): Promise<{ transport: Transport; close(): Promise<void> }> {
  switch (path.transport) {
    case 'stdio': {
      // The NDJSON framing of stdio over in-process pipes: what a child process's stdin/stdout carry.
      const toServer = new PassThrough();
      const toClient = new PassThrough();
      const session = await server.connect(
        new StreamTransport({ input: toServer, output: toClient, answerInvalidMessages: true }),
      );
      return {
        transport: new StreamTransport({ input: toClient, output: toServer }),
        close: () => session.close(),
      };
    }
    case 'http-session':
    case 'http-stateless':
    case 'http-2026': {
      const handler = createStreamableHttpHandler(server, {
        sessions: path.transport !== 'http-stateless',
        keepAliveMs: 0,
      });
      const listening = await listen(handler, { port: 0, host: '127.0.0.1' });
      return {
        transport: new StreamableHttpClientTransport(listening.url, { fallbackToSse: false }),
        close: () => listening.close(),
      };
    }
    case 'legacy-sse': {
      // One handler serves both the stream (GET /sse) and the endpoint (POST /messages).
      const sse = createSseHandler(server, { endpoint: '/messages', keepAliveMs: 0 });
      const listener = toNodeHandler(sse);
      const http = createServer((req, res) => void listener(req, res));
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      const { port } = http.address() as AddressInfo;
      return {
        transport: new SseClientTransport(new URL(`http://127.0.0.1:${port}/sse`)),
        close: async () => {
          await sse.close();
          http.closeAllConnections();
          await new Promise((resolve) => http.close(resolve));
        },
      };
    }
    case 'websocket': {
      const endpoint = await createWebSocketServer(server, { host: '127.0.0.1', port: 0 });
      return {
        transport: new WebSocketClientTransport(endpoint.url, { WebSocket }),
        close: () => endpoint.close(),
      };
    }
    default:
      throw new Error(`unknown path ${path.transport}`);
  }
}
