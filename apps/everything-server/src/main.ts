import { createStreamableHttpHandler } from '@mcpkit/transport-http';
import { listen } from '@mcpkit/transport-http/node';
import { createEverythingServer } from './everything-server';

// `pnpm start`: serves the everything-server at http://$HOST:$PORT/mcp (defaults 127.0.0.1:3000), as the official
// conformance suite expects (`conformance server --url http://127.0.0.1:3000/mcp`).

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';

let closeRequestStream: ((ctx: Parameters<typeof handler.closeSseStream>[0]) => void) | undefined;
const server = await createEverythingServer({ closeRequestStream: (ctx) => closeRequestStream?.(ctx) });
const handler = createStreamableHttpHandler(server, {
  // Short enough that the suite's reconnect after SSE polling is quick.
  retryMs: 500,
});
closeRequestStream = (ctx) => {
  handler.closeSseStream(ctx);
};

const listening = await listen(handler, { port, host, path: '/mcp' });
console.log(`everything-server listening on ${listening.url.href}`);

const stop = () => {
  listening.close().finally(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
