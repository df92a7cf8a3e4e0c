import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CURRENT_LINE, nodeBinary } from '@mcpkit/node-lines';
import { conformanceCli, expectClean, readExpectedFailures, runConformance, runConformanceCli } from '@mcpkit/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleConformanceWorker, everything } from './conformance-worker';
import { type RunningWorkers, startWorkers } from './workerd';

// The official conformance server suite against apps/everything-server's server deployed as a Worker in workerd
// (legacy sessions in Durable Objects, requests without a session in the `hub` object), with the very plan and the
// expected failures of apps/everything-server's own test on Node: a scenario that fails here and not there, or the
// other way round, is a difference of the Worker and fails this test. (Without `hub`, three 2026-07-28 scenarios
// differ, for workerd's cross-request rule: see packages/cloudflare/README.md.)

const node22 = CURRENT_LINE >= 22 ? process.execPath : nodeBinary(22);
const pinned = conformanceCli('@modelcontextprotocol/conformance');
const next = conformanceCli('@modelcontextprotocol/conformance-next');
const WIRES = ['2025-11-25', '2026-07-28'] as const;
const LEGACY_WIRE = '2025-11-25';
const RUN_TIMEOUT_MS = 120_000;

const cli = (suite: typeof pinned, args: string[], timeoutMs = RUN_TIMEOUT_MS) =>
  runConformanceCli(node22, suite, args, { cwd: everything, timeoutMs });

// Once per suite, on the system Node: the Worker runs in workerd whatever the Node line, and scripts/test-matrix.mjs
// runs the apps again on Node 22 and 24 (MCPKIT_NODE_LINE set), where this would measure workerd twice more.
const ON_A_MATRIX_LINE = process.env.MCPKIT_NODE_LINE !== undefined;

describe.skipIf(ON_A_MATRIX_LINE)('conformance: the everything-server as a Worker in workerd', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it(`gives the results it gives on Node (${pinned.version} and ${next.version}, both wires)`, {
    timeout: 240_000,
  }, async () => {
    expect(existsSync(node22), `Node 22 binary missing at ${node22}; run npx pnpm install`).toBe(true);
    const expected = await readExpectedFailures(join(everything, 'conformance/expected-failures.json'));
    const outputRoot = await mkdtemp(join(tmpdir(), 'mcpkit-conformance-worker-'));
    cleanup.push(() => rm(outputRoot, { recursive: true, force: true }));
    // workerd starts while the suites list their scenarios.
    const started = bundleConformanceWorker().then((script) => startWorkers(script));
    started.then(
      (workers: RunningWorkers) => cleanup.push(() => workers.dispose()),
      () => {}, // a Worker that did not start fails the run through `target`
    );
    const report = await runConformance({
      side: 'server',
      pinned,
      next,
      wires: WIRES,
      legacyWire: LEGACY_WIRE,
      cli,
      target: async () => ['server', '--url', (await started).url.href],
      pinnedRuns: [{ args: ['--suite', 'all'] }],
      expected,
      outputRoot,
      parallel: 4,
      title: 'conformance server scenarios against the Worker',
    });
    console.log(report.table);
    expect(report.listed.pinned, 'could not read the scenario list of the pinned suite').toBeGreaterThan(0);
    expect(report.listed.next, 'could not read the scenario list of the newest suite').toBeGreaterThan(0);
    for (const set of report.requirements) expect(set.server.length, `requirements ${set.revision}`).toBeGreaterThan(0);
    expectClean(report, expect, {
      unexpected: 'fail on the Worker, pass on Node',
      stale: 'pass on the Worker, fail on Node',
      unknown: 'expected failures of Node that did not run here',
    });
  });
});
