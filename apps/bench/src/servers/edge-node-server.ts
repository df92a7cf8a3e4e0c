// apps/edge's server on Node, alone in its process: the Node side of `bench:edge`. Announces its URL as a JSON line.
import { createStreamableHttpHandler } from '@mcpkit/transport-http';
import { listen } from '@mcpkit/transport-http/node';
import { buildServer } from '../../../edge/src/server';

const running = await listen(createStreamableHttpHandler(buildServer()), { port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ url: running.url.href }));
process.once('SIGTERM', () => {
  running.close().then(() => process.exit(0));
});
