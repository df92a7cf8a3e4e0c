// `pnpm start`: the gateway on http://$HOST:$PORT/mcp (default 127.0.0.1:3100), mounting the quickstart (stdio), the
// everything-server (HTTP) and the WebSocket sample, which it starts. The bearer token is $GATEWAY_TOKEN (a random one
// is made and printed when unset).
import { listen } from '@mcpkit/transport-http/node';
import { createGatewayApp } from './app';
import { startUpstreams } from './upstream-processes';

const port = Number(process.env.PORT ?? 3100);
const host = process.env.HOST ?? '127.0.0.1';
const token = process.env.GATEWAY_TOKEN ?? crypto.randomUUID();

const started = await startUpstreams();
// The audience tokens must name; with PORT=0 the real port is known only after listening, so give PORT in production.
const resource = new URL(`http://${host}:${port}/mcp`);
const app = await createGatewayApp({ resource, upstreams: started.upstreams, tokens: { [token]: 'you' } });
const listening = await listen(app.handler, { port, host, path: '/mcp' });
console.log(`gateway listening on ${listening.url.href}`);
if (process.env.GATEWAY_TOKEN === undefined) console.log(`bearer token: ${token}`);
for (const [namespace, mount] of app.gateway.mounts) {
  console.log(`  ${namespace}: ${mount.status}, ${mount.exposed().tools.length} tools`);
}

const stop = () => {
  Promise.allSettled([listening.close(), app.close(), started.close()]).finally(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
