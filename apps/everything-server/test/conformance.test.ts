import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CURRENT_LINE, nodeBinary } from '@mcpkit/node-lines';
import {
  formatOutcomes,
  judgeOutcomes,
  readScenarioOutcome,
  runToCompletion,
  type ScenarioOutcome,
} from '@mcpkit/testkit';
import { afterAll, describe, expect, it } from 'vitest';

// Runs every server scenario of the official conformance suite (@modelcontextprotocol/conformance 0.1.16, `--suite
// all`, which includes the pending ones) against the everything-server started with its own entry (src/main.ts) on
// 127.0.0.1 and a free port.

const app = fileURLToPath(new URL('..', import.meta.url));
// The suite's CLI needs Node >= 22: this process's own Node when it is one (the Node 22/24 runs of the matrix), else
// the Node 22 binary of @mcpkit/node-lines.
const node22 = CURRENT_LINE >= 22 ? process.execPath : nodeBinary(22);
const cli = join(app, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const SUITE_TIMEOUT_MS = 150_000;
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

function runCli(args: string[]) {
  return runToCompletion(node22, [cli, ...args], {
    cwd: app,
    env: { ...process.env, NODE_OPTIONS: '' },
    timeoutMs: SUITE_TIMEOUT_MS,
  });
}

async function outcomes(outputDir: string): Promise<ScenarioOutcome[]> {
  const result: ScenarioOutcome[] = [];
  for (const folder of (await readdir(outputDir)).sort()) {
    // server-<scenario>-<ISO timestamp with - for : and .>
    const scenario = folder.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
    result.push(await readScenarioOutcome(scenario, join(outputDir, folder)));
  }
  return result;
}

describe('conformance: server scenarios', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('passes every server scenario of --suite all (or fails exactly as expected)', { timeout: 180_000 }, async () => {
    expect(existsSync(node22), `Node 22 binary missing at ${node22}; run npx pnpm install`).toBe(true);
    const expected = JSON.parse(await readFile(join(app, 'conformance/expected-failures.json'), 'utf8')) as {
      server: Record<string, string>;
    };
    const outputDir = await mkdtemp(join(tmpdir(), 'mcpkit-conformance-server-'));
    cleanup.push(() => rm(outputDir, { recursive: true, force: true }));
    const { child, url } = await startServer();
    cleanup.push(async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    });

    const listed = await runCli(['list', '--server']);
    const scenarios = [...listed.output.matchAll(/^\s+- ([\w-]+)/gm)].map((match) => match[1]!);
    expect(scenarios.length, `could not read the scenario list:\n${listed.output}`).toBeGreaterThan(0);

    const run = await runCli(['server', '--url', url, '--suite', 'all', '-o', outputDir]);
    const results = await outcomes(outputDir);
    console.log(formatOutcomes('conformance server scenarios', results, scenarios.length));

    const ran = new Set(results.map((outcome) => outcome.scenario));
    const missing = scenarios.filter((scenario) => !ran.has(scenario));
    expect(missing, `scenarios with no result:\n${run.output.slice(-4000)}`).toEqual([]);
    const { unexpected, stale } = judgeOutcomes(results, expected.server);
    expect(
      unexpected.map((o) => `${o.scenario}: ${o.problems.join('; ')}`),
      'unexpected failures',
    ).toEqual([]);
    expect(
      stale.map((o) => o.scenario),
      'expected failures that now pass: remove them from expected-failures.json',
    ).toEqual([]);
    const unknown = Object.keys(expected.server).filter((name) => !ran.has(name));
    expect(unknown, 'expected-failures.json names scenarios the suite does not have').toEqual([]);
  });
});
