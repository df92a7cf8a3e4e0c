#!/usr/bin/env node
// `npm test` after the install: every stage runs, even when one before it failed, and the run ends with a table of
// the stages (result and time) and the closing `tests: N passed, N failed` line CI reads; the exit code is non-zero
// when any stage failed. A stage that prints nothing for a minute (tsc over every package says nothing until it is
// done) gets a line saying it is still running, so a slow machine never looks stuck.
//
//   node scripts/test-all.mjs                  every stage
//   node scripts/test-all.mjs --only vitest,summary
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { parseArgs } from 'node:util';
import { closingLine, countTests } from './test-summary.mjs';

const root = join(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const REPORTS = ['.vitest-report.json', '.vitest-report-node22.json', '.vitest-report-node24.json'];
// The tarballs of every package, packed once right after the build: the tests that install them with npm (the README's
// project, every `mcpkit init` template, on every Node line) read them from MCPKIT_PACKS instead of packing again.
const PACKS = join(mkdtempSync(join(tmpdir(), 'mcpkit-test-packs-')), 'packs');

/** The stages, in order. Each is one command; its exit code is its result. */
const STAGES = [
  { name: 'build', what: 'every package (tsup)', command: [process.execPath, 'scripts/build.mjs'] },
  {
    name: 'pack',
    what: 'one tarball per package (npm run pack), for the tests that install them',
    command: [process.execPath, 'scripts/pack.mjs', '--no-build', '--out', PACKS],
  },
  { name: 'lint', what: 'Biome: lint and format check', command: [bin('biome'), 'check', '.'] },
  {
    name: 'typecheck',
    what: 'tsc on every package and app, as one program',
    command: [process.execPath, 'scripts/typecheck.mjs'],
  },
  {
    name: 'vitest',
    what: `the whole suite on Node ${process.versions.node}`,
    // Two files at a time: vitest's default on two cores is one, and most files wait on the processes and sockets
    // they start (two matrix lines side by side take 1.1 times as long as one).
    command: [
      bin('vitest'),
      'run',
      '--maxWorkers=2',
      '--reporter=default',
      '--reporter=json',
      '--outputFile.json=.vitest-report.json',
    ],
  },
  {
    name: 'matrix',
    what: 'socket and process tests on Node 22 and 24',
    command: [process.execPath, 'scripts/test-matrix.mjs'],
  },
  {
    name: 'packages',
    what: 'dependency graph, publint and attw on every package',
    command: [process.execPath, 'scripts/check-packages.mjs'],
  },
];

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const only = values.only?.split(',');
const stages = only === undefined ? STAGES : STAGES.filter((stage) => only.includes(stage.name));
const SILENCE_MS = Number(process.env.MCPKIT_TEST_HEARTBEAT_MS ?? 60_000);
const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}` };

const seconds = (ms) =>
  ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;

/** Runs one stage, passing its output through; resolves with its exit code and time. */
function runStage(stage) {
  return new Promise((resolve) => {
    const started = performance.now();
    let lastOutput = started;
    console.log(`\n[test] ${stage.name}: ${stage.what}`);
    const child = spawn(stage.command[0], stage.command.slice(1), {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pass = (target) => (chunk) => {
      lastOutput = performance.now();
      target.write(chunk);
    };
    child.stdout.on('data', pass(process.stdout));
    child.stderr.on('data', pass(process.stderr));
    const heartbeat = setInterval(
      () => {
        const now = performance.now();
        if (now - lastOutput >= SILENCE_MS) {
          console.log(`[test] ${stage.name}: still running (${seconds(now - started)} so far)`);
          lastOutput = now;
        }
      },
      Math.min(SILENCE_MS, 10_000),
    );
    const finish = (code) => {
      clearInterval(heartbeat);
      resolve({ stage, code, ms: performance.now() - started });
    };
    child.on('error', (error) => {
      console.error(`[test] ${stage.name}: could not start ${stage.command[0]}: ${error.message}`);
      finish(127);
    });
    child.on('close', (code, signal) => finish(code ?? (signal ? 128 : 1)));
  });
}

const ran = (name) => stages.some((stage) => stage.name === name);
// A report left by an earlier run must not count for this one.
if (ran('vitest') || ran('matrix')) {
  for (const report of REPORTS) rmSync(join(root, report), { force: true });
}

const results = [];
for (const stage of stages) {
  const result = await runStage(stage);
  results.push(result);
  // Tests find the packed tarballs only when the stage made them; otherwise each packs its own (and says why it fails).
  if (stage.name === 'pack' && result.code === 0) env.MCPKIT_PACKS = PACKS;
}
rmSync(join(PACKS, '..'), { recursive: true, force: true });

// The tests counted over every report (the whole suite, then each line of the matrix); a missing report, or one that
// counts no test, makes the run red too.
const reports = [...(ran('vitest') ? REPORTS.slice(0, 1) : []), ...(ran('matrix') ? REPORTS.slice(1) : [])];
const counted = reports.length > 0;
const total = countTests(reports.map((report) => join(root, report)));
const failed = results.filter((result) => result.code !== 0);
console.log('\n[test] stages:');
for (const { stage, code, ms } of results) {
  console.log(
    `[test]   ${stage.name.padEnd(10)} ${(code === 0 ? 'passed' : `FAILED (exit ${code})`).padEnd(16)} ${seconds(ms)}`,
  );
}
for (const line of total.lines) console.log(`[test]   ${line.replace(`${root}/`, '')}`);
for (const problem of total.problems) console.log(`[test]   ${problem.replace(`${root}/`, '')}`);
const elapsed = results.reduce((sum, result) => sum + result.ms, 0);
const red = failed.length > 0 || total.problems.length > 0 || total.failed > 0;
console.log(
  `[test] ${failed.length === 0 ? 'every stage passed' : `${failed.length} of ${results.length} stages failed: ${failed.map((result) => result.stage.name).join(', ')}`}, in ${seconds(elapsed)}`,
);
if (counted) console.log(closingLine(total));
process.exit(red ? 1 : 0);
