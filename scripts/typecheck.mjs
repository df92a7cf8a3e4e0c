#!/usr/bin/env node
// The typecheck stage of `npm test`: every workspace project's `typecheck` (tsc -p tsconfig.json) as ONE TypeScript
// program. Each project resolves its workspace dependencies to their TypeScript source, so one tsc per project
// checked the server's source again for every app and package above it: 36 programs, about 200 s of CPU. Their
// tsconfigs differ only in `include`, so one program with the union of the includes checks every file once, under the
// same options (about 20 s). A project whose tsconfig sets anything else is checked on its own, as before.
// Each package's own program is still compiled alone by the build (tsup's declarations), and `npm run typecheck` still
// runs the per-project scripts through turbo.
//
//   node scripts/typecheck.mjs
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const BASE = '../../tsconfig.base.json';

/** Every project with a `typecheck` script: its folder and its tsconfig. */
const projects = ['packages', 'apps', 'tools'].flatMap((group) =>
  readdirSync(join(root, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(group, entry.name))
    .filter((folder) => existsSync(join(root, folder, 'package.json')))
    .filter((folder) => {
      const script = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8')).scripts?.typecheck;
      if (script === undefined) return false;
      if (script !== 'tsc -p tsconfig.json')
        throw new Error(`${folder}: typecheck is "${script}", not tsc -p tsconfig.json`);
      return true;
    })
    .map((folder) => ({ folder, config: JSON.parse(readFileSync(join(root, folder, 'tsconfig.json'), 'utf8')) })),
);

// The same options as the base: only `extends` (the base) and `include`.
const plain = ({ config }) =>
  config.extends === BASE &&
  Array.isArray(config.include) &&
  Object.keys(config).every((key) => key === 'extends' || key === 'include');
const together = projects.filter(plain);
const alone = projects.filter((project) => !plain(project));

const cache = join(root, 'node_modules', '.cache', 'mcpkit-typecheck');
mkdirSync(cache, { recursive: true });
const combined = join(cache, 'tsconfig.json');
writeFileSync(
  combined,
  `${JSON.stringify(
    {
      extends: join(root, 'tsconfig.base.json'),
      // The root's own tests (test/tsconfig.json: the base's options, every file of the folder) belong to no project.
      include: [
        ...together.flatMap(({ folder, config }) => config.include.map((entry) => join(root, folder, entry))),
        join(root, 'test'),
      ],
    },
    null,
    2,
  )}\n`,
);

/** Runs tsc on one config; resolves with its exit code. Errors print with paths from the root. */
function check(config, label) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', config, '--pretty', 'false'], { cwd: root, stdio: 'inherit' });
    child.on('close', (code) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`[typecheck] ${label}: ${code === 0 ? 'no errors' : 'FAILED'} in ${seconds} s`);
      resolve(code ?? 1);
    });
  });
}

console.log(
  `[typecheck] ${together.length} projects and the root's test/ as one program${alone.length ? `, ${alone.map((p) => p.folder).join(', ')} alone` : ''}`,
);
const codes = await Promise.all([
  check(combined, `${together.length} projects and test/`),
  ...alone.map(({ folder }) => check(join(root, folder, 'tsconfig.json'), folder)),
]);
process.exit(codes.every((code) => code === 0) ? 0 : 1);
