// `pnpm --filter @mcpkit/app-bench run bench:middleware`: what server.use() / client.use() cost per call (issue 13).
// In one process, no I/O, so the figures are the middleware's own cost and not the transport's noise:
//   handle: the stateless 2026-07-28 path, `server.handle(tools/call echo)` with no transport at all;
//   session: a Client and an McpServer session over jsonrpc-core's in-memory pair (legacy era), middleware on both
//            sides for the middleware variants.
// Variants: plain (no middleware), an empty middleware (`(ctx, next) => next()`), and logging + tracing together
// (logging to a sink that drops the line after formatting it; tracing with the OpenTelemetry SDK, every span sampled
// and handed to an exporter that drops it). Rounds alternate the variants; each figure is the median of the rounds.
// On a commit without the seam (`server.use` missing) only `plain` runs: that is how the plain figure is compared
// across the seam.
import { Client } from '@mcpkit/client';
import { createLinkedTransports } from '@mcpkit/jsonrpc-core';
import type { McpServer } from '@mcpkit/server';
import { createMcpkitServer } from './servers/mcpkit-tools';

type Variant = 'plain' | 'empty' | 'logging+tracing';
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const CALLS = Number(process.env.CALLS ?? 20_000);
const WARMUP = 2_000;

interface Layers {
  server: (server: McpServer) => void;
  client: (client: Client) => void;
}

async function layersOf(variant: Variant): Promise<Layers | undefined> {
  if (variant === 'plain') return { server: () => {}, client: () => {} };
  if (typeof (createMcpkitServer() as { use?: unknown }).use !== 'function') return undefined;
  if (variant === 'empty') {
    return {
      server: (server) => server.use((_ctx, next) => next()),
      client: (client) => client.use((_ctx, next) => next()),
    };
  }
  const { logging } = await import('@mcpkit/middleware/logging');
  const { tracing } = await import('@mcpkit/middleware/tracing');
  const { W3CTraceContextPropagator } = await import('@opentelemetry/core');
  const { BasicTracerProvider, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [
      new SimpleSpanProcessor({ export: (_spans, done) => done({ code: 0 }), shutdown: async () => {} }),
    ],
  });
  const options = { tracerProvider, propagator: new W3CTraceContextPropagator() };
  // Formatting is part of a logger's cost: the sink stringifies the record, as a JSON logger would.
  const logger = {
    info: (record: object) => void JSON.stringify(record),
    warn: (record: object) => void JSON.stringify(record),
    error: (record: object) => void JSON.stringify(record),
  };
  return {
    server: (server) => {
      server.use(logging({ logger }));
      server.use(tracing(options));
    },
    client: (client) => {
      client.use(logging({ logger }));
      client.use(tracing(options));
    },
  };
}

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
};

/**
 * ns per call of `run`: CPU time of this process (user + system) by default, which other processes on a loaded machine
 * disturb far less than the wall clock; CLOCK=wall for elapsed time. Both sides run in this one process here.
 */
async function timed(run: () => Promise<void>, calls: number): Promise<number> {
  if (process.env.CLOCK === 'wall') {
    const started = process.hrtime.bigint();
    await run();
    return Number(process.hrtime.bigint() - started) / calls;
  }
  const before = process.cpuUsage();
  await run();
  const used = process.cpuUsage(before);
  return ((used.user + used.system) * 1000) / calls;
}

async function handlePath(layers: Layers, calls: number): Promise<number> {
  const server = createMcpkitServer();
  layers.server(server);
  const run = async (count: number) => {
    for (let i = 0; i < count; i++) {
      const response = await server.handle({
        jsonrpc: '2.0',
        id: i,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'hello' }, _meta: ENVELOPE },
      });
      if (response === undefined || 'error' in response) throw new Error(`handle failed: ${JSON.stringify(response)}`);
    }
  };
  await run(WARMUP);
  return timed(() => run(calls), calls);
}

async function sessionPath(layers: Layers, calls: number): Promise<number> {
  const server = createMcpkitServer();
  layers.server(server);
  const [clientSide, serverSide] = createLinkedTransports();
  await server.connect(serverSide);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  layers.client(client);
  await client.connect(clientSide, { protocolVersion: '2025-11-25' });
  const run = async (count: number) => {
    for (let i = 0; i < count; i++) {
      const result = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
      if ((result.content[0] as { text?: string }).text !== 'hello') throw new Error('wrong echo');
    }
  };
  await run(WARMUP);
  const ns = await timed(() => run(calls), calls);
  await client.close();
  return ns;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

// VARIANTS=plain runs only the plain figure (to compare it with a commit from before the seam, in alternation).
const variants = (process.env.VARIANTS?.split(',') ?? ['plain', 'empty', 'logging+tracing']) as Variant[];
const layers = new Map<Variant, Layers>();
for (const variant of variants) {
  const made = await layersOf(variant);
  if (made !== undefined) layers.set(variant, made);
}
const figures: Record<string, Record<string, number[]>> = { handle: {}, session: {} };
for (let round = 0; round < ROUNDS; round++) {
  const order = [...layers.keys()];
  for (let shift = 0; shift < round % order.length; shift++) order.push(order.shift()!);
  for (const variant of order) {
    for (const [path, measure] of [
      ['handle', handlePath],
      ['session', sessionPath],
    ] as const) {
      const ns = await measure(layers.get(variant)!, CALLS);
      const byVariant = figures[path]!;
      byVariant[variant] ??= [];
      byVariant[variant].push(ns);
    }
  }
  process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
}

const result: Record<string, Record<string, { nsPerCall: number; min: number; max: number; overheadNs?: number }>> = {};
for (const [path, byVariant] of Object.entries(figures)) {
  result[path] = {};
  const plain = median(byVariant.plain ?? [0]);
  for (const [variant, values] of Object.entries(byVariant)) {
    const nsPerCall = median(values);
    result[path]![variant] = {
      nsPerCall: Math.round(nsPerCall),
      min: Math.round(Math.min(...values)),
      max: Math.round(Math.max(...values)),
      ...(variant === 'plain' ? {} : { overheadNs: Math.round(nsPerCall - plain) }),
    };
  }
}
const clock = process.env.CLOCK === 'wall' ? 'wall' : 'cpu';
process.stdout.write(
  `${JSON.stringify({ node: process.version, clock, rounds: ROUNDS, calls: CALLS, result }, null, 2)}\n`,
);
