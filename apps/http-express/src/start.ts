// Listening and stopping: the http server around the express app, and a shutdown that leaves nothing behind.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AppOptions, createApp } from './app';

/** Options of {@link start}. */
export interface StartOptions extends AppOptions {
  /** Port; 0 picks a free one. Default 3000. */
  port?: number;
  /**
   * Interface to bind. Default `127.0.0.1`: reachable from this machine only. Binding `0.0.0.0` exposes the server
   * to the network; do it behind TLS, with auth, and with `allowedHosts` set (see app.ts).
   */
  host?: string;
  /** How long shutdown waits for in-flight requests before cutting their connections. Default 5 000 ms. */
  shutdownGraceMs?: number;
}

/** A running server from {@link start}. */
export interface RunningApp {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: URL;
  /** Ends every MCP session, stops accepting connections and waits for the open ones (up to the grace period). */
  close(): Promise<void>;
}

/**
 * Starts the sample on `node:http`.
 *
 * @example
 * const running = await start({ port: 0 });
 * console.log(running.url.href); // http://127.0.0.1:54321/mcp
 * await running.close();
 */
export async function start(options: StartOptions = {}): Promise<RunningApp> {
  const { app, handler } = createApp(options);
  const httpServer = createServer(app);
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? 3000, options.host ?? '127.0.0.1', () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const address = httpServer.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = new URL(`http://${shown}:${address.port}/mcp`);
  const graceMs = options.shutdownGraceMs ?? 5_000;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      // First the MCP side: sessions end and their SSE streams finish, later requests get 503.
      await handler.close();
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      // Keep-alive sockets with no request in flight would hold close() open until they time out.
      httpServer.closeIdleConnections();
      const timer = setTimeout(() => httpServer.closeAllConnections(), graceMs);
      timer.unref();
      await closed;
      clearTimeout(timer);
    })();
    return closing;
  };
  return { url, close };
}
