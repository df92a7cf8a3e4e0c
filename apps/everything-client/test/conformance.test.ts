import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CURRENT_LINE, nodeBinary } from '@mcpkit/node-lines';
import {
  type ConformanceCli,
  conformanceCli,
  expectClean,
  parseScenarioList,
  readExpectedFailures,
  runConformance,
  runConformanceCli,
} from '@mcpkit/testkit';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

// Runs every client scenario of the official conformance suite against the everything-client, auth included, with
// conformance/bind-localhost.mjs preloaded so the suite's mock servers listen on 127.0.0.1 only: 0.1.16 (its one
// wire, 2025-11-25), and the newest published suite (the `@modelcontextprotocol/conformance-next` alias in
// tools/testkit/package.json) with the requirements of 2025-11-25 and of 2026-07-28, each at its own wire, plus every
// scenario neither requirement set names (the 2025-03-26 back-compat scenarios, the skills extension on both wires).

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
/**
 * How 0.1.16 runs: a named suite (its scenarios side by side inside one CLI process, so the CLI and its mock servers
 * start once) or a single scenario. The list is checked against the suite's own listing, so no scenario goes unrun.
 */
const PINNED_RUNS: ReadonlyArray<{ suite?: string; scenarios: readonly string[]; alone?: true }> = [
  // 0.1.16 judges this one on a 500 ms retry with a 200 ms late tolerance: first and alone, so no load makes it late.
  { scenarios: ['sse-retry'], alone: true },
  {
    suite: 'auth',
    scenarios: [
      'auth/metadata-default',
      'auth/metadata-var1',
      'auth/metadata-var2',
      'auth/metadata-var3',
      'auth/basic-cimd',
      'auth/scope-from-www-authenticate',
      'auth/scope-from-scopes-supported',
      'auth/scope-omitted-when-undefined',
      'auth/scope-step-up',
      'auth/scope-retry-limit',
      'auth/token-endpoint-auth-basic',
      'auth/token-endpoint-auth-post',
      'auth/token-endpoint-auth-none',
      'auth/pre-registration',
    ],
  },
  {
    suite: 'backcompat',
    scenarios: ['auth/2025-03-26-oauth-metadata-backcompat', 'auth/2025-03-26-oauth-endpoint-fallback'],
  },
  {
    suite: 'draft',
    scenarios: ['auth/resource-mismatch', 'auth/offline-access-scope', 'auth/offline-access-not-supported'],
  },
  {
    suite: 'extensions',
    scenarios: ['auth/client-credentials-jwt', 'auth/client-credentials-basic', 'auth/cross-app-access-complete-flow'],
  },
  { scenarios: ['initialize'] },
  { scenarios: ['tools_call'] },
  { scenarios: ['elicitation-sep1034-client-defaults'] },
];
const PINNED_SCENARIOS = PINNED_RUNS.flatMap((run) => run.scenarios);
// Generous: a requirement set starts dozens of clients at once, and the machine may be busy with other work.
const SCENARIO_TIMEOUT_MS = 60_000;
// CLI runs at a time: each is the CLI plus one client per scenario (a requirement set starts dozens), on 2 cores.
const PARALLEL = 3;

function runCli(suite: ConformanceCli, args: string[], timeoutMs = SCENARIO_TIMEOUT_MS + 15_000) {
  return runConformanceCli(node22, suite, args, {
    cwd: app,
    timeoutMs,
    preload: [join(app, 'conformance/bind-localhost.mjs')],
  });
}

/**
 * Bundles the client once (from source, through the `@mcpkit/source` condition) so each of the 26 runs starts a
 * plain Node script instead of transpiling the workspace again under tsx.
 */
async function bundleClient(outputDir: string): Promise<string> {
  const outfile = join(outputDir, 'everything-client.mjs');
  await build({
    entryPoints: [join(app, 'src/main.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@mcpkit/source'],
    // CommonJS dependencies (yaml's Node build, through @mcpkit/skills) require() Node built-ins; an ESM bundle has no
    // `require` of its own, so give it one (esbuild's documented remedy).
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    outfile,
    logLevel: 'error',
  });
  return outfile;
}

describe('conformance: client scenarios', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('binds the mock servers to 127.0.0.1 (the preload works on this Node)', async () => {
    const probe = spawn(
      node22,
      [
        '--import',
        join(app, 'conformance/bind-localhost.mjs'),
        '--input-type=module',
        '-e',
        "const { createServer } = await import('node:http'); const s = createServer(); s.listen(0); console.log(JSON.stringify(s.address())); s.close();",
      ],
      { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_OPTIONS: '' } },
    );
    let output = '';
    probe.stdout.on('data', (chunk) => (output += chunk));
    await new Promise((resolve) => probe.on('close', resolve));
    expect(JSON.parse(output)).toMatchObject({ address: '127.0.0.1', family: 'IPv4' });
  });

  it(`runs every client scenario ${pinned.version} lists`, async () => {
    const listing = await runCli(pinned, ['list'], 30_000);
    const listed = parseScenarioList(listing.output, 'Client scenarios');
    expect(listed.length).toBeGreaterThan(0);
    expect([...listed].sort()).toEqual([...PINNED_SCENARIOS].sort());
  });

  it(`passes every client scenario of ${pinned.version} and ${next.version}, on both wires (or fails exactly as expected)`, {
    timeout: 300_000,
  }, async () => {
    expect(existsSync(node22), `Node 22 binary missing at ${node22}; run npx pnpm install`).toBe(true);
    const expected = await readExpectedFailures(join(app, 'conformance/expected-failures.json'));
    const outputRoot = await mkdtemp(join(tmpdir(), 'mcpkit-conformance-client-'));
    dirs.push(outputRoot);
    // The client runs on the Node running these tests (20+); the CLI appends the server URL. It is bundled while the
    // suites list their scenarios.
    const bundled = bundleClient(outputRoot);
    bundled.catch(() => {}); // a failed bundle fails the run through `extraArgs`
    // The plan (tools/testkit's runConformance): 0.1.16's runs above (sse-retry first and alone), one run per
    // requirement set (its scenarios side by side inside one CLI: the longest runs, so they start first), and each
    // scenario no requirement set names at the wires its tags allow; PARALLEL at a time.
    const report = await runConformance({
      side: 'client',
      pinned,
      next,
      wires: WIRES,
      legacyWire: LEGACY_WIRE,
      cli: (suite, args, timeoutMs = SCENARIO_TIMEOUT_MS + 60_000) => runCli(suite, args, timeoutMs),
      target: () => ['client'],
      extraArgs: async () => [
        '--command',
        `${process.execPath} ${await bundled}`,
        '--timeout',
        String(SCENARIO_TIMEOUT_MS),
      ],
      pinnedRuns: PINNED_RUNS.map((run) => ({
        args: run.suite === undefined ? ['--scenario', run.scenarios[0]!] : ['--suite', run.suite],
        alone: run.alone,
      })),
      pinnedScenarios: PINNED_SCENARIOS,
      expected,
      outputRoot,
      parallel: PARALLEL,
      longestFirst: true,
      title: 'conformance client scenarios',
    });
    console.log(report.table);
    expect(report.listed.next, 'could not read the scenario list of the newest suite').toBeGreaterThan(0);
    for (const set of report.requirements) expect(set.client.length, `requirements ${set.revision}`).toBeGreaterThan(0);
    // Every scenario of each suite ran, and every scenario of each requirement set ran at that set's wire.
    expectClean(report, expect, {
      unexpected: `unexpected failures:\n${report.outputs.join('\n---\n').slice(-8000)}`,
    });
  });
});
