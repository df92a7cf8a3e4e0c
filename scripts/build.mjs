#!/usr/bin/env node
// `npm run build` (and the first step of `npm test` and `npm run pack`): turbo builds the packages, two at a time on
// two cores, and this prints one line per package as it starts and as it ends, with its time, plus the total. Turbo's
// own `--output-logs=errors-only` would say nothing for minutes; its full logs list every emitted file.
//
//   node scripts/build.mjs                       every package
//   node scripts/build.mjs --filter=<selector>   what turbo's --filter selects (e.g. '@mcpkit/app-quickstart...')
//   node scripts/build.mjs --if-needed           nothing at all when every package's dist is already up to date
//
// `--if-needed` is for tests that need the built packages (the README examples, the tarball install): during
// `npm test` the build has just run, and a second turbo run would restore every dist/ from its cache while other test
// files read them. It asks turbo (a dry run) whether any task would run, and only then builds.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const root = join(import.meta.dirname, '..');
const filters = process.argv.slice(2).filter((arg) => arg.startsWith('--filter'));
const args = ['run', 'build', '--output-logs=new-only', '--log-order=stream', ...filters];
const started = performance.now();
const since = () => `${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s`;
const turboBin = join(root, 'node_modules', '.bin', 'turbo');
// turbo runs each package's script with the workspace's pnpm: put it first on PATH, as an absolute path (a relative
// `./node_modules/.bin` entry, which `pnpm exec` adds, would be resolved in each package's folder and fail).
const env = {
  ...process.env,
  PATH: `${join(root, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`,
  FORCE_COLOR: '0',
  TURBO_NO_UPDATE_NOTIFIER: '1',
};

if (process.argv.includes('--if-needed')) {
  const plan = JSON.parse(
    execFileSync(turboBin, ['run', 'build', '--dry=json', ...filters], { cwd: root, env, encoding: 'utf8' }),
  );
  // Up to date: dist/ was built (or restored) for exactly the hash turbo computes for the sources as they are now.
  const builtFor = (task) => {
    const file = join(root, task.directory, '.build-hash');
    return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  };
  const stale = plan.tasks.filter((task) => task.command !== '<NONEXISTENT>' && builtFor(task) !== task.hash);
  if (stale.length === 0) {
    console.log('[build] every package is up to date');
    process.exit(0);
  }
}

const turbo = spawn(turboBin, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env });

const counts = { built: 0, cached: 0 };
let pending = '';
turbo.stdout.setEncoding('utf8').on('data', (chunk) => {
  pending += chunk;
  const lines = pending.split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) show(line);
});

/** One line of turbo's output, reworded: progress per package; errors as they are; turbo's chatter dropped. */
function show(line) {
  const task = /^(\S+?):build: (.*)$/.exec(line);
  if (task === null) {
    if (/^\s*(Tasks|Cached|Time|Failed):/.test(line) || /ERROR|error/.test(line)) console.log(line);
    return;
  }
  const [, name, text] = task;
  if (/^cache hit/.test(text)) {
    counts.cached++;
    console.log(`[build] ${since()}  ${name}: up to date (cached)`);
  } else if (/^cache miss/.test(text)) {
    console.log(`[build] ${since()}  ${name}: building…`);
  } else if (text.startsWith('[build] ')) {
    if (text.includes(' built in ')) counts.built++;
    console.log(`[build] ${since()}  ${text.slice('[build] '.length)}`);
  } else if (text.trim() !== '' && !/^> /.test(text.trim())) {
    console.log(`${name}: ${text}`);
  }
}

turbo.on('close', (code) => {
  if (pending !== '') show(pending);
  const total = ((performance.now() - started) / 1000).toFixed(1);
  const verdict = code === 0 ? 'done' : 'FAILED';
  console.log(`[build] ${verdict} in ${total} s: ${counts.built} built, ${counts.cached} up to date`);
  process.exit(code ?? 1);
});
