// The express app: one MCP endpoint at /mcp, a health route, CORS for browser clients.
import type { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler, type StreamableHttpHandler, withCors } from '@mcpkit/transport-http';
import { createExpressMiddleware } from '@mcpkit/transport-http/express';
import express, { type Express } from 'express';
import { createMcpServer } from './mcp-server';

/** Options of {@link createApp}. */
export interface AppOptions {
  /**
   * Browser origins allowed to call /mcp (CORS). Default: a local dev server, `http://localhost:5173` and
   * `http://127.0.0.1:5173`. Non-browser clients send no `Origin` and are not affected.
   */
  corsOrigins?: readonly string[];
}

/** What {@link createApp} returns. */
export interface App {
  /** The express app; mount it on an `http.Server` (see `start`). */
  readonly app: Express;
  /** The MCP endpoint's handler: `close()` it on shutdown to end every session. */
  readonly handler: StreamableHttpHandler;
  readonly mcpServer: McpServer;
}

export const DEFAULT_CORS_ORIGINS: readonly string[] = ['http://localhost:5173', 'http://127.0.0.1:5173'];

/**
 * Builds the express app serving one `McpServer` at `/mcp`, in both protocol eras: legacy clients (2025-11-25 and
 * before) get `Mcp-Session-Id` sessions, 2026-07-28 clients are served statelessly, on the same path.
 *
 * @example
 * const { app, handler } = createApp({ corsOrigins: ['https://app.example.com'] });
 * const server = app.listen(3000, '127.0.0.1');
 */
export function createApp(options: AppOptions = {}): App {
  const corsOrigins = options.corsOrigins ?? DEFAULT_CORS_ORIGINS;
  const mcpServer = createMcpServer();
  const handler = createStreamableHttpHandler(mcpServer, {
    sessions: true, // legacy era: sessions with Mcp-Session-Id; 2026-07-28 requests are stateless either way
    // DNS-rebinding protection is on by default: Host must be localhost / 127.0.0.1 / [::1], and an Origin, when
    // sent, must be on one of those hosts (so the local dev origins above pass). For a real deployment name your
    // public host and your browser app's origins (the Host check stays localhost-only until allowedHosts is set):
    //   allowedHosts: ['mcp.example.com'],
    //   allowedOrigins: ['https://app.example.com'],
  });

  const app = express();
  app.disable('x-powered-by');

  // Answered by express, not MCP: for load balancers and orchestrators.
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', sessions: handler.sessionCount });
  });

  // No express.json() needed: the middleware reads the body itself, with a size limit. `app.all` because the
  // endpoint answers POST, GET (legacy SSE stream), DELETE (end a session) and OPTIONS (CORS preflight).
  // withCors answers preflights and exposes Mcp-Session-Id and MCP-Protocol-Version to browser scripts.
  app.all('/mcp', createExpressMiddleware(withCors(handler, { origin: corsOrigins })));

  return { app, handler, mcpServer };
}
