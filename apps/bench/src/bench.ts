// `pnpm bench [--quick] [--only <metric>] [--rounds n] [--out file]`: mcpkit against the official MCP TypeScript SDKs
// (v2 and v1) and an SDK-free floor on this machine, implementations interleaved over rounds, medians with min–max,
// mcpkit's ratio to each peer. Full runs write results/latest.json; quick runs results/quick.tmp.json (not committed).

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { APP_DIR, buildRunnables, IMPLEMENTATIONS, type Implementation, implementationSizes } from './build';
import type { Phase } from './drivers/drive';
import { serverInstallCounts } from './install-size';
import { groupsFor, NOT_MEASURED } from './metrics';
import { addSample, markdownTable, type Samples, summarise } from './report';
import { coldStart, runDriverProcess } from './run';

const { values: options } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    rounds: { type: 'string' },
    out: { type: 'string' },
  },
});
const quick = options.quick === true;
const groups = groupsFor(options.only);
const rounds = Number(options.rounds ?? 3);
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) throw new Error('--rounds: 1 to 20');

// Counts per driver run. Quick mode keeps every phase but few calls: it proves the harness, not the figures.
const counts = quick
  ? {
      warmup: 200,
      calls: 1_000,
      pipelinedCalls: 1_000,
      largeCalls: 1,
      largeTimeoutMs: 10_000,
      coldStarts: 3,
      deadlineMs: 20_000,
    }
  : {
      warmup: 1_000,
      calls: 20_000,
      pipelinedCalls: 20_000,
      largeCalls: 3,
      largeTimeoutMs: 30_000,
      coldStarts: 10,
      deadlineMs: 120_000,
    };
// Quick mode echoes 1 MiB: the official v2 server takes far longer than linear time on 10 MiB lines (see README).
const LARGE_BYTES = (quick ? 1 : 10) * 1024 * 1024;
const IN_FLIGHT = 64;

const began = performance.now();
const log = (line: string) => process.stderr.write(`${line}\n`);
log(
  `mcpkit bench (${quick ? 'quick' : 'full'}): ${groups.join(', ')}; ${rounds} rounds; load ${loadavg()[0]?.toFixed(1)}`,
);

const runnables = await buildRunnables();
const samples: Samples = new Map();
/** Runs where an implementation failed a metric (no sample recorded); reported in the JSON and printed. */
const failures: { metric: string; implementation: Implementation; round: number; error: string }[] = [];
const phases: Phase[] = [];
if (groups.includes('stdio-seq')) phases.push('seq');
if (groups.includes('stdio-pipe')) phases.push('pipe');
if (groups.includes('large')) phases.push('large');

for (let round = 0; round < rounds; round++) {
  // Rotate the order each round so no implementation always runs first (or right after the same neighbour).
  const order = IMPLEMENTATIONS.map((_, i) => IMPLEMENTATIONS[(i + round) % IMPLEMENTATIONS.length] as Implementation);
  for (const name of order) {
    const { server, driver } = runnables[name];
    if (phases.length > 0) {
      const result = await runDriverProcess(
        driver,
        { phases, inFlight: IN_FLIGHT, largeBytes: LARGE_BYTES, ...counts },
        server,
      );
      if (result.truncated.length > 0) log(`  ${name}: stopped at the deadline in ${result.truncated.join(', ')}`);
      if (result.seq) {
        addSample(samples, 'stdio-seq-calls-per-s', name, result.seq.callsPerSec);
        addSample(samples, 'stdio-seq-p50-us', name, result.seq.p50Us);
        addSample(samples, 'stdio-seq-p99-us', name, result.seq.p99Us);
        addSample(samples, 'stdio-seq-server-cpu-us', name, result.seq.serverCpuUsPerCall);
        addSample(samples, 'stdio-seq-client-cpu-us', name, result.seq.clientCpuUsPerCall);
      }
      if (result.pipe) addSample(samples, 'stdio-pipelined-calls-per-s', name, result.pipe.callsPerSec);
      if (result.large?.error !== undefined)
        failures.push({ metric: 'stdio-10mb-ms', implementation: name, round: round + 1, error: result.large.error });
      else if (result.large) addSample(samples, 'stdio-10mb-ms', name, result.large.ms);
      log(`  round ${round + 1} ${name}: ${describe(result.seq?.callsPerSec, result.pipe?.callsPerSec)}`);
    }
    if (groups.includes('cold-start')) {
      // The median of this round's starts is the round's sample.
      const starts: number[] = [];
      for (let i = 0; i < counts.coldStarts; i++) starts.push(await coldStart(server));
      starts.sort((a, b) => a - b);
      addSample(samples, 'cold-start-ms', name, starts[starts.length >> 1] as number);
    }
  }
}

if (groups.includes('size')) {
  // Deterministic: measured once, outside the rounds.
  const installs = serverInstallCounts(join(APP_DIR, '..', '..'));
  for (const name of IMPLEMENTATIONS) {
    const sizes = await implementationSizes(name);
    addSample(samples, 'size-server-raw-bytes', name, sizes.server.raw);
    addSample(samples, 'size-server-gzip-bytes', name, sizes.server.gzip);
    if (sizes.client !== undefined) {
      addSample(samples, 'size-client-raw-bytes', name, sizes.client.raw);
      addSample(samples, 'size-client-gzip-bytes', name, sizes.client.gzip);
    }
    if (name !== 'raw') addSample(samples, 'install-server-packages', name, installs[name]);
  }
}

function describe(seq: number | undefined, pipe: number | undefined): string {
  const parts = [seq && `${Math.round(seq)} seq calls/s`, pipe && `${Math.round(pipe)} pipelined calls/s`];
  return parts.filter(Boolean).join(', ') || 'done';
}

const metrics = summarise(samples);
const durationSeconds = (performance.now() - began) / 1000;
const versionOf = (pkg: string, subpath = ''): string => {
  const main = createRequire(join(APP_DIR, 'package.json')).resolve(`${pkg}${subpath}`);
  let dir = dirname(main);
  // Walk up to the package's own package.json (its exports may hide ./package.json).
  for (let i = 0; i < 6; i++, dir = dirname(dir)) {
    try {
      const json = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (json.name === pkg) return json.version ?? '?';
    } catch {}
  }
  return '?';
};
const results = {
  schema: 'mcpkit-bench/1',
  date: new Date().toISOString(),
  mode: quick ? 'quick' : 'full',
  rounds,
  durationSeconds: Math.round(durationSeconds),
  machine: {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    loadAverageAtEnd: loadavg()[0],
    note: 'two cores shared with other jobs: absolute figures are noisy, ratios from the same run are what count',
  },
  versions: {
    mcpkit: JSON.parse(readFileSync(join(APP_DIR, '..', '..', 'packages', 'server', 'package.json'), 'utf8')).version,
    '@modelcontextprotocol/server': versionOf('@modelcontextprotocol/server'),
    '@modelcontextprotocol/client': versionOf('@modelcontextprotocol/client'),
    '@modelcontextprotocol/sdk': versionOf('@modelcontextprotocol/sdk', '/server/mcp.js'),
  },
  config: { ...counts, largeBytes: LARGE_BYTES, inFlight: IN_FLIGHT, protocolVersion: '2025-11-25', groups },
  metrics,
  failures,
  notMeasured: NOT_MEASURED,
};

const out = options.out ?? join(APP_DIR, 'results', quick ? 'quick.tmp.json' : 'latest.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`\n${markdownTable(metrics)}\n\n`);
for (const failure of failures) {
  process.stdout.write(
    `failed: ${failure.metric} ${failure.implementation} round ${failure.round}: ${failure.error}\n`,
  );
}
for (const missing of NOT_MEASURED) process.stdout.write(`not measured: ${missing.issueMetric}. ${missing.title}\n`);
process.stdout.write(`\n${results.mode} run, ${results.durationSeconds} s; written to ${out}\n`);
