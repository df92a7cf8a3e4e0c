import { createServer, type Server as HttpServer, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AuthInfo, MessageInfo } from '@mcpkit/jsonrpc-core';
import { type McpToolServer, type MessageBus, type Server, serverOf } from '@mcpkit/server';
import { shareBroadcasts } from '@mcpkit/server/cluster';
import { type WebSocket, WebSocketServer } from 'ws';
import { MCP_SUBPROTOCOL } from '../client-transport';
import { isLoopbackAddress, originAllowed } from './origin-policy';
import { DEFAULT_MAX_BUFFERED_BYTES, WebSocketServerTransport } from './server-transport';
import { refuseUpgrade, type UpgradeRefusal, upgradeRefusalOf } from './upgrade-refusal';

/** The default largest inbound message: 4 MiB (a bigger frame closes the connection with 1009). */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
/** The default ping interval: 30 s (a connection that missed a pong by the next ping is terminated). */
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 30_000;
/** The default cap on open connections (each one is a session): 10 000, as the HTTP transport's `maxSessions`. */
export const DEFAULT_MAX_CONNECTIONS = 10_000;

/** Options for `createWebSocketServer`. */
export interface WebSocketServerOptions {
  /** Attach to this server's `upgrade` event (an express app's: `const server = app.listen(…)`). */
  server?: HttpServer;
  /** Without `server`: listen on this port (0 picks a free one). Default 0. */
  port?: number;
  /** Without `server`: the interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** The path upgrades are accepted on. Default `/mcp`. */
  path?: string;
  /**
   * Browser origins allowed to connect, exactly as browsers send them (`https://app.example.com`). Default: local
   * origins when the server is bound to a loopback address, same-origin otherwise. Handshakes without `Origin`
   * (non-browser clients) are not affected.
   */
  allowedOrigins?: readonly string[];
  /** The largest inbound message in bytes (ws `maxPayload`); a bigger one closes that connection with 1009. Default 4 MiB. */
  maxMessageBytes?: number;
  /** Ping every connection this often; one that has not answered the previous ping is terminated. 0 disables. Default 30 000. */
  heartbeatIntervalMs?: number;
  /** Per-connection back-pressure bound (see `WebSocketServerTransport`). Default 1 MiB. */
  maxBufferedBytes?: number;
  /** At most this many open connections (each is a session); an upgrade beyond gets 503. Default 10 000. */
  maxConnections?: number;
  /**
   * Runs at upgrade time. Return the identity (handlers see it as `ctx.auth`), `undefined` for an anonymous
   * connection, or a refusal: an {@link UpgradeRefusal} (`{ status, headers, body }`, e.g. a 401 with
   * `WWW-Authenticate`), a web `Response`, or `false` for a bare 401. `@mcpkit/middleware`'s bearer auth provides
   * one: `...bearer.forWebSocket()`. Checks per request (per-tool scopes, an expired token, logging, rate limits) are
   * server middleware (`mcp.use(bearer.middleware)`), which every session runs.
   */
  authenticate?: (request: IncomingMessage) => WebSocketAuthResult | Promise<WebSocketAuthResult>;
  /**
   * Scale-out: the bus every instance of the server shares (`RedisMessageBus` of `@mcpkit/store-redis`). List changes
   * and resource updates announced on any instance then reach this instance's connections, legacy sessions and
   * 2026-07-28 listen streams alike (`shareBroadcasts`). A WebSocket session lives as long as its connection, so
   * nothing else needs sharing. Needs an `McpServer` or `Server` (not a bare `connect`).
   */
  bus?: MessageBus;
  /** Problems that concern no single request: a throwing `authenticate`, a socket error. */
  onerror?: (error: Error) => void;
}

/** What `authenticate` answers: an identity, anonymous (`undefined`), or a refusal of the upgrade. */
export type WebSocketAuthResult = AuthInfo | undefined | false | UpgradeRefusal | Response;

/** A running WebSocket endpoint for one `McpServer`. */
export interface McpWebSocketServer {
  /** The `ws` server (upgrades are handled by us; use it to inspect `clients`). */
  readonly wss: WebSocketServer;
  /** The HTTP server upgrades arrive on (the one passed in, or ours). */
  readonly httpServer: HttpServer;
  /** `ws://host:port/path` once listening (in attach mode, from the server's current address). */
  readonly url: string;
  /** Open connections. */
  readonly connections: number;
  /** Closes every connection (1001) and stops accepting; closes the HTTP server only if it is ours. */
  close(): Promise<void>;
}

/** What `createWebSocketServer` serves: an `McpServer` or a low-level `Server` (anything with `connect`). */
export type WebSocketSessionHost = Pick<Server, 'connect'>;

/**
 * Serves an `McpServer` (or low-level `Server`) over WebSocket, on `ws`. Each connection is one `ServerSession` with
 * its era fixed by its first request, as on stdio: a legacy session lives as long as its socket; 2026-07-28 requests
 * are handled one by one. One server definition serves every connection.
 *
 * @example
 * const mcp = new McpServer({ name: 'demo', version: '1.0.0' });
 * const endpoint = await createWebSocketServer(mcp, { port: 3000 }); // ws://127.0.0.1:3000/mcp
 *
 * @example
 * // With express: attach to the app's HTTP server.
 * const server = app.listen(3000, '127.0.0.1');
 * await createWebSocketServer(mcp, { server });
 */
export async function createWebSocketServer(
  mcpServer: WebSocketSessionHost,
  options: WebSocketServerOptions = {},
): Promise<McpWebSocketServer> {
  const path = options.path ?? '/mcp';
  const allowedOrigins =
    options.allowedOrigins === undefined ? undefined : new Set(options.allowedOrigins.map((o) => o.toLowerCase()));
  const maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  const heartbeatMs = options.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS;
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const report = (error: Error) => options.onerror?.(error);
  let releaseBus: (() => Promise<void>) | undefined;
  if (options.bus !== undefined) {
    const server = serverOf(mcpServer as McpToolServer | Server);
    if (typeof (server as Partial<Server>).dispatch !== 'function') {
      throw new TypeError('createWebSocketServer: the bus option needs an McpServer or Server to share broadcasts of');
    }
    releaseBus = await shareBroadcasts(server, options.bus, report);
  }

  const owned = options.server === undefined;
  const httpServer =
    options.server ??
    createServer((_request, response) => {
      response.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket' });
      response.end(`This endpoint speaks MCP over WebSocket at ${path} (subprotocol "${MCP_SUBPROTOCOL}").\n`);
    });

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    perMessageDeflate: false, // compression would hide the real buffered size and costs CPU per message
    handleProtocols: () => MCP_SUBPROTOCOL, // offered-ness is checked before the upgrade
  });
  // Per connection: whether a pong (or the handshake) arrived since the last ping.
  const alive = new Map<WebSocket, boolean>();

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = (request.url ?? '/').split('?', 1)[0];
    if (pathname !== path) {
      // Attached next to other WebSocket endpoints: theirs to answer.
      if (!owned && httpServer.listenerCount('upgrade') > 1) return;
      refuse(socket, 404, `Not Found: MCP over WebSocket is served at ${path}`);
      return;
    }
    if (wss.clients.size >= maxConnections) {
      refuse(socket, 503, `Service Unavailable: too many connections (${maxConnections})`, { maxConnections });
      return;
    }
    const origin = request.headers.origin;
    if (!originAllowed(origin, request.headers.host, allowedOrigins, isLoopbackAddress(httpServer.address()))) {
      refuse(socket, 403, `Forbidden: Origin '${origin}' is not allowed`, { origin });
      return;
    }
    const offered = (request.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
    if (!offered.includes(MCP_SUBPROTOCOL)) {
      refuse(
        socket,
        400,
        `Bad Request: offer the "${MCP_SUBPROTOCOL}" subprotocol (Sec-WebSocket-Protocol: ${MCP_SUBPROTOCOL}); e.g. new WebSocket(url, ['mcp'])`,
        { offered: offered.filter((p) => p !== '') },
      );
      return;
    }
    void authenticate(request)
      .then(
        (auth) => {
          if (auth === undefined || !isRefusal(auth)) {
            wss.handleUpgrade(request, socket, head, (ws) => accept(ws, request, auth));
            return;
          }
          return upgradeRefusalOf(auth).then((refusal) => refuseUpgrade(socket, refusal));
        },
        (error: unknown) => {
          report(error instanceof Error ? error : new Error(String(error)));
          refuse(socket, 500, 'Internal Server Error: authentication failed');
        },
      )
      .catch((error: unknown) => {
        // A refusal that cannot be written as given (a bad status or header): a server bug, not the client's.
        report(error instanceof Error ? error : new Error(String(error)));
        refuse(socket, 500, 'Internal Server Error: authentication failed');
      });
  };

  const authenticate = async (request: IncomingMessage): Promise<WebSocketAuthResult> =>
    options.authenticate === undefined ? undefined : options.authenticate(request);

  const accept = (ws: WebSocket, request: IncomingMessage, auth: AuthInfo | undefined) => {
    alive.set(ws, true);
    ws.on('pong', () => alive.set(ws, true));
    ws.on('close', () => alive.delete(ws));
    const info: MessageInfo = { request: { url: request.url, headers: flattenHeaders(request) } };
    if (auth !== undefined) info.auth = auth;
    const transport = new WebSocketServerTransport(ws, { info, maxBufferedBytes });
    mcpServer.connect(transport, { fixEra: true }).then(
      () => undefined,
      (error: unknown) => {
        report(error instanceof Error ? error : new Error(String(error)));
        ws.terminate();
      },
    );
  };

  httpServer.on('upgrade', onUpgrade);

  let heartbeat: ReturnType<typeof setInterval> | undefined;
  if (heartbeatMs > 0) {
    heartbeat = setInterval(() => {
      for (const [ws, answered] of alive) {
        if (!answered) {
          alive.delete(ws);
          ws.terminate(); // closes with 1006 on our side; the session's pending requests fail
          continue;
        }
        alive.set(ws, false);
        ws.ping(undefined, undefined, ignore);
      }
    }, heartbeatMs);
    heartbeat.unref();
  }

  if (owned) {
    await new Promise<void>((resolve, reject) => {
      httpServer.once('error', reject);
      httpServer.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
        httpServer.off('error', reject);
        resolve();
      });
    });
  }

  return {
    wss,
    httpServer,
    get url() {
      const address = httpServer.address();
      if (address === null || typeof address === 'string') return `ws+unix://${address ?? ''}:${path}`;
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return `ws://${host}:${address.port}${path}`;
    },
    get connections() {
      return alive.size;
    },
    async close() {
      clearInterval(heartbeat);
      await releaseBus?.();
      httpServer.off('upgrade', onUpgrade);
      for (const ws of wss.clients) ws.close(1001, 'server shutting down');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      if (owned) {
        for (const ws of wss.clients) ws.terminate();
        httpServer.closeAllConnections();
        await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      }
    },
  };
}

function flattenHeaders(request: IncomingMessage): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/**
 * `false` or a refusal from `authenticate`. An identity is what has a string `token` (as `AuthInfo` requires), so
 * anything else, including a malformed identity, fails closed: refused, or 500 when it is no valid refusal either.
 */
function isRefusal(result: Exclude<WebSocketAuthResult, undefined>): result is false | UpgradeRefusal | Response {
  return result === false || result instanceof Response || typeof (result as Partial<AuthInfo>).token !== 'string';
}

/** Refuses an upgrade with a JSON-RPC error body (and a bare Bearer challenge on 401). */
function refuse(socket: Duplex, status: number, message: string, data?: Record<string, unknown>): void {
  const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message, data } });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (status === 401) headers['www-authenticate'] = 'Bearer';
  refuseUpgrade(socket, { status, headers, body });
}

function ignore(): void {}
