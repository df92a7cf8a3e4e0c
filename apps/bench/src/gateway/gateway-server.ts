// The gateway the hop bench measures: an `McpServer` with one upstream mounted with an empty namespace (the same
// `echo` tool), served over Streamable HTTP with exactly the handler options of the direct server
// (`mcpkit-http-server.ts --mode modern`), so that the only difference between the two routes is the hop. A JSON line
// `{"url": …}` on stdout once it listens. The upstream: the bench server over stdio (`--upstream-command <file>`, run
// with this process's node) or over Streamable HTTP (`--upstream <url>`).
import { Gateway } from '@mcpkit/gateway';
import { upstream } from '@mcpkit/gateway/node';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/transport-http';
import { listen } from '@mcpkit/transport-http/node';
import { announce } from '../servers/http/http-args';
import { upstreamArguments } from './upstream-args';

const target = upstreamArguments('gateway-server');

const front = new McpServer({ name: 'bench-gateway', version: '1.0.0' });
const gateway = new Gateway(front);
const mount = await gateway.mount(
  '',
  target.command !== undefined
    ? upstream({ command: process.execPath, args: [target.command] })
    : upstream({ url: target.url }),
);
if (mount.status !== 'up') throw new Error(`the upstream is ${mount.status}`);
process.stderr.write(
  `gateway: upstream ${target.command === undefined ? 'http' : 'stdio'}, era ${mount.client?.era}\n`,
);
// The direct server's options in its 2026-07-28 mode (servers/http/mcpkit-http-server.ts): a front answering with
// SSE where the direct server answers with JSON would measure the response mode, not the hop.
const handler = createStreamableHttpHandler(front, {
  sessions: false,
  responseMode: 'auto',
  maxSessions: 100_000,
  maxBodyBytes: 64 * 1024 * 1024,
});
const { url } = await listen(handler, { port: 0, host: '127.0.0.1' });
announce(url);
// A normal exit on SIGTERM, so that `node --cpu-prof` (BENCH_CPU_PROF) writes its profile.
process.once('SIGTERM', () => process.exit(0));
