// The gateway the hop bench measures: an `McpServer` with one upstream mounted with an empty namespace (the same
// `echo` tool), served over stdio (`--serve stdio`) or Streamable HTTP (`--serve http`, a JSON line `{"url": …}` on
// stdout once it listens). The upstream is the mcpkit bench server over stdio (spawned by the gateway) or over HTTP
// (`--upstream <url>`).
import { Gateway } from '@mcpkit/gateway';
import { upstream } from '@mcpkit/gateway/node';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/transport-http';
import { listen } from '@mcpkit/transport-http/node';
import { StdioServerTransport } from '@mcpkit/transport-stdio';
import { announce } from '../servers/http/http-args';

const argument = (name: string) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
};
const serve = argument('--serve') ?? 'stdio';
const upstreamUrl = argument('--upstream');
const stdioServer = new URL('../servers/mcpkit-server.ts', import.meta.url).pathname;

const front = new McpServer({ name: 'bench-gateway', version: '1.0.0' });
const gateway = new Gateway(front);
const mount = await gateway.mount(
  '',
  upstreamUrl === undefined
    ? upstream({ command: process.execPath, args: ['--conditions=@mcpkit/source', '--import', 'tsx', stdioServer] })
    : upstream({ url: upstreamUrl }),
);
if (mount.status !== 'up') throw new Error(`the upstream is ${mount.status}`);
if (serve === 'stdio') {
  await front.connect(new StdioServerTransport());
} else {
  const { url } = await listen(createStreamableHttpHandler(front, { maxSessions: 100_000 }), {
    port: 0,
    host: '127.0.0.1',
  });
  announce(url);
}
