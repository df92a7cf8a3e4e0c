#!/usr/bin/env node
// The Node matrix of `npm test`. The whole suite runs on the system Node first; this runs the tests that exercise real
// sockets and processes again on every other supported line (Node 22 and 24, npm's `node` binaries from
// tools/node-lines), the lines side by side. Each line's Node runs vitest itself, so test workers and every child
// process they spawn (`process.execPath`, or `node` on PATH: the line's folder goes first) run on that line.
//
//   node scripts/test-matrix.mjs            every line but the running one
//   node scripts/test-matrix.mjs 24         one line
//
// Each line writes .vitest-report-node<line>.json; a line that fails (or runs no test) fails the script.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CURRENT_LINE, NODE_LINES, nodeBinary, nodeVersion } from '../tools/node-lines/index.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// The vitest projects that touch what differs between Node lines: sockets, HTTP (undici's fetch, node:http), streams
// and back-pressure, child processes, WebSocket (a global on 22+), AbortSignal, timers. Every app with tests is in
// (sample apps, conformance fixtures) but the benchmark, whose quick run belongs to the system Node's suite.
const PACKAGES = [
  'jsonrpc-core',
  'transport-http',
  'transport-stdio',
  'transport-websocket',
  'client',
  'server',
  'middleware',
  'tasks',
  'skills',
  'apps',
  'gateway',
  'store-redis',
  'testing',
  'cli',
];
const TOOLS = ['interop', 'paths'];
// Repository checks that read sources or run the system's npm, the same on every line: the system Node's run is enough.
const LINE_INDEPENDENT = [
  'test/fresh-clone.test.ts',
  'test/api-docs.test.ts',
  'test/api-report.test.ts',
  'test/file-size.test.ts',
  'test/import-cycles.test.ts',
  // Every template installed with npm. The tarballs installed and run on every line stay in the matrix
  // (test/install-from-tarballs.test.ts); here the tasks template's better-sqlite3 would compile for each line's ABI
  // (minutes), where the system Node's run reuses the workspace's binary. (Excludes match from each project's folder:
  // this is packages/cli's.)
  'test/init-install.test.ts',
];
const EXCLUDED_APPS = new Set(['bench']);

function projects() {
  const present = (group, names) => names.filter((name) => existsSync(join(root, group, name, 'package.json')));
  const apps = present('apps', existsSync(join(root, 'apps')) ? readdirSync(join(root, 'apps')) : []);
  return [
    ...present('packages', PACKAGES),
    ...present('tools', TOOLS),
    // An app named like a package is the vitest project `app-<name>` (see vitest.config.ts).
    ...apps
      .filter((name) => !EXCLUDED_APPS.has(name))
      .map((name) => (existsSync(join(root, 'packages', name, 'package.json')) ? `app-${name}` : name)),
    'repo',
  ];
}

function runLine(line, names) {
  const binary = nodeBinary(line);
  const report = `.vitest-report-node${line}.json`;
  const args = [
    join(root, 'node_modules', 'vitest', 'vitest.mjs'),
    'run',
    ...names.flatMap((name) => ['--project', name]),
    ...LINE_INDEPENDENT.flatMap((file) => ['--exclude', file]),
    // One line per test file, and console output only of tests that fail: the system Node's run shows the rest.
    '--reporter=default',
    '--silent=passed-only',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ];
  const env = {
    ...process.env,
    PATH: `${dirname(binary)}:${process.env.PATH ?? ''}`,
    MCPKIT_NODE_LINE: String(line),
    NO_COLOR: '1',
  };
  const started = Date.now();
  const tag = `[node ${nodeVersion(line)}]`;
  console.log(`${tag} vitest on ${names.length} projects: ${names.join(', ')}`);
  return new Promise((resolve) => {
    const child = spawn(binary, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const prefix = (stream, out) => {
      let partial = '';
      stream.on('data', (chunk) => {
        const lines = (partial + chunk).split('\n');
        partial = lines.pop() ?? '';
        for (const text of lines) out.write(`${tag} ${text}\n`);
      });
      stream.on('end', () => {
        if (partial !== '') out.write(`${tag} ${partial}\n`);
      });
    };
    prefix(child.stdout, process.stdout);
    prefix(child.stderr, process.stderr);
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      let counts = 'no report';
      let ok = false;
      if (existsSync(join(root, report))) {
        const json = JSON.parse(readFileSync(join(root, report), 'utf8'));
        const passed = json.numPassedTests ?? 0;
        const failed = json.numFailedTests ?? 0;
        counts = `${passed} passed, ${failed} failed, ${json.numPendingTests ?? 0} skipped`;
        ok = code === 0 && failed === 0 && passed > 0;
      }
      console.log(`${tag} ${ok ? 'ok' : 'FAILED'}: ${counts} in ${seconds} s`);
      resolve(ok);
    });
  });
}

const requested = process.argv.slice(2).map(Number);
const lines = requested.length > 0 ? requested : NODE_LINES.filter((line) => line !== CURRENT_LINE);
const names = projects();
const results = await Promise.all(lines.map((line) => runLine(line, names)));
if (results.some((ok) => !ok)) process.exit(1);
