// A bench row: the edge app's server answering 2026-07-28 `tools/call` over HTTP, in workerd (the Worker, through
// miniflare's local socket) and on Node (`listen` of @mcpkit/transport-http/node), from one client process on one
// machine: calls/s, p50 and p99, and the workerd/Node ratio. Both servers are local, so the ratio is what it says
// (workerd's per-request overhead against Node's), not an edge-network figure.
// `pnpm --filter @mcpkit/app-edge bench [seconds] [concurrency]`.

import { createStreamableHttpHandler } from '@mcpkit/transport-http';
import { listen } from '@mcpkit/transport-http/node';
import { buildServer } from '../src/server';
import { bundleWorker, startWorkers } from '../test/workerd';

const seconds = Number(process.argv[2] ?? 5);
const concurrency = Number(process.argv[3] ?? 16);

const body = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'add',
    arguments: { a: 1, b: 2 },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});
const headers = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': 'add',
};

interface Row {
  target: string;
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

async function measure(target: string, url: URL): Promise<Row> {
  // Warm-up: JIT, connection pool, the Worker's isolate.
  for (let i = 0; i < 200; i++) await (await fetch(url, { method: 'POST', headers, body })).text();
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        const response = await fetch(url, { method: 'POST', headers, body });
        const text = await response.text();
        if (!text.includes('"text":"3"')) throw new Error(`${target}: unexpected answer ${text.slice(0, 200)}`);
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { target, callsPerSecond: latencies.length / seconds, p50Ms: at(0.5), p99Ms: at(0.99) };
}

const node = await listen(createStreamableHttpHandler(buildServer()), { port: 0 });
const workers = await startWorkers(await bundleWorker('src/worker.ts'));
try {
  const rows = [await measure('node', node.url), await measure('workerd', workers.url)];
  const [onNode, onWorkerd] = rows as [Row, Row];
  for (const row of rows) {
    console.log(
      `${row.target.padEnd(8)} ${row.callsPerSecond.toFixed(0).padStart(7)} calls/s   p50 ${row.p50Ms.toFixed(2)} ms   p99 ${row.p99Ms.toFixed(2)} ms`,
    );
  }
  console.log(
    `workerd/node: ${(onWorkerd.callsPerSecond / onNode.callsPerSecond).toFixed(2)}× calls/s, ${(onWorkerd.p99Ms / onNode.p99Ms).toFixed(2)}× p99 (c=${concurrency}, ${seconds} s each)`,
  );
} finally {
  await workers.dispose();
  await node.close();
}
