// The Bun deployment: `bun --conditions=@mcpkit/source src/bun.ts` in this repository (a published app needs no
// condition). Bun.serve speaks Request/Response, so the handler plugs in as is.

import { createStreamableHttpHandler } from '@mcpkit/transport-http';
import { buildServer } from './server';

// Bun's global, as far as this file uses it (so the app type-checks without bun-types).
declare const Bun: {
  serve(options: { hostname: string; port: number; idleTimeout: number; fetch(request: Request): Promise<Response> }): {
    port: number;
  };
};

const handler = createStreamableHttpHandler(buildServer());
const server = Bun.serve({
  hostname: '127.0.0.1',
  port: Number(process.env.PORT ?? 3000),
  // Bun closes a connection idle for 10 s by default; an SSE stream may stay quiet longer (keep-alives come every 15 s).
  idleTimeout: 0,
  fetch: (request) => handler.handle(request),
});
console.log(`listening on http://127.0.0.1:${server.port}/mcp`);
