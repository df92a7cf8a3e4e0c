import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CURRENT_LINE, nodeBinary } from '@mcpkit/node-lines';
import {
  formatOutcomes,
  judgeOutcomes,
  readScenarioOutcome,
  runToCompletion,
  type ScenarioOutcome,
} from '@mcpkit/testkit';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

// Runs every client scenario of the official conformance suite (@modelcontextprotocol/conformance 0.1.16), auth
// included, against the everything-client, with conformance/bind-localhost.mjs preloaded so its mock servers listen
// on 127.0.0.1 only.

const app = fileURLToPath(new URL('..', import.meta.url));
// The suite's CLI needs Node >= 22: this process's own Node when it is one (the Node 22/24 runs of the matrix), else
// the Node 22 binary of @mcpkit/node-lines.
const node22 = CURRENT_LINE >= 22 ? process.execPath : nodeBinary(22);
const cli = join(app, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
/**
 * What the CLI runs: a named suite (its scenarios in parallel inside one CLI process, so the CLI and its mock servers
 * start once) or a single scenario; suites first, as they run longest. Suites are the small ones of 0.1.16; the list
 * below is checked against the suite's own listing, so a new version cannot add a scenario that goes unrun.
 */
const RUNS: ReadonlyArray<{ suite?: string; scenarios: readonly string[]; alone?: true }> = [
  // Timing-sensitive (judged on a 500 ms retry): runs first, alone, so the others' load cannot make it late.
  { scenarios: ['sse-retry'], alone: true },
  {
    suite: 'metadata',
    scenarios: ['auth/metadata-default', 'auth/metadata-var1', 'auth/metadata-var2', 'auth/metadata-var3'],
  },
  {
    suite: 'sep-835',
    scenarios: [
      'auth/scope-from-www-authenticate',
      'auth/scope-from-scopes-supported',
      'auth/scope-omitted-when-undefined',
      'auth/scope-step-up',
      'auth/scope-retry-limit',
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
  // Single scenarios last: short runs fill the pool's gaps.
  { scenarios: ['initialize'] },
  { scenarios: ['tools_call'] },
  { scenarios: ['elicitation-sep1034-client-defaults'] },
  { scenarios: ['auth/basic-cimd'] },
  { scenarios: ['auth/token-endpoint-auth-basic'] },
  { scenarios: ['auth/token-endpoint-auth-post'] },
  { scenarios: ['auth/token-endpoint-auth-none'] },
  { scenarios: ['auth/pre-registration'] },
];
const SCENARIOS = RUNS.flatMap((run) => run.scenarios);
const SCENARIO_TIMEOUT_MS = 30_000;
// CLI runs at a time: each is the CLI plus one client per scenario, on a 2-core machine.
const PARALLEL = 3;

function runCli(args: string[], outputDir: string) {
  return runToCompletion(
    node22,
    ['--import', join(app, 'conformance/bind-localhost.mjs'), cli, ...args, '-o', outputDir],
    {
      cwd: app,
      env: { ...process.env, NODE_OPTIONS: '' },
      timeoutMs: SCENARIO_TIMEOUT_MS + 15_000,
    },
  );
}

// The CLI saves a scenario's results in `<output>/<scenario>-<timestamp>`; `auth/x` lands in `<output>/auth/`.
async function outcomeOf(scenario: string, outputDir: string): Promise<ScenarioOutcome> {
  const parent = join(outputDir, dirname(scenario));
  const folders = existsSync(parent)
    ? (await readdir(parent)).filter((name) => name.startsWith(`${basename(scenario)}-`))
    : [];
  if (folders.length !== 1) {
    return { scenario, passed: false, counts: {}, problems: [`expected one result folder, found ${folders.length}`] };
  }
  return readScenarioOutcome(scenario, join(parent, folders[0]!));
}

/** Runs `task` over `items`, `limit` at a time, results in order. */
async function inPool<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
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

  it('runs every client scenario the suite lists', async () => {
    const listing = await runToCompletion(node22, [cli, 'list'], {
      cwd: app,
      env: { ...process.env, NODE_OPTIONS: '' },
      timeoutMs: 30_000,
    });
    const client = listing.output.split('Client scenarios')[1] ?? '';
    const listed = [...client.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]);
    expect(listed.length).toBeGreaterThan(0);
    expect([...listed].sort()).toEqual([...SCENARIOS].sort());
  });

  it('passes every client scenario (or fails exactly as expected)', { timeout: 240_000 }, async () => {
    expect(existsSync(node22), `Node 22 binary missing at ${node22}; run npx pnpm install`).toBe(true);
    const expected = JSON.parse(await readFile(join(app, 'conformance/expected-failures.json'), 'utf8')) as {
      client: Record<string, string>;
    };
    const outputDir = await mkdtemp(join(tmpdir(), 'mcpkit-conformance-client-'));
    dirs.push(outputDir);
    // The client runs on the Node running these tests (20+); the CLI appends the server URL.
    const command = `${process.execPath} ${await bundleClient(outputDir)}`;
    const runOne = (run: (typeof RUNS)[number]) =>
      runCli(
        [
          'client',
          '--command',
          command,
          ...(run.suite === undefined ? ['--scenario', run.scenarios[0]!] : ['--suite', run.suite]),
          '--timeout',
          String(SCENARIO_TIMEOUT_MS),
        ],
        outputDir,
      );
    const runs = new Map<(typeof RUNS)[number], { output: string }>();
    for (const run of RUNS.filter((candidate) => candidate.alone)) runs.set(run, await runOne(run));
    const rest = RUNS.filter((candidate) => !candidate.alone);
    const results = await inPool(rest, PARALLEL, runOne);
    for (const [index, run] of rest.entries()) runs.set(run, results[index]!);
    const outcomes = await Promise.all(SCENARIOS.map((scenario) => outcomeOf(scenario, outputDir)));
    console.log(formatOutcomes('conformance client scenarios', outcomes));

    const { unexpected, stale } = judgeOutcomes(outcomes, expected.client);
    const details = unexpected.map(
      (o) => runs.get(RUNS.find((run) => run.scenarios.includes(o.scenario))!)?.output ?? '',
    );
    expect(
      unexpected.map((o) => o.scenario),
      `unexpected failures:\n${details.join('\n---\n')}`,
    ).toEqual([]);
    expect(
      stale.map((o) => o.scenario),
      'expected failures that now pass: remove them from expected-failures.json',
    ).toEqual([]);
    const unknown = Object.keys(expected.client).filter((name) => !SCENARIOS.includes(name));
    expect(unknown, 'expected-failures.json names scenarios this runner does not run').toEqual([]);
  });
});
