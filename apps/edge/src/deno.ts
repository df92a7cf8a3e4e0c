// The Deno deployment: `deno run --allow-net --allow-env --conditions=@mcpkit/source src/deno.ts` in this repository.
// Deno.serve speaks Request/Response, so the handler plugs in as is.

import { createStreamableHttpHandler } from '@mcpkit/transport-http';
import { buildServer } from './server';

// Deno's global, as far as this file uses it (so the app type-checks without Deno's types).
declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { hostname: string; port: number; onListen(address: { port: number }): void },
    handler: (request: Request) => Promise<Response>,
  ): unknown;
};

const handler = createStreamableHttpHandler(buildServer());
Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 3000),
    onListen: ({ port }) => console.log(`listening on http://127.0.0.1:${port}/mcp`),
  },
  (request) => handler.handle(request),
);
