// The soak's server (a child process, so its heap is measured alone): one McpServer over Streamable HTTP (legacy
// sessions with resumable SSE) and WebSocket, on 127.0.0.1. Its one tool, `count`, sends `n` progress notifications,
// a few milliseconds apart, then answers `<tag>:<n>`. Prints `{"http": url, "ws": url}` once listening; answers the parent's IPC
// `heap` with its heap after a full collection (run with --expose-gc).
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/transport-http';
import { listen } from '@mcpkit/transport-http/node';
import { createWebSocketServer } from '@mcpkit/transport-websocket/node';

const server = new McpServer({ name: 'soak', version: '1.0.0' });
const problems: string[] = [];
server.server.onerror = (error) => {
  if (problems.length < 20) problems.push(error.message);
};
server.registerTool(
  'count',
  {
    inputSchema: {
      type: 'object',
      properties: { n: { type: 'integer' }, tag: { type: 'string' } },
      required: ['n', 'tag'],
    } as const,
  },
  async ({ n, tag }, ctx) => {
    for (let step = 1; step <= n; step++) {
      await ctx.progress(step, n);
      // A few milliseconds between steps: calls last long enough for drops to land in the middle of them.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10));
    }
    return { content: [{ type: 'text', text: `${tag}:${n}` }] };
  },
);

const handler = createStreamableHttpHandler(server, {
  retryMs: 50,
  // Every soak session comes from 127.0.0.1: the per-client share must fit them all.
  maxSessions: 20_000,
  maxSessionsPerClient: 20_000,
});
const http = await listen(handler, { port: 0 });
const ws = await createWebSocketServer(server, { port: 0, maxConnections: 20_000 });
process.stdout.write(`${JSON.stringify({ http: http.url.href, ws: ws.url })}\n`);

const gc = (globalThis as { gc?: () => void }).gc;
process.on('message', (message: { type?: string }) => {
  if (message.type !== 'heap') return;
  for (let round = 0; round < 3; round++) gc?.();
  const memory = process.memoryUsage();
  process.send?.({
    type: 'heap',
    heapUsed: memory.heapUsed,
    rss: memory.rss,
    httpSessions: handler.sessionCount,
    wsConnections: ws.connections,
    problems: problems.splice(0),
  });
});
process.on('disconnect', () => {
  void Promise.all([http.close(), ws.close()]).then(() => process.exit(0));
});
