#!/usr/bin/env node
// `npm run pack`: builds every package and writes one installable tarball per package to `packs/` at the root, as a
// release would publish it (`pnpm pack` rewrites `workspace:` ranges to real versions). Until the packages are on a
// registry, a project outside this repository installs them from there with plain npm:
//
//   npm install /path/to/mcpkit/packs/*.tgz
//
//   node scripts/pack.mjs [--out <folder>] [--no-build]
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = join(import.meta.dirname, '..');
const { values } = parseArgs({
  options: { out: { type: 'string', default: join(root, 'packs') }, 'no-build': { type: 'boolean', default: false } },
});
const out = resolve(values.out);

if (!values['no-build']) {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-needed'], { stdio: 'inherit' });
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
// One pnpm for every package (its own workspace concurrency), not one pnpm per package: 5 s instead of 50 on two
// busy cores.
execFileSync(
  join(root, 'node_modules', '.bin', 'pnpm'),
  ['--recursive', '--filter', './packages/*', 'pack', '--pack-destination', out],
  { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
);
const tarballs = readdirSync(out).filter((file) => file.endsWith('.tgz'));
console.log(`[pack] ${tarballs.length} tarballs in ${out}:`);
for (const file of tarballs) console.log(`[pack]   ${file}`);
console.log(`[pack] in your project: npm install ${join(out, '*.tgz')}`);
