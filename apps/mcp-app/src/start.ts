// Listening and stopping: the host page and MCP (Streamable HTTP, /mcp) on one port, the sandbox proxy on another.
// Two ports are two origins: the spec wants the view's sandbox on an origin other than the host page's.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppsServer } from '@mcpkit/apps';
import { sandboxProxyHtml } from '@mcpkit/apps/host';
import type { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/transport-http';
import { toNodeHandler } from '@mcpkit/transport-http/node';
import { buildViews } from './build-views';
import { bundleHostPage } from './host-bundle';
import { createMcpAppServer } from './mcp-server';

/** A file served from memory. */
export interface ServedFile {
  type: string;
  body: string | Uint8Array;
}

/** Options of {@link start}. */
export interface StartOptions {
  /** Port of the host page and /mcp; 0 picks a free one. Default 3000. */
  port?: number;
  /** Port of the sandbox proxy (another origin); 0 picks a free one. Default 3001. */
  sandboxPort?: number;
  /** Registers more views and tools (the interop test adds one written with the official `App`). */
  configure?: (apps: AppsServer, server: McpServer) => void;
  /** More pages on the host's origin, by path (the interop test serves the official `AppBridge` host there). */
  pages?: Record<string, ServedFile>;
}

/** A running sample from {@link start}. */
export interface RunningMcpApp {
  /** The host page, e.g. `http://127.0.0.1:3000/`. */
  readonly pageUrl: URL;
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly mcpUrl: URL;
  /** The sandbox proxy page, on its own origin, e.g. `http://127.0.0.1:3001/sandbox.html`. */
  readonly sandboxUrl: URL;
  readonly mcpServer: McpServer;
  /** The notes `save_note` saved. */
  readonly notes: ReadonlyArray<{ title: string; text: string }>;
  /** The built views' HTML. */
  readonly views: Record<string, string>;
  close(): Promise<void>;
}

const SECURITY = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' };

async function listenOn(server: Server, port: number): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server.address() as AddressInfo;
}

function serve(files: Record<string, ServedFile>) {
  return (request: IncomingMessage, response: ServerResponse): boolean => {
    const pathname = (request.url ?? '/').split('?', 1)[0] ?? '/';
    const file = files[pathname];
    if (file === undefined) return false;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return true;
    }
    response.writeHead(200, { 'content-type': file.type, ...SECURITY }).end(file.body);
    return true;
  };
}

/**
 * Starts the sample: builds the views (Vite), bundles the host page (esbuild), serves the page at `/`, MCP at `/mcp`,
 * and the sandbox proxy at `/sandbox.html` of the second port.
 *
 * @example
 * const running = await start({ port: 0, sandboxPort: 0 });
 * console.log(running.pageUrl.href);
 * await running.close();
 */
export async function start(options: StartOptions = {}): Promise<RunningMcpApp> {
  const [views, hostPage] = await Promise.all([buildViews(), bundleHostPage()]);
  const { server: mcpServer, notes } = createMcpAppServer(views, options.configure);

  const main = createServer();
  const sandbox = createServer();
  const mainAddress = await listenOn(main, options.port ?? 3000);
  const sandboxAddress = await listenOn(sandbox, options.sandboxPort ?? 3001);
  const pageUrl = new URL(`http://127.0.0.1:${mainAddress.port}/`);
  const mcpUrl = new URL('/mcp', pageUrl);
  const sandboxUrl = new URL(`http://127.0.0.1:${sandboxAddress.port}/sandbox.html`);
  pageUrl.searchParams.set('sandbox', sandboxUrl.href);

  const mcp = toNodeHandler(createStreamableHttpHandler(mcpServer, { allowedOrigins: [pageUrl.origin] }));
  const pages = serve({
    '/': { type: 'text/html; charset=utf-8', body: hostPage.html },
    '/host.js': { type: 'text/javascript; charset=utf-8', body: hostPage.script },
    '/favicon.ico': { type: 'image/x-icon', body: '' },
    ...options.pages,
  });
  main.on('request', (request, response) => {
    if (request.url === '/') {
      // The page learns where the sandbox proxy is from its query: send a bare visit to the full address.
      response.writeHead(302, { location: pageUrl.href }).end();
    } else if ((request.url ?? '').startsWith('/mcp')) {
      void mcp(request, response);
    } else if (!pages(request, response)) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found\n');
    }
  });
  // The proxy obeys the host page's origin only; it has no other content.
  const proxy = serve({
    '/sandbox.html': { type: 'text/html; charset=utf-8', body: sandboxProxyHtml({ hostOrigins: [pageUrl.origin] }) },
  });
  sandbox.on('request', (request, response) => {
    if (!proxy(request, response)) response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found\n');
  });

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await Promise.all(
        [main, sandbox].map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      );
    })();
    return closing;
  };
  return { pageUrl, mcpUrl, sandboxUrl, mcpServer, notes, views, close };
}
