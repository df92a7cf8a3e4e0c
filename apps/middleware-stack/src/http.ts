// The sample server on Streamable HTTP: `PORT=3000 node --import tsx src/http.ts` (127.0.0.1 only). Both eras.
import { createStreamableHttpHandler } from '@mcpkit/transport-http';
import { listen } from '@mcpkit/transport-http/node';
import { createStackServer } from './mcp-server';
import { startTelemetry } from './telemetry';

const telemetry = startTelemetry();
const running = await listen(createStreamableHttpHandler(createStackServer()), {
  port: Number(process.env.PORT ?? 3000),
  host: '127.0.0.1',
});
process.stderr.write(`middleware-stack: listening on ${running.url}\n`);
const stop = async () => {
  await running.close();
  await telemetry.shutdown();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
