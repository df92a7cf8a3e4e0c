import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  formatOutcomes,
  judgeOutcomes,
  readScenarioOutcome,
  runToCompletion,
  type ScenarioOutcome,
} from '@mcpkit/testkit';
import { afterAll, describe, expect, it } from 'vitest';

// Runs every non-auth client scenario of the official conformance suite (@modelcontextprotocol/conformance 0.1.16)
// against the everything-client. The CLI needs Node >= 22: it runs with the `node@22` binary installed as a
// devDependency, with conformance/bind-localhost.mjs preloaded so its mock servers listen on 127.0.0.1 only.

const app = fileURLToPath(new URL('..', import.meta.url));
const node22 = join(app, 'node_modules/.bin/node');
const cli = join(app, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const SCENARIOS = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'] as const;
const SCENARIO_TIMEOUT_MS = 30_000;

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

async function outcomeOf(scenario: string, outputDir: string): Promise<ScenarioOutcome> {
  const folders = (await readdir(outputDir)).filter((name) => name.startsWith(`${scenario}-`));
  if (folders.length !== 1) {
    return { scenario, passed: false, counts: {}, problems: [`expected one result folder, found ${folders.length}`] };
  }
  return readScenarioOutcome(scenario, join(outputDir, folders[0]!));
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

  it('passes every non-auth client scenario (or fails exactly as expected)', { timeout: 120_000 }, async () => {
    expect(existsSync(node22), `Node 22 binary missing at ${node22}; run pnpm install`).toBe(true);
    const expected = JSON.parse(await readFile(join(app, 'conformance/expected-failures.json'), 'utf8')) as {
      client: Record<string, string>;
    };
    const outputDir = await mkdtemp(join(tmpdir(), 'mcpkit-conformance-client-'));
    dirs.push(outputDir);
    // The client runs on the Node running these tests (20+), with tsx as a loader; the CLI appends the server URL.
    const command = `${process.execPath} --import tsx --conditions=@mcpkit/source ${join(app, 'src/main.ts')}`;
    const runs = await Promise.all(
      SCENARIOS.map((scenario) =>
        runCli(
          ['client', '--command', command, '--scenario', scenario, '--timeout', String(SCENARIO_TIMEOUT_MS)],
          outputDir,
        ),
      ),
    );
    const outcomes = await Promise.all(SCENARIOS.map((scenario) => outcomeOf(scenario, outputDir)));
    console.log(formatOutcomes('conformance client scenarios', outcomes));

    const { unexpected, stale } = judgeOutcomes(outcomes, expected.client);
    const details = unexpected.map(
      (o) => runs[SCENARIOS.indexOf(o.scenario as (typeof SCENARIOS)[number])]?.output ?? '',
    );
    expect(
      unexpected.map((o) => o.scenario),
      `unexpected failures:\n${details.join('\n---\n')}`,
    ).toEqual([]);
    expect(
      stale.map((o) => o.scenario),
      'expected failures that now pass: remove them from expected-failures.json',
    ).toEqual([]);
    const unknown = Object.keys(expected.client).filter((name) => !(SCENARIOS as readonly string[]).includes(name));
    expect(unknown, 'expected-failures.json names scenarios this runner does not run').toEqual([]);
  });
});
