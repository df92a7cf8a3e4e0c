import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CURRENT_LINE, nodeBinary } from '@mcpkit/node-lines';
import { conformanceCli, expectClean, readExpectedFailures, runConformance, runConformanceCli } from '@mcpkit/testkit';
import { afterAll, describe, expect, it } from 'vitest';

// Runs every server scenario of the official conformance suite against the everything-server (started with its own
// entry, src/main.ts, on 127.0.0.1 and a free port): 0.1.16 (`--suite all`, its one wire, 2025-11-25), and the
// newest published suite (the `@modelcontextprotocol/conformance-next` alias in tools/testkit/package.json) with the
// requirements of 2025-11-25 and of 2026-07-28, each at its own wire, plus every scenario neither requirement set
// names (the skills extension on both wires). Outcomes are judged against conformance/expected-failures.json.

const app = fileURLToPath(new URL('..', import.meta.url));
// The suite's CLI needs Node >= 22: this process's own Node when it is one (the Node 22/24 runs of the matrix), else
// the Node 22 binary of @mcpkit/node-lines.
const node22 = CURRENT_LINE >= 22 ? process.execPath : nodeBinary(22);
const pinned = conformanceCli('@modelcontextprotocol/conformance');
const next = conformanceCli('@modelcontextprotocol/conformance-next');
/** The protocol revisions the newest suite has requirement sets for: the two wires. */
const WIRES = ['2025-11-25', '2026-07-28'] as const;
/** The wire of 0.1.16, and the newest suite's default for scenarios of older revisions only. */
const LEGACY_WIRE = '2025-11-25';
const RUN_TIMEOUT_MS = 120_000;
const START_TIMEOUT_MS = 20_000;

/** Starts src/main.ts with PORT=0 and resolves with the URL it prints. */
function startServer(): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    // One process (the tsx loader inside this Node), so killing it stops the server: the tsx CLI would fork a child.
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=@mcpkit/source', join(app, 'src/main.ts')],
      {
        cwd: app,
        env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`everything-server did not start within ${START_TIMEOUT_MS} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`everything-server exited with code ${code}:\n${output}`));
    });
  });
}

const cli = (suite: typeof pinned, args: string[], timeoutMs = RUN_TIMEOUT_MS) =>
  runConformanceCli(node22, suite, args, { cwd: app, timeoutMs });

describe('conformance: server scenarios', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it(`passes every server scenario of ${pinned.version} and ${next.version}, on both wires (or fails exactly as expected)`, {
    timeout: 240_000,
  }, async () => {
    expect(existsSync(node22), `Node 22 binary missing at ${node22}; run npx pnpm install`).toBe(true);
    const expected = await readExpectedFailures(join(app, 'conformance/expected-failures.json'));
    const outputRoot = await mkdtemp(join(tmpdir(), 'mcpkit-conformance-server-'));
    cleanup.push(() => rm(outputRoot, { recursive: true, force: true }));
    // The server starts while the suites list their scenarios.
    const started = startServer();
    started.then(
      ({ child }) =>
        cleanup.push(async () => {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
          await exited;
          clearTimeout(timer);
        }),
      () => {}, // a server that did not start fails the run through `target`
    );
    // The plan (tools/testkit's runConformance): 0.1.16 whole, one run per requirement set (the CLI runs its scenarios
    // one after another against the server), and each scenario no requirement set names at the wires its tags allow;
    // all of them side by side, 4 at a time.
    const report = await runConformance({
      side: 'server',
      pinned,
      next,
      wires: WIRES,
      legacyWire: LEGACY_WIRE,
      cli,
      target: async () => ['server', '--url', (await started).url],
      pinnedRuns: [{ args: ['--suite', 'all'] }],
      expected,
      outputRoot,
      parallel: 4,
      title: 'conformance server scenarios',
    });
    console.log(report.table);
    expect(report.listed.pinned, 'could not read the scenario list of the pinned suite').toBeGreaterThan(0);
    expect(report.listed.next, 'could not read the scenario list of the newest suite').toBeGreaterThan(0);
    for (const set of report.requirements) expect(set.server.length, `requirements ${set.revision}`).toBeGreaterThan(0);
    // Every scenario each suite lists ran, and every scenario of each requirement set ran at that set's wire.
    expectClean(report, expect);
  });
});
