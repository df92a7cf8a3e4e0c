// `pnpm --filter @mcpkit/app-bench run bench:edge`: the edge app's server (apps/edge) as a Cloudflare Worker in workerd
// (miniflare, on a local socket) against the same server on Node (`listen` of @mcpkit/transport-http/node, a process
// of its own), both answering 2026-07-28 `tools/call` over HTTP to 16 concurrent callers of this process, in
// alternating rounds (Node first in odd rounds, workerd first in even ones). Figures: calls/s and per-call latency
// p50 / p99, medians of the rounds, and the ratio workerd / Node. One machine: the ratio is workerd's per-request
// cost against Node's, not an edge-network figure. `--quick` runs one short round; `--out <file>` writes the JSON.
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { bundleWorker, startWorkers } from '../../edge/test/workerd';

const QUICK = process.argv.includes('--quick');
const outIndex = process.argv.indexOf('--out');
const OUT = outIndex === -1 ? undefined : process.argv[outIndex + 1];
const ROUNDS = QUICK ? 1 : Number(process.env.ROUNDS ?? 5);
const CLIENTS = 16;
const CALLS_PER_CLIENT = QUICK ? 20 : Number(process.env.CALLS ?? 300);
const WARMUP_PER_CLIENT = QUICK ? 5 : 50;

type Target = 'node' | 'workerd';

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

/** Starts the Node server process; resolves with its URL once it announced it. */
function startNode(): Promise<{ child: ChildProcess; url: string }> {
  const entry = new URL('servers/edge-node-server.ts', import.meta.url).pathname;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=@mcpkit/source', '--import', 'tsx', entry], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the Node server did not announce a URL within 20 s: ${output}`));
    }, 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk;
      const line = output.split('\n').find((candidate) => candidate.startsWith('{"url"'));
      if (line === undefined) return;
      clearTimeout(timer);
      resolve({ child, url: (JSON.parse(line) as { url: string }).url });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the Node server exited with ${code}: ${output}`));
    });
  });
}

async function call(url: string): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers, body });
  const text = await response.text();
  if (!text.includes('"text":"3"'))
    throw new Error(`${url}: unexpected answer ${response.status} ${text.slice(0, 200)}`);
}

interface Round {
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** `CLIENTS` callers, `calls` each, one after another per caller. */
async function measure(url: string, calls: number): Promise<Round> {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = 0; i < calls; i++) {
        const before = performance.now();
        await call(url);
        latencies.push(performance.now() - before);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { callsPerSecond: latencies.length / seconds, p50Ms: at(0.5), p99Ms: at(0.99) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

const node = await startNode();
const workers = await startWorkers(await bundleWorker('src/worker.ts'));
const urls: Record<Target, string> = { node: node.url, workerd: workers.url.href };
const rounds: Record<Target, Round[]> = { node: [], workerd: [] };
try {
  for (const target of ['node', 'workerd'] as const) await measure(urls[target], WARMUP_PER_CLIENT);
  for (let round = 0; round < ROUNDS; round++) {
    const order: Target[] = round % 2 === 0 ? ['node', 'workerd'] : ['workerd', 'node'];
    for (const target of order) {
      const result = await measure(urls[target], CALLS_PER_CLIENT);
      rounds[target].push(result);
      console.log(
        `round ${round + 1} ${target.padEnd(7)} ${result.callsPerSecond.toFixed(0).padStart(6)} calls/s   p50 ${result.p50Ms.toFixed(2)} ms   p99 ${result.p99Ms.toFixed(2)} ms`,
      );
    }
  }
} finally {
  await workers.dispose();
  const exited = new Promise((resolve) => node.child.once('exit', resolve));
  node.child.kill('SIGTERM');
  await exited;
}

const summary = (target: Target) => ({
  callsPerSecond: Math.round(median(rounds[target].map((r) => r.callsPerSecond))),
  p50Ms: round2(median(rounds[target].map((r) => r.p50Ms))),
  p99Ms: round2(median(rounds[target].map((r) => r.p99Ms))),
});
const onNode = summary('node');
const onWorkerd = summary('workerd');
const results = {
  node: onNode,
  workerd: onWorkerd,
  callsPerSecondRatio: round2(onWorkerd.callsPerSecond / onNode.callsPerSecond),
  p50Ratio: round2(onWorkerd.p50Ms / onNode.p50Ms),
  p99Ratio: round2(onWorkerd.p99Ms / onNode.p99Ms),
  /** Per round: workerd / Node of the same round (the spread says how much the machine's load moved things). */
  perRound: rounds.node.map((n, index) => ({
    callsPerSecondRatio: round2(rounds.workerd[index]!.callsPerSecond / n.callsPerSecond),
    p99Ratio: round2(rounds.workerd[index]!.p99Ms / n.p99Ms),
  })),
};
console.log(
  `median of ${ROUNDS}: workerd ${onWorkerd.callsPerSecond} calls/s p99 ${onWorkerd.p99Ms} ms; node ${onNode.callsPerSecond} calls/s p99 ${onNode.p99Ms} ms; workerd/node ${results.callsPerSecondRatio}× calls/s, ${results.p99Ratio}× p99`,
);
if (OUT !== undefined) {
  const report = {
    schema: 'mcpkit-bench-edge/1',
    mode: QUICK ? 'quick' : 'full',
    date: new Date().toISOString(),
    node: process.version,
    clients: CLIENTS,
    callsPerClient: CALLS_PER_CLIENT,
    rounds: ROUNDS,
    results,
  };
  writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
}
