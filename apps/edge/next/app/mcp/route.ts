// Next.js App Router: the MCP endpoint as a route handler. One handler per server process (`next start`); on a
// serverless host where each request may land on a fresh instance, pass `{ sessions: false }` (legacy stateless mode;
// 2026-07-28 clients lose nothing).

import { createStreamableHttpHandler } from '@mcpkit/transport-http';
import { buildServer } from '../../../src/server';

const handler = createStreamableHttpHandler(buildServer());

function handle(request: Request): Promise<Response> {
  return handler.handle(request);
}

export { handle as DELETE, handle as GET, handle as POST };

// Never prerendered or cached: every request reaches the handler.
export const dynamic = 'force-dynamic';
