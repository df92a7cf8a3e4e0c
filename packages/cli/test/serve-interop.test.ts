// Official tools through `mcpkit serve` in front of apps/quickstart: MCP Inspector's CLI (a 2025-era host over
// Streamable HTTP) lists and calls what quickstart offers, and the official conformance suite runs the server
// scenarios quickstart can pass, on both wires (conformance/serve-scenarios.json says which, and why not the others).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CURRENT_LINE, nodeBinary } from '@mcpkit/node-lines';
import {
  collectOutcomes,
  conformanceCli,
  formatRuns,
  inPool,
  judgeRuns,
  parseScenarioList,
  type RunOutcome,
  runConformanceCli,
} from '@mcpkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from './run-cli';
import { type ServeProcess, startServe, stdioServer } from './serve-process';

const require = createRequire(import.meta.url);
// The Inspector's CLI mode (what `npx @modelcontextprotocol/inspector --cli` runs): its launcher only spawns this file.
const INSPECTOR = join(dirname(require.resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build/index.js');
// The suite's CLI needs Node >= 22 (the Node 22 binary of @mcpkit/node-lines on Node 20).
const node22 = CURRENT_LINE >= 22 ? process.execPath : nodeBinary(22);
const suite = conformanceCli('@modelcontextprotocol/conformance-next');
const SCENARIOS = JSON.parse(readFileSync(`${REPO}packages/cli/conformance/serve-scenarios.json`, 'utf8')) as {
  run: Record<string, string[]>;
  out: Record<string, string>;
};

let bridge: ServeProcess;
beforeAll(async () => {
  // One child for every session: the suite opens a session per scenario, and per-session children (the default,
  // tested in serve-options.test.ts) would start quickstart dozens of times for nothing these checks look at.
  bridge = await startServe(['--shared'], stdioServer('apps/quickstart/src/server.ts'));
}, 30_000);
afterAll(() => bridge?.stop());

/** Runs the Inspector's CLI against the bridge and parses the JSON it prints. */
function inspector(args: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    // Its working folder must be its own build folder: it finds its package.json by a path relative to the cwd.
    const child = spawn(process.execPath, [INSPECTOR, bridge.url, '--transport', 'http', ...args], {
      cwd: dirname(INSPECTOR),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`inspector ${args.join(' ')} exited with ${code}:\n${stderr}${stdout}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

describe('mcpkit serve, driven by official tools', () => {
  it('MCP Inspector CLI lists and calls tools, gets a prompt and reads a resource through it', {
    timeout: 30_000,
  }, async () => {
    // Four runs, each a process that connects, asks once and exits (the log level is the conformance run's).
    const [tools, bill, prompt, menu] = await inPool(
      [
        ['--method', 'tools/list'],
        ['--method', 'tools/call', '--tool-name', 'split-bill', '--tool-arg', 'total=100', 'people=4'],
        ['--method', 'prompts/get', '--prompt-name', 'pair-wine', '--prompt-args', 'dish=carbonara'],
        ['--method', 'resources/read', '--uri', 'trattoria://menu'],
      ],
      2,
      (args) => inspector(args),
    );
    expect((tools as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toEqual([
      'opening-hours',
      'split-bill',
      'prepare-order',
      'book-table',
    ]);
    expect(bill).toMatchObject({
      content: [{ type: 'text', text: '4 people pay €27.5 each (tip €10)' }],
      structuredContent: { perPerson: 27.5, tip: 10, totalWithTip: 110 },
    });
    expect(prompt).toMatchObject({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: 'Suggest an Italian wine to go with Spaghetti alla carbonara.' },
        },
      ],
    });
    expect(menu).toMatchObject({ contents: [{ uri: 'trattoria://menu', mimeType: 'text/markdown' }] });
    expect((menu as { contents: Array<{ text: string }> }).contents[0]!.text).toContain('Pizza margherita: €11');
    // The Inspector is a 2025-era host and serve reaches quickstart in 2026-07-28: nothing of that hop reaches it.
    expect(JSON.stringify([tools, bill, prompt, menu])).not.toMatch(
      /resultType|ttlMs|cacheScope|io\.modelcontextprotocol\//,
    );
  });

  it(`passes the conformance server scenarios quickstart can (suite ${suite.version}, both wires)`, {
    timeout: 60_000,
  }, async () => {
    const outputRoot = await mkdtemp(join(tmpdir(), 'mcpkit-serve-conformance-'));
    try {
      // One run of the suite per wire, with that revision's requirements (what it runs one scenario after another,
      // in one process: a process per scenario would cost more than the scenarios), and the list of every scenario.
      const wires = Object.keys(SCENARIOS.run);
      const [list, ...runs] = await Promise.all([
        runConformanceCli(node22, suite, ['list', '--server'], { cwd: REPO, timeoutMs: 30_000 }),
        ...wires.map((wire) =>
          runConformanceCli(
            node22,
            suite,
            ['server', '--url', bridge.url, '--requirements', wire, '-o', join(outputRoot, wire)],
            { cwd: REPO, timeoutMs: 45_000 },
          ),
        ),
      ]);
      const outcomes: RunOutcome[] = [];
      for (const wire of wires) {
        const found = await collectOutcomes(join(outputRoot, wire), 'server');
        outcomes.push(...found.map((outcome) => ({ ...outcome, suite: suite.label, wire })));
      }
      // The scenarios expected to fail, per wire: everything that ran and is not listed to run there.
      const expected = Object.fromEntries(
        wires.map((wire) => [
          wire,
          Object.fromEntries(
            outcomes
              .filter((o) => o.wire === wire && !SCENARIOS.run[wire]!.includes(o.scenario))
              .map((o) => [o.scenario, SCENARIOS.out[o.scenario] ?? 'not placed in serve-scenarios.json']),
          ),
        ]),
      );
      console.log(
        formatRuns('conformance server scenarios through mcpkit serve', outcomes, { [suite.label]: expected }),
      );

      // Every scenario the suite lists is placed (run at some wire, or out with a reason), and nothing else is.
      const listed = parseScenarioList(list!.output, 'Server scenarios');
      expect(listed.length, `could not read the scenario list:\n${list!.output}`).toBeGreaterThan(0);
      const placed = new Set([...Object.values(SCENARIOS.run).flat(), ...Object.keys(SCENARIOS.out)]);
      expect(
        listed.filter((name) => !placed.has(name)),
        'scenarios serve-scenarios.json does not place',
      ).toEqual([]);
      expect(
        [...placed].filter((name) => !listed.includes(name)),
        'placed scenarios the suite no longer has',
      ).toEqual([]);
      expect(
        wires.flatMap((wire) =>
          SCENARIOS.run[wire]!.filter((name) => !outcomes.some((o) => o.wire === wire && o.scenario === name)).map(
            (name) => `${wire} ${name}`,
          ),
        ),
        `scenarios with no result:\n${runs.map((run) => run.output.slice(-3000)).join('\n---\n')}`,
      ).toEqual([]);
      const { unexpected, stale } = judgeRuns(outcomes, { [suite.label]: expected });
      expect(unexpected.map((o) => `[${o.wire}] ${o.scenario}: ${o.problems.join('; ')}`)).toEqual([]);
      expect(
        stale.map((o) => `[${o.wire}] ${o.scenario}`),
        'scenarios out that pass now: move them to run in serve-scenarios.json',
      ).toEqual([]);
    } finally {
      await rm(outputRoot, { recursive: true, force: true });
    }
  });
});
