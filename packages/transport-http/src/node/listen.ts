import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type NodeHandlerOptions, toNodeHandler, type WebHandler } from './node-handler';

/** Options for {@link listen}. */
export interface ListenOptions extends NodeHandlerOptions {
  /** Port; 0 picks a free one. Default 3000. */
  port?: number;
  /** Interface to bind. Default `127.0.0.1` (local only: pass `0.0.0.0` deliberately, with `allowedHosts` set). */
  host?: string;
  /** The MCP endpoint path; other paths get 404. Default `/mcp`. */
  path?: string;
}

/** A running server from {@link listen}. */
export interface ListeningServer {
  /** The endpoint URL, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: URL;
  readonly server: HttpServer;
  /** Stops accepting connections, ends open ones, and closes the handler when it has `close()`. */
  close(): Promise<void>;
}

/**
 * Serves a handler on `node:http` at one path — the shortest way to run an MCP server over HTTP on Node.
 *
 * @example
 * const { url, close } = await listen(createStreamableHttpHandler(server), { port: 3000 });
 * console.error(`MCP endpoint: ${url}`);
 */
export async function listen(
  handler: WebHandler & { close?: () => Promise<void> },
  options: ListenOptions = {},
): Promise<ListeningServer> {
  const path = options.path ?? '/mcp';
  const listener = toNodeHandler(handler, options);
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    if ((query === -1 ? url : url.slice(0, query)) !== path) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    void listener(req, res);
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: new URL(`http://${shown}:${address.port}${path}`),
    server,
    async close() {
      await handler.close?.();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
