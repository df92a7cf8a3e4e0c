// Listening and stopping: one node:http server for the page and, on /mcp, MCP over WebSocket.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@mcpkit/server';
import { createWebSocketServer, type McpWebSocketServer } from '@mcpkit/transport-websocket/node';
import { createMcpServer } from './mcp-server';
import { createPageHandler } from './page';

/** Options of {@link start}. */
export interface StartOptions {
  /** Port; 0 picks a free one. Default 3000. */
  port?: number;
  /**
   * Interface to bind. Default `127.0.0.1`: reachable from this machine only. Binding another interface exposes the
   * server to the network; do it behind TLS and with the `authenticate` hook of `createWebSocketServer`.
   */
  host?: string;
}

/** A running sample from {@link start}. */
export interface RunningApp {
  /** The browser page, e.g. `http://127.0.0.1:3000/`. */
  readonly pageUrl: URL;
  /** The MCP endpoint, e.g. `ws://127.0.0.1:3000/mcp`. */
  readonly mcpUrl: URL;
  /** The browser origins allowed to open a WebSocket (the page's own). */
  readonly allowedOrigins: readonly string[];
  readonly mcpServer: McpServer;
  readonly endpoint: McpWebSocketServer;
  /** Closes every WebSocket (1001) and the HTTP server. */
  close(): Promise<void>;
}

/**
 * Starts the sample: the page at `/`, its script at `/browser.js`, MCP over WebSocket at `/mcp`.
 *
 * @example
 * const running = await start({ port: 0 });
 * console.log(running.pageUrl.href); // http://127.0.0.1:54321/
 * await running.close();
 */
export async function start(options: StartOptions = {}): Promise<RunningApp> {
  const page = await createPageHandler();
  const httpServer = createServer(page);
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? 3000, options.host ?? '127.0.0.1', () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const address = httpServer.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const pageUrl = new URL(`http://${shown}:${address.port}/`);
  const mcpUrl = new URL(`ws://${shown}:${address.port}/mcp`);

  // Only the page's own origin may connect: browsers let any site open a WebSocket anywhere, and send its Origin.
  // On loopback the page is as likely to be opened as localhost, which is another origin to the browser.
  const allowedOrigins = [pageUrl.origin];
  if (address.address === '127.0.0.1' || address.address === '::1') {
    allowedOrigins.push(`http://localhost:${address.port}`);
  }

  const mcpServer = createMcpServer();
  const endpoint = await createWebSocketServer(mcpServer, { server: httpServer, path: '/mcp', allowedOrigins });

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await endpoint.close(); // attached mode: closes the sockets, not our HTTP server
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeAllConnections(); // page requests are instant; keep-alive sockets would hold close() open
      await closed;
    })();
    return closing;
  };
  return { pageUrl, mcpUrl, allowedOrigins, mcpServer, endpoint, close };
}
