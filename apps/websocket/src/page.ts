// The browser page: public/index.html and src/browser.ts bundled by esbuild, both served from memory.
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const HTML = fileURLToPath(new URL('../public/index.html', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./browser.ts', import.meta.url));

/** Serves the page; anything else is 404. */
export type PageHandler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Bundles `src/browser.ts` for browsers (once, at start: a sample needs no build step) and returns the handler serving
 * `/` and `/browser.js`. Workspace packages resolve to their TypeScript source through the `@mcpkit/source`
 * condition, as in tests.
 *
 * @example
 * const page = await createPageHandler();
 * const server = createServer(page);
 */
export async function createPageHandler(): Promise<PageHandler> {
  const [html, bundle] = await Promise.all([readFile(HTML), bundleBrowserScript()]);
  // 'self' covers ws:/wss: to the page's own host and port (CSP level 3), so the page can reach /mcp and nothing else.
  const security = {
    'content-security-policy': "default-src 'self'; style-src 'self' 'unsafe-inline'",
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  };
  return (request, response) => {
    const pathname = (request.url ?? '/').split('?', 1)[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method Not Allowed\n');
      return;
    }
    if (pathname === '/' || pathname === '/index.html') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...security }).end(html);
    } else if (pathname === '/browser.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', ...security }).end(bundle);
    } else if (pathname === '/favicon.ico') {
      response.writeHead(204).end(); // browsers ask for it; a 404 would only add noise to the console
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found\n');
    }
  };
}

async function bundleBrowserScript(): Promise<Uint8Array> {
  const output = await build({
    entryPoints: [SCRIPT],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['@mcpkit/source'],
    sourcemap: 'inline',
    write: false,
    logLevel: 'silent',
  });
  const file = output.outputFiles[0];
  if (file === undefined) throw new Error('esbuild produced no bundle for src/browser.ts');
  return file.contents;
}
