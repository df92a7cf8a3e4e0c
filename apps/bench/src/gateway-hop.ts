// `pnpm --filter @mcpkit/app-bench run bench:gateway`: what one gateway hop costs. 16 concurrent clients call `echo`,
// directly and through `@mcpkit/gateway` (the upstream mounted with an empty namespace), each pair in alternating
// rounds:
//   stdio: the bench's client —stdio→ the mcpkit bench server, against —stdio→ a gateway process —stdio→ the same
//          server (16 callers share the one stdio connection, as stdio allows);
//   http:  16 clients —Streamable HTTP (2026-07-28)→ the mcpkit bench server, against 16 clients —HTTP→ a gateway
//          process —HTTP (its one client)→ the same server.
// Every process is separate. Figures: calls/s (all clients together) and per-call latency p50 / p99, medians of the
// rounds, and the ratio through / direct. `--quick` runs one short round (the test's smoke run); `--out <file>` writes
// the JSON.
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Client } from '@mcpkit/client';
import type { Transport } from '@mcpkit/jsonrpc-core';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { StdioClientTransport } from '@mcpkit/transport-stdio';

const QUICK = process.argv.includes('--quick');
const outIndex = process.argv.indexOf('--out');
const OUT = outIndex === -1 ? undefined : process.argv[outIndex + 1];
const ROUNDS = QUICK ? 1 : Number(process.env.ROUNDS ?? 5);
const CLIENTS = 16;
const CALLS_PER_CLIENT = QUICK ? 20 : Number(process.env.CALLS ?? 500);
const WARMUP_PER_CLIENT = QUICK ? 5 : 100;
const TSX = ['--conditions=@mcpkit/source', '--import', 'tsx'];
const here = (path: string) => new URL(path, import.meta.url).pathname;

type Upstream = 'stdio' | 'http';
type Route = 'direct' | 'gateway';

/** Starts a process that announces its URL as a JSON line on stdout. */
function startAnnouncing(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.at(-1)} did not announce a URL within 20 s: ${output}`));
    }, 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk;
      const line = output.split('\n').find((candidate) => candidate.startsWith('{"url"'));
      if (line !== undefined) {
        clearTimeout(timer);
        resolve({ child, url: (JSON.parse(line) as { url: string }).url });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code}: ${output}`));
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The clients of one measurement and how to close what was started for it. */
async function setUp(upstream: Upstream, route: Route) {
  const started: ChildProcess[] = [];
  const connect = async (transport: () => Transport, count: number): Promise<Client[]> => {
    const clients: Client[] = [];
    for (let i = 0; i < count; i++) {
      const client = new Client({ name: 'bench', version: '1.0.0' }, { cache: false });
      await client.connect(transport(), { protocolVersion: '2026-07-28' });
      clients.push(client);
    }
    return clients;
  };
  let clients: Client[];
  if (upstream === 'stdio') {
    const server = route === 'direct' ? here('servers/mcpkit-server.ts') : here('gateway/gateway-server.ts');
    const args = route === 'direct' ? [...TSX, server] : [...TSX, server, '--serve', 'stdio'];
    clients = await connect(() => new StdioClientTransport({ command: process.execPath, args }), 1);
  } else {
    const server = await startAnnouncing([...TSX, here('servers/http/mcpkit-http-server.ts'), '--mode', 'modern']);
    started.push(server.child);
    let url = server.url;
    if (route === 'gateway') {
      const front = await startAnnouncing([
        ...TSX,
        here('gateway/gateway-server.ts'),
        '--serve',
        'http',
        '--upstream',
        server.url,
      ]);
      started.push(front.child);
      url = front.url;
    }
    clients = await connect(() => new StreamableHttpClientTransport(new URL(url)), CLIENTS);
  }
  return {
    /** The client caller `i` uses (stdio: one shared connection). */
    clientOf: (i: number) => clients[i % clients.length] as Client,
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await Promise.all(started.map(stop));
    },
  };
}

interface Figures {
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

async function measure(upstream: Upstream, route: Route): Promise<Figures> {
  const setup = await setUp(upstream, route);
  try {
    const loop = async (client: Client, calls: number, latencies?: number[]) => {
      for (let i = 0; i < calls; i++) {
        const started = performance.now();
        const result = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
        latencies?.push(performance.now() - started);
        if ((result.content[0] as { text?: string } | undefined)?.text !== 'hello') throw new Error('wrong echo');
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => loop(setup.clientOf(i), WARMUP_PER_CLIENT)));
    const latencies: number[] = [];
    const started = performance.now();
    await Promise.all(Array.from({ length: CLIENTS }, (_, i) => loop(setup.clientOf(i), CALLS_PER_CLIENT, latencies)));
    const elapsed = performance.now() - started;
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] as number;
    return { callsPerSecond: (latencies.length * 1000) / elapsed, p50Ms: at(0.5), p99Ms: at(0.99) };
  } finally {
    await setup.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const round2 = (value: number) => Math.round(value * 100) / 100;

const samples: Record<string, Figures[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const upstream of ['stdio', 'http'] as const) {
    // Alternate which route goes first, so a drift in the machine's load does not favour one.
    const routes: Route[] = round % 2 === 0 ? ['direct', 'gateway'] : ['gateway', 'direct'];
    for (const route of routes) {
      const key = `${upstream} ${route}`;
      samples[key] = [...(samples[key] ?? []), await measure(upstream, route)];
    }
  }
  process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
}

const results: Record<string, Record<string, number>> = {};
for (const upstream of ['stdio', 'http'] as const) {
  const figures = (route: Route) => {
    const runs = samples[`${upstream} ${route}`] as Figures[];
    return {
      callsPerSecond: Math.round(median(runs.map((run) => run.callsPerSecond))),
      p50Ms: round2(median(runs.map((run) => run.p50Ms))),
      p99Ms: round2(median(runs.map((run) => run.p99Ms))),
    };
  };
  const direct = figures('direct');
  const through = figures('gateway');
  results[upstream] = {
    directCallsPerSecond: direct.callsPerSecond,
    gatewayCallsPerSecond: through.callsPerSecond,
    directP50Ms: direct.p50Ms,
    gatewayP50Ms: through.p50Ms,
    directP99Ms: direct.p99Ms,
    gatewayP99Ms: through.p99Ms,
    p50Ratio: round2(through.p50Ms / direct.p50Ms),
    p99Ratio: round2(through.p99Ms / direct.p99Ms),
  };
}
const report = {
  schema: 'mcpkit-bench-gateway/1',
  mode: QUICK ? 'quick' : 'full',
  date: new Date().toISOString(),
  node: process.version,
  clients: CLIENTS,
  callsPerClient: CALLS_PER_CLIENT,
  rounds: ROUNDS,
  results,
};
if (OUT !== undefined) writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
