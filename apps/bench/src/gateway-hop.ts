// `pnpm --filter @mcpkit/app-bench run bench:gateway`: what one gateway hop costs. 16 concurrent clients call `echo`
// over Streamable HTTP (2026-07-28) on three routes, each round in a rotating order:
//   direct:        16 clients —HTTP→ the mcpkit bench server;
//   gateway-stdio: 16 clients —HTTP→ a gateway process —stdio→ the same server;
//   gateway-http:  16 clients —HTTP→ a gateway process —HTTP (its one client)→ the same server.
// The gateway serves HTTP with the direct server's own handler options, so a ratio is the cost of the hop and not of
// another transport or response mode. Every process is separate and runs built code (esbuild, as the main bench).
// Each round starts the three routes side by side and measures them in short rotating batches. Figures per round:
// calls/s (all clients together), per-call latency p50 / p99, the p50 / p99 of one client calling alone in sequence,
// the CPU per call of every process (/proc) and the load average; the ratios through / direct are taken against that
// round's direct run, and the summary is the median of the rounds with the range of the ratios.
// `--quick` runs one short round (the test's smoke run); `--out <file>` writes the JSON.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Client } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { build } from 'esbuild';
import { BUILD_DIR } from './build';

const QUICK = process.argv.includes('--quick');
const outIndex = process.argv.indexOf('--out');
const OUT = outIndex === -1 ? undefined : process.argv[outIndex + 1];
const ROUNDS = QUICK ? 1 : Number(process.env.ROUNDS ?? 5);
const CLIENTS = 16;
const CALLS_PER_CLIENT = QUICK ? 20 : Number(process.env.CALLS ?? 500);
const WARMUP_PER_CLIENT = QUICK ? 5 : 200;
/** Each round's calls, per route, in this many batches (the routes take turns). */
const BATCHES = QUICK ? 2 : 20;
/** One client alone makes this many times a batch's calls per client, after each 16-client batch. */
const SEQUENTIAL_FACTOR = 2;
const ROUTES = ['direct', 'gateway-stdio', 'gateway-http'] as const;
type Route = (typeof ROUTES)[number];
/** `BENCH_CPU_PROF=<dir>`: the servers and gateways write V8 CPU profiles there (node --cpu-prof). */
const PROFILE = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
const SRC = new URL('.', import.meta.url).pathname;
const OUT_DIR = join(BUILD_DIR, 'gateway-hop');

/** Bundles the three processes (the server over stdio and HTTP, the gateway) from the sources. */
async function bundle(): Promise<{ stdioServer: string; httpServer: string; gateway: string }> {
  await build({
    entryPoints: [
      { in: join(SRC, 'servers', 'mcpkit-server.ts'), out: 'mcpkit-server' },
      { in: join(SRC, 'servers', 'http', 'mcpkit-http-server.ts'), out: 'mcpkit-http-server' },
      { in: join(SRC, 'gateway', 'gateway-server.ts'), out: 'gateway-server' },
    ],
    outdir: OUT_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@mcpkit/source'],
    // ws (the gateway's WebSocket upstreams) is CommonJS and requires node built-ins.
    banner: {
      js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  const out = (name: string) => join(OUT_DIR, `${name}.mjs`);
  return { stdioServer: out('mcpkit-server'), httpServer: out('mcpkit-http-server'), gateway: out('gateway-server') };
}

/** Starts a process that announces its URL as a JSON line on stdout. */
function startAnnouncing(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...PROFILE, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} did not announce a URL within 20 s: ${output}`));
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

type Built = Awaited<ReturnType<typeof bundle>>;

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux); undefined elsewhere. */
function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
const CLOCK_TICKS = 100;

/** One route, started: its processes (front first) and its 16 connected clients. */
interface Running {
  route: Route;
  processes: ChildProcess[];
  clients: Client[];
  close(): Promise<void>;
}

/** Starts what `route` needs and connects the 16 clients to its front. */
async function setUp(built: Built, route: Route): Promise<Running> {
  const started: ChildProcess[] = [];
  const start = async (args: string[]) => {
    const process = await startAnnouncing(args);
    started.push(process.child);
    return process.url;
  };
  const clients: Client[] = [];
  try {
    let url: string;
    if (route === 'direct') url = await start([built.httpServer, '--mode', 'modern']);
    else if (route === 'gateway-stdio') url = await start([built.gateway, '--upstream-command', built.stdioServer]);
    else url = await start([built.gateway, '--upstream', await start([built.httpServer, '--mode', 'modern'])]);
    for (let i = 0; i < CLIENTS; i++) {
      const client = new Client({ name: 'bench', version: '1.0.0' }, { cache: false });
      await client.connect(new StreamableHttpClientTransport(new URL(url)), { protocolVersion: '2026-07-28' });
      clients.push(client);
    }
  } catch (error) {
    await Promise.all(started.map(stop));
    throw error;
  }
  return {
    route,
    // The front (the server, or the gateway) last started: first in the list. The gateway's stdio upstream is its
    // child, not ours: its CPU is counted with /proc of the gateway's children below.
    processes: [...started].reverse(),
    clients,
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await Promise.all(started.map(stop));
    },
  };
}

/** The pids of a process's children (the gateway's stdio upstream). */
function childrenOf(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

interface Figures {
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU per call of the front process (the server, or the gateway), in µs; absent where /proc is not. */
  frontCpuUs?: number;
  /** CPU per call of the gateway's upstream server, in µs (gateway routes). */
  upstreamCpuUs?: number;
  /** CPU per call of the 16 clients (this process), in µs. */
  clientCpuUs: number;
  /** One client calling in sequence (no queue: the hop's own latency), p50 and p99 in ms. */
  sequentialP50Ms: number;
  sequentialP99Ms: number;
}

/** What one route accumulates over a round's batches. */
class Tally {
  readonly latencies: number[] = [];
  elapsedMs = 0;
  frontCpuMs = 0;
  upstreamCpuMs = 0;
  clientCpuUs = 0;
}

/** `calls` calls on each of `clients` of the route's clients at once (all 16, or one: sequential calls). */
async function batch(running: Running, clients: number, calls: number, tally?: Tally): Promise<void> {
  const loop = async (client: Client) => {
    for (let i = 0; i < calls; i++) {
      const started = performance.now();
      const result = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
      tally?.latencies.push(performance.now() - started);
      if ((result.content[0] as { text?: string } | undefined)?.text !== 'hello') throw new Error('wrong echo');
    }
  };
  const front = running.processes[0]?.pid;
  const upstreamPids =
    running.route === 'direct' ? [] : [...running.processes.slice(1).map((p) => p.pid as number), ...childrenOf(front)];
  const upstreamCpu = () => upstreamPids.reduce((sum, pid) => sum + (cpuMsOf(pid) ?? 0), 0);
  const frontBefore = cpuMsOf(front);
  const upstreamBefore = upstreamCpu();
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(running.clients.slice(0, clients).map(loop));
  if (tally === undefined) return;
  tally.elapsedMs += performance.now() - started;
  const client = process.cpuUsage(clientBefore);
  tally.clientCpuUs += client.user + client.system;
  tally.frontCpuMs += (cpuMsOf(front) ?? 0) - (frontBefore ?? 0);
  tally.upstreamCpuMs += upstreamCpu() - upstreamBefore;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const round2 = (value: number) => Math.round(value * 100) / 100;
const load = () => round2(loadavg()[0] as number);

/**
 * One round: the three routes started side by side (idle while another is measured), warmed up, then measured in
 * short batches whose order rotates, so a change in the machine's load lands on every route alike.
 */
async function measureRound(built: Built): Promise<Record<Route, Figures>> {
  const running: Running[] = [];
  try {
    for (const route of ROUTES) running.push(await setUp(built, route));
    for (const each of running) await batch(each, CLIENTS, WARMUP_PER_CLIENT);
    const tallies = new Map(running.map((each) => [each, new Tally()]));
    const sequential = new Map(running.map((each) => [each, new Tally()]));
    const perBatch = Math.max(1, Math.round(CALLS_PER_CLIENT / BATCHES));
    for (let i = 0; i < BATCHES; i++) {
      for (let j = 0; j < running.length; j++) {
        const each = running[(i + j) % running.length] as Running;
        await batch(each, CLIENTS, perBatch, tallies.get(each));
        await batch(each, 1, perBatch * SEQUENTIAL_FACTOR, sequential.get(each));
      }
    }
    const percentile = (tally: Tally, q: number) => {
      const calls = tally.latencies.length;
      return round2(tally.latencies[Math.min(calls - 1, Math.floor(q * calls))] as number);
    };
    const figures = {} as Record<Route, Figures>;
    for (const [each, tally] of tallies) {
      const calls = tally.latencies.length;
      tally.latencies.sort((a, b) => a - b);
      const alone = sequential.get(each) as Tally;
      alone.latencies.sort((a, b) => a - b);
      const cpuKnown = cpuMsOf(process.pid) !== undefined;
      figures[each.route] = {
        callsPerSecond: Math.round((calls * 1000) / tally.elapsedMs),
        p50Ms: percentile(tally, 0.5),
        p99Ms: percentile(tally, 0.99),
        sequentialP50Ms: percentile(alone, 0.5),
        sequentialP99Ms: percentile(alone, 0.99),
        ...(cpuKnown ? { frontCpuUs: Math.round((tally.frontCpuMs * 1000) / calls) } : {}),
        ...(cpuKnown && each.route !== 'direct'
          ? { upstreamCpuUs: Math.round((tally.upstreamCpuMs * 1000) / calls) }
          : {}),
        clientCpuUs: Math.round(tally.clientCpuUs / calls),
      };
    }
    return figures;
  } finally {
    await Promise.all(running.map((each) => each.close()));
  }
}

const built = await bundle();
const runs: ({ round: number; loadBefore: number; loadAfter: number } & Record<Route, Figures>)[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const loadBefore = load();
  const figures = await measureRound(built);
  runs.push({ round: round + 1, loadBefore, loadAfter: load(), ...figures });
  process.stderr.write(`round ${round + 1}/${ROUNDS}: ${JSON.stringify(runs.at(-1))}\n`);
}

const ratio = (through: number, direct: number) => round2(through / direct);
/** CPU per call by process (medians of the rounds, µs): what the hop costs whatever the machine's queue. */
function cpuFigures(route: Route): Record<string, number> {
  const known = (values: (number | undefined)[]) => values.filter((value): value is number => value !== undefined);
  const direct = known(runs.map((run) => run.direct.frontCpuUs));
  const front = known(runs.map((run) => run[route].frontCpuUs));
  const upstream = known(runs.map((run) => run[route].upstreamCpuUs));
  if (direct.length === 0 || front.length === 0 || upstream.length === 0) return {};
  return {
    directServerCpuUsPerCall: median(direct),
    gatewayCpuUsPerCall: median(front),
    gatewayUpstreamCpuUsPerCall: median(upstream),
    directClientCpuUsPerCall: median(runs.map((run) => run.direct.clientCpuUs)),
    gatewayClientCpuUsPerCall: median(runs.map((run) => run[route].clientCpuUs)),
  };
}
const results: Record<string, Record<string, number | number[]>> = {};
for (const upstream of ['stdio', 'http'] as const) {
  const route: Route = upstream === 'stdio' ? 'gateway-stdio' : 'gateway-http';
  const p50Ratios = runs.map((run) => ratio(run[route].p50Ms, run.direct.p50Ms));
  const p99Ratios = runs.map((run) => ratio(run[route].p99Ms, run.direct.p99Ms));
  results[upstream] = {
    directCallsPerSecond: median(runs.map((run) => run.direct.callsPerSecond)),
    gatewayCallsPerSecond: median(runs.map((run) => run[route].callsPerSecond)),
    directP50Ms: median(runs.map((run) => run.direct.p50Ms)),
    gatewayP50Ms: median(runs.map((run) => run[route].p50Ms)),
    directP99Ms: median(runs.map((run) => run.direct.p99Ms)),
    gatewayP99Ms: median(runs.map((run) => run[route].p99Ms)),
    p50Ratio: median(p50Ratios),
    p99Ratio: median(p99Ratios),
    p50RatioRange: [Math.min(...p50Ratios), Math.max(...p50Ratios)],
    p99RatioRange: [Math.min(...p99Ratios), Math.max(...p99Ratios)],
    directSequentialP50Ms: median(runs.map((run) => run.direct.sequentialP50Ms)),
    gatewaySequentialP50Ms: median(runs.map((run) => run[route].sequentialP50Ms)),
    sequentialP50Ratio: median(runs.map((run) => ratio(run[route].sequentialP50Ms, run.direct.sequentialP50Ms))),
    directSequentialP99Ms: median(runs.map((run) => run.direct.sequentialP99Ms)),
    gatewaySequentialP99Ms: median(runs.map((run) => run[route].sequentialP99Ms)),
    ...cpuFigures(route),
  };
}
const report = {
  schema: 'mcpkit-bench-gateway/2',
  mode: QUICK ? 'quick' : 'full',
  date: new Date().toISOString(),
  node: process.version,
  downstream: 'Streamable HTTP, 2026-07-28, JSON responses',
  clients: CLIENTS,
  callsPerClient: CALLS_PER_CLIENT,
  warmupPerClient: WARMUP_PER_CLIENT,
  rounds: ROUNDS,
  results,
  runs,
};
if (OUT !== undefined) writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
