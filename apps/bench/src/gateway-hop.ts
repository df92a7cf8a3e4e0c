// `pnpm --filter @mcpkit/app-bench run bench:gateway`: what one gateway hop costs. 16 concurrent clients call `echo`
// over Streamable HTTP (2026-07-28) on five routes, each round in a rotating order:
//   direct:        16 clients —HTTP→ the mcpkit bench server;
//   gateway-stdio: 16 clients —HTTP→ a gateway process —stdio→ the same server;
//   gateway-http:  16 clients —HTTP→ a gateway process —HTTP (its one client)→ the same server;
//   floor-stdio, floor-http: the same, through a hand-written proxy on node built-ins (gateway/floor-proxy.ts) in
//                  place of the gateway: what a hop costs on this machine whatever the code, the floor of the two above.
// The gateway serves HTTP with the direct server's own handler options, so a ratio is the cost of the hop and not of
// another transport or response mode. The routes and their processes: gateway/hop-routes.ts.
// Each round starts the routes side by side and measures them in short rotating batches. Figures per round:
// calls/s (all clients together), per-call latency p50 / p99, the p50 / p99 of one client calling alone in sequence,
// the CPU per call of every process (/proc) and the load average; the ratios through / direct are taken against that
// round's direct run, and the summary is the median of the rounds with the range of the ratios.
// `--quick` runs one short round (the test's smoke run); `--out <file>` writes the JSON.
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { Client } from '@mcpkit/client';
import { type Built, bundle, CLIENTS, cpuMsOf, ROUTES, type Route, type Running, setUp } from './gateway/hop-routes';

const QUICK = process.argv.includes('--quick');
const outIndex = process.argv.indexOf('--out');
const OUT = outIndex === -1 ? undefined : process.argv[outIndex + 1];
const ROUNDS = QUICK ? 1 : Number(process.env.ROUNDS ?? 5);
const CALLS_PER_CLIENT = QUICK ? 20 : Number(process.env.CALLS ?? 500);
const WARMUP_PER_CLIENT = QUICK ? 5 : 200;
/** Each round's calls, per route, in this many batches (the routes take turns). */
const BATCHES = QUICK ? 2 : 20;
/** One client alone makes this many times a batch's calls per client, after each 16-client batch. */
const SEQUENTIAL_FACTOR = 2;

interface Figures {
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU per call of the front process (the server, the gateway or the floor proxy), in µs; absent where /proc is not. */
  frontCpuUs?: number;
  /** CPU per call of the upstream server behind the gateway or the floor proxy, in µs. */
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
  const front = running.front;
  const upstreamCpu = () => running.upstreams.reduce((sum, pid) => sum + (cpuMsOf(pid) ?? 0), 0);
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
 * One round: the five routes started side by side (idle while another is measured), warmed up, then measured in
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
const medianOf = (route: Route, figure: keyof Figures) => median(runs.map((run) => run[route][figure] as number));
/** The medians of a figure known on every round (the /proc ones are not everywhere), or undefined. */
function knownMedian(route: Route, figure: 'frontCpuUs' | 'upstreamCpuUs'): number | undefined {
  const values = runs.map((run) => run[route][figure]);
  return values.every((value) => value !== undefined) ? median(values as number[]) : undefined;
}

/**
 * One hop through `route` (a gateway or a floor route) against the direct route, the keys prefixed with `name`:
 * calls/s, p50, p99, the per-round ratios to direct (median and range), the sequential latency and the CPU per call.
 */
function hopFigures(name: 'gateway' | 'floor', route: Route): Record<string, number | number[]> {
  const ratios = (figure: 'p50Ms' | 'p99Ms' | 'sequentialP50Ms') =>
    runs.map((run) => ratio(run[route][figure], run.direct[figure]));
  const p50Ratios = ratios('p50Ms');
  const p99Ratios = ratios('p99Ms');
  // The gateway's keys predate the floor's: `p50Ratio`, not `gatewayP50Ratio` (schema /2 readers keep working).
  const ratioKey = (key: string) => (name === 'gateway' ? key : `floor${key[0]?.toUpperCase()}${key.slice(1)}`);
  const front = knownMedian(route, 'frontCpuUs');
  const upstream = knownMedian(route, 'upstreamCpuUs');
  return {
    [`${name}CallsPerSecond`]: medianOf(route, 'callsPerSecond'),
    [`${name}P50Ms`]: medianOf(route, 'p50Ms'),
    [`${name}P99Ms`]: medianOf(route, 'p99Ms'),
    [ratioKey('p50Ratio')]: median(p50Ratios),
    [ratioKey('p99Ratio')]: median(p99Ratios),
    [ratioKey('p50RatioRange')]: [Math.min(...p50Ratios), Math.max(...p50Ratios)],
    [ratioKey('p99RatioRange')]: [Math.min(...p99Ratios), Math.max(...p99Ratios)],
    [`${name}SequentialP50Ms`]: medianOf(route, 'sequentialP50Ms'),
    [ratioKey('sequentialP50Ratio')]: median(ratios('sequentialP50Ms')),
    [`${name}SequentialP99Ms`]: medianOf(route, 'sequentialP99Ms'),
    ...(front === undefined ? {} : { [`${name}CpuUsPerCall`]: front }),
    ...(upstream === undefined ? {} : { [`${name}UpstreamCpuUsPerCall`]: upstream }),
    [`${name}ClientCpuUsPerCall`]: medianOf(route, 'clientCpuUs'),
  };
}

const results: Record<string, Record<string, number | number[]>> = {};
for (const upstream of ['stdio', 'http'] as const) {
  const gateway = hopFigures('gateway', `gateway-${upstream}`);
  const floor = hopFigures('floor', `floor-${upstream}`);
  const directCpu = knownMedian('direct', 'frontCpuUs');
  // What our gateway's code costs above the floor proxy's, per call, in the process that does the hop.
  const gatewayCpu = gateway.gatewayCpuUsPerCall;
  const floorCpu = floor.floorCpuUsPerCall;
  results[upstream] = {
    directCallsPerSecond: medianOf('direct', 'callsPerSecond'),
    directP50Ms: medianOf('direct', 'p50Ms'),
    directP99Ms: medianOf('direct', 'p99Ms'),
    directSequentialP50Ms: medianOf('direct', 'sequentialP50Ms'),
    directSequentialP99Ms: medianOf('direct', 'sequentialP99Ms'),
    ...(directCpu === undefined ? {} : { directServerCpuUsPerCall: directCpu }),
    directClientCpuUsPerCall: medianOf('direct', 'clientCpuUs'),
    ...gateway,
    ...floor,
    gatewayOverFloorP50Ratio: median(
      runs.map((run) => ratio(run[`gateway-${upstream}`].p50Ms, run[`floor-${upstream}`].p50Ms)),
    ),
    ...(typeof gatewayCpu === 'number' && typeof floorCpu === 'number'
      ? { gatewayOverFloorCpuUsPerCall: gatewayCpu - floorCpu }
      : {}),
  };
}
const report = {
  schema: 'mcpkit-bench-gateway/3',
  mode: QUICK ? 'quick' : 'full',
  date: new Date().toISOString(),
  node: process.version,
  downstream: 'Streamable HTTP, 2026-07-28, JSON responses',
  routes: ROUTES,
  clients: CLIENTS,
  callsPerClient: CALLS_PER_CLIENT,
  warmupPerClient: WARMUP_PER_CLIENT,
  rounds: ROUNDS,
  results,
  runs,
};
if (OUT !== undefined) writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
