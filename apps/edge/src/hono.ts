// Hono: the MCP endpoint is one route of a Hono app, on Node (@hono/node-server) and on Workers (the same app as the
// Worker's default export). `c.req.raw` is the web Request the handlers take; nothing else is needed.

import { createMcpWorker } from '@mcpkit/cloudflare';
import { createStreamableHttpHandler } from '@mcpkit/transport-http';
import { Hono } from 'hono';
import { buildServer } from './server';
import { type Env, serverFor } from './worker';

/** A Hono app for any runtime: the handler answers at /mcp, the app serves the rest. */
export function honoApp(): Hono {
  const handler = createStreamableHttpHandler(buildServer());
  const app = new Hono();
  app.get('/', (c) => c.text('edge-demo: MCP at /mcp'));
  app.all('/mcp', (c) => handler.handle(c.req.raw));
  return app;
}

/** The same on Workers, with sessions in Durable Objects: the route hands the request to the Worker entry. */
export function honoWorkerApp(): Hono<{ Bindings: Env }> {
  const worker = createMcpWorker<Env>({ server: serverFor, sessions: 'MCP_SESSIONS' });
  const app = new Hono<{ Bindings: Env }>();
  app.get('/', (c) => c.text('edge-demo: MCP at /mcp'));
  app.all('/mcp', (c) => worker.fetch(c.req.raw, c.env, c.executionCtx));
  return app;
}
