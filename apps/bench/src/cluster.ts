// `pnpm --filter @mcpkit/app-bench bench:cluster [--quick] [--out file]`: scale-out on this machine (issue 17). Not part
// of the quick run of `pnpm bench`: it starts a redis-server (Debian's package) and instance processes of apps/cluster.
//
//   - throughput and latency: `sessions` clients (our Client + StreamableHttpClientTransport, each its own session),
//     sequential `echo` calls for `seconds`, through the round-robin proxy of apps/cluster, against
//       1 instance without Redis (the in-process defaults: the baseline),
//       1 instance on Redis, and 3 instances on Redis;
//     in a legacy session (2025-11-25, SSE responses) and in 2026-07-28. Calls/s, p50 and p99 (ms), per round;
//     the figures are medians over the rounds.
//   - Redis round trips per call: three handlers in this process, each with its own Redis client, behind a
//     round-robin fetch (so every call lands on another instance than the one before), after a warm-up that makes
//     every instance hold a copy of the session; counted at each client (commands written in one tick = one trip).
//
// Everything listens on 127.0.0.1; every loop is bounded in time; every child is stopped (and killed after 5 s).

import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { type InstanceProcess, startInstance } from '@mcpkit/app-cluster/processes';
import { startRoundRobinProxy } from '@mcpkit/app-cluster/proxy';
import { Client } from '@mcpkit/client';
import { McpServer } from '@mcpkit/server';
import { RedisEventStore, RedisMessageBus, RedisSessionStore } from '@mcpkit/store-redis';
import { countRedisRoundTrips, startRedisServer } from '@mcpkit/testkit/redis';
import {
  createStreamableHttpHandler,
  StreamableHttpClientTransport,
  type StreamableHttpHandlerOptions,
} from '@mcpkit/transport-http';
import { Redis } from 'ioredis';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: { quick: { type: 'boolean', default: false }, out: { type: 'string' } },
});
const quick = values.quick === true;
const SESSIONS = quick ? 4 : 16;
const SECONDS = quick ? 1 : 4;
const ROUNDS = quick ? 1 : 3;
const TRIP_CALLS = quick ? 20 : 200;
const started = performance.now();
const log = (text: string) =>
  console.error(`${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s  ${text}`);

type Era = 'legacy' | 'modern';
interface Load {
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function median(numbers: number[]): number {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** `SESSIONS` clients calling `echo` one after another for `SECONDS`, through `url`. */
async function load(url: URL, era: Era): Promise<Load> {
  const clients = await Promise.all(
    Array.from({ length: SESSIONS }, async () => {
      const client = new Client({ name: 'bench', version: '1.0.0' });
      await client.connect(new StreamableHttpClientTransport(url), { era });
      for (let warm = 0; warm < 5; warm++) await client.callTool({ name: 'echo', arguments: { text: 'warm' } });
      return client;
    }),
  );
  const latencies: number[] = [];
  const deadline = performance.now() + SECONDS * 1000;
  const begin = performance.now();
  await Promise.all(
    clients.map(async (client, index) => {
      let call = 0;
      while (performance.now() < deadline) {
        const text = `${index}:${call++}`;
        const at = performance.now();
        const result = await client.callTool({ name: 'echo', arguments: { text } });
        latencies.push(performance.now() - at);
        const echoed = (result.content as { text?: string }[])[0]?.text;
        if (echoed !== text) throw new Error(`echo answered ${echoed} for ${text}`);
      }
    }),
  );
  const elapsed = (performance.now() - begin) / 1000;
  await Promise.all(clients.map((client) => client.close()));
  latencies.sort((a, b) => a - b);
  return {
    callsPerSecond: latencies.length / elapsed,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  };
}

/** Redis round trips per `echo` call, three handlers in this process (see the header). */
async function roundTrips(redisUrl: string, era: Era, options: Partial<StreamableHttpHandlerOptions>): Promise<number> {
  const instances = await Promise.all(
    [0, 1, 2].map(async (index) => {
      const redis = new Redis(redisUrl, { lazyConnect: true, enableOfflineQueue: false });
      await redis.connect();
      const bus = new RedisMessageBus(redis);
      const mcp = new McpServer({ name: 'trips', version: '1.0.0' });
      mcp.registerTool(
        'echo',
        { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
        (args) => ({
          content: [{ type: 'text', text: String((args as { text?: string }).text) }],
        }),
      );
      const handler = createStreamableHttpHandler(mcp, {
        instanceId: `t${index}`,
        sessionStore: new RedisSessionStore(redis),
        eventStore: new RedisEventStore(redis),
        bus,
        ...options,
      });
      return { redis, bus, handler, counter: countRedisRoundTrips(redis) };
    }),
  );
  let next = 0;
  const fetchRoundRobin: typeof fetch = async (input, init) =>
    instances[next++ % 3]!.handler.handle(new Request(input, init));
  const client = new Client({ name: 'trips', version: '1.0.0' });
  await client.connect(new StreamableHttpClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: fetchRoundRobin }), {
    era,
  });
  for (let warm = 0; warm < 6; warm++) await client.callTool({ name: 'echo', arguments: { text: 'warm' } });
  for (const instance of instances) instance.counter.reset();
  for (let call = 0; call < TRIP_CALLS; call++) await client.callTool({ name: 'echo', arguments: { text: `${call}` } });
  const trips = instances.reduce((sum, instance) => sum + instance.counter.roundTrips, 0) / TRIP_CALLS;
  await client.close();
  for (const instance of instances) {
    await instance.handler.close();
    await instance.bus.close();
    instance.redis.disconnect();
  }
  return trips;
}

const redisServer = await startRedisServer();
const children: InstanceProcess[] = [];
try {
  log(`redis-server on port ${redisServer.port}; ${SESSIONS} sessions × ${SECONDS} s per figure, ${ROUNDS} round(s)`);
  const setups = [
    { name: '1 instance, in-process stores', count: 1, redis: false },
    { name: '1 instance, Redis', count: 1, redis: true },
    { name: '3 instances, Redis', count: 3, redis: true },
  ];
  const runs: Record<string, Record<Era, Load[]>> = {};
  for (let round = 1; round <= ROUNDS; round++) {
    // The order rotates each round, so no setup always runs on a cold or a tired machine.
    for (let turn = 0; turn < setups.length; turn++) {
      const setup = setups[(turn + round - 1) % setups.length]!;
      const instances = await Promise.all(
        Array.from({ length: setup.count }, (_, index) =>
          startInstance(`bench${index}`, setup.redis ? redisServer.url : undefined),
        ),
      );
      children.push(...instances);
      const proxy = await startRoundRobinProxy(instances.map((instance) => instance.url));
      for (const era of ['legacy', 'modern'] as const) {
        const figure = await load(proxy.url, era);
        runs[setup.name] ??= { legacy: [], modern: [] };
        runs[setup.name]![era].push(figure);
        log(
          `round ${round}  ${setup.name.padEnd(30)} ${era.padEnd(6)} ${figure.callsPerSecond.toFixed(0).padStart(6)} calls/s  p50 ${figure.p50Ms.toFixed(2)} ms  p99 ${figure.p99Ms.toFixed(2)} ms`,
        );
      }
      await proxy.close();
      await Promise.all(instances.map((instance) => instance.stop()));
      children.splice(0);
    }
  }
  const throughput = Object.fromEntries(
    Object.entries(runs).map(([name, byEra]) => [
      name,
      Object.fromEntries(
        (['legacy', 'modern'] as const).map((era) => [
          era,
          {
            callsPerSecond: median(byEra[era].map((figure) => figure.callsPerSecond)),
            p50Ms: median(byEra[era].map((figure) => figure.p50Ms)),
            p99Ms: median(byEra[era].map((figure) => figure.p99Ms)),
            rounds: byEra[era],
          },
        ]),
      ),
    ]),
  );
  log('Redis round trips per call…');
  const trips = {
    'legacy session, SSE': await roundTrips(redisServer.url, 'legacy', { responseMode: 'sse' }),
    'legacy session, JSON': await roundTrips(redisServer.url, 'legacy', { responseMode: 'json' }),
    '2026-07-28': await roundTrips(redisServer.url, 'modern', { responseMode: 'auto' }),
  };
  const report = {
    when: new Date().toISOString(),
    node: process.version,
    quick,
    sessions: SESSIONS,
    secondsPerFigure: SECONDS,
    rounds: ROUNDS,
    throughput,
    redisRoundTripsPerCall: trips,
  };
  const out = values.out ?? (quick ? 'results/cluster-quick.tmp.json' : 'results/cluster-latest.json');
  writeFileSync(new URL(`../${out}`, import.meta.url), `${JSON.stringify(report, null, 2)}\n`);
  console.log('| setup | era | calls/s | p50 ms | p99 ms |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const [name, byEra] of Object.entries(throughput)) {
    for (const era of ['legacy', 'modern'] as const) {
      const figure = (byEra as unknown as Record<Era, Load>)[era];
      console.log(
        `| ${name} | ${era === 'legacy' ? '2025-11-25 session' : '2026-07-28'} | ${figure.callsPerSecond.toFixed(0)} | ${figure.p50Ms.toFixed(2)} | ${figure.p99Ms.toFixed(2)} |`,
      );
    }
  }
  console.log('\n| Redis round trips per call | |\n| --- | --- |');
  for (const [name, value] of Object.entries(trips)) console.log(`| ${name} | ${value.toFixed(2)} |`);
  log(`wrote ${out}`);
} finally {
  await Promise.all(children.map((child) => child.stop()));
  await redisServer.stop();
}
