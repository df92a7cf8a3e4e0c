import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CURRENT_LINE, nodeBinary } from '@mcpkit/node-lines';
import { formatOutcomes, readScenarioOutcome, runToCompletion, type ScenarioOutcome } from '@mcpkit/testkit';
import { afterAll, describe, expect, it } from 'vitest';

// The tasks scenarios of the official conformance suite (@modelcontextprotocol/conformance 0.2.0-alpha.12, the
// newest published, whose tasks scenarios test the 2026-07-28 extension io.modelcontextprotocol/tasks) against
// src/conformance-server.ts: the tools those scenarios call, on @mcpkit/tasks. What apps/everything-server needs for
// them is exactly that file's tools and TaskServer options.

const app = fileURLToPath(new URL('..', import.meta.url));
// The suite's CLI needs Node >= 22: this process's Node when it is one, else the Node 22 binary of @mcpkit/node-lines.
const node22 = CURRENT_LINE >= 22 ? process.execPath : nodeBinary(22);
const cli = join(app, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
/** Scenarios the suite itself skips, and why (each must still be skipped, so a new harness gets noticed). */
const SKIPPED_BY_SUITE: Record<string, string> = {
  'tasks-status-notifications':
    'the suite records SKIPPED ("pending subscriptions/listen rewrite"); notifications/tasks on listen streams is tested in packages/tasks',
};

function startServer(): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=@mcpkit/source', join(app, 'src/conformance-server.ts'), '--port', '0'],
      { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the conformance server did not start within 20 s:\n${output}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /listening (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
  });
}

const runCli = (args: string[]) =>
  runToCompletion(node22, [cli, ...args], { cwd: app, env: { ...process.env, NODE_OPTIONS: '' }, timeoutMs: 90_000 });

describe('conformance: the tasks scenarios', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('passes every tasks scenario of the suite', { timeout: 150_000 }, async () => {
    expect(existsSync(node22), `Node 22 binary missing at ${node22}; run npx pnpm install`).toBe(true);
    const { child, url } = await startServer();
    cleanup.push(() => void child.kill('SIGKILL'));
    const outputDir = await mkdtemp(join(tmpdir(), 'mcpkit-tasks-conformance-'));
    cleanup.push(() => rm(outputDir, { recursive: true, force: true }));
    const listed = await runCli(['list', '--server']);
    const scenarios = [...listed.output.matchAll(/^\s+- (tasks-[\w-]+)/gm)].map((match) => match[1]!);
    expect(scenarios.length, `no tasks scenario listed:\n${listed.output}`).toBeGreaterThanOrEqual(10);

    // Three at a time: each scenario is a CLI process with its own clients.
    const queue = [...scenarios];
    const results: ScenarioOutcome[] = [];
    const worker = async () => {
      for (let scenario = queue.shift(); scenario !== undefined; scenario = queue.shift()) {
        const dir = join(outputDir, scenario);
        const run = await runCli(['server', '--url', url, '--scenario', scenario, '-o', dir]);
        const [folder] = existsSync(dir) ? await readdir(dir) : [];
        if (folder === undefined) throw new Error(`${scenario} recorded nothing:\n${run.output.slice(-2000)}`);
        results.push(await readScenarioOutcome(scenario, join(dir, folder)));
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    results.sort((a, b) => a.scenario.localeCompare(b.scenario));
    const runnable = results.filter((outcome) => SKIPPED_BY_SUITE[outcome.scenario] === undefined);
    console.log(formatOutcomes('conformance tasks scenarios', runnable, runnable.length));
    for (const [scenario, why] of Object.entries(SKIPPED_BY_SUITE))
      console.log(`SKIPPED BY THE SUITE ${scenario}: ${why}`);

    for (const outcome of results) {
      if (SKIPPED_BY_SUITE[outcome.scenario] !== undefined) {
        expect(outcome.counts, `${outcome.scenario} now records checks: run it for real`).toEqual({ SKIPPED: 1 });
      } else {
        expect(outcome.problems, outcome.scenario).toEqual([]);
        expect(outcome.passed, outcome.scenario).toBe(true);
      }
    }
    expect(results.map((outcome) => outcome.scenario)).toEqual([...scenarios].sort());
  });
});
