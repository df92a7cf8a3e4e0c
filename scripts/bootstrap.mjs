#!/usr/bin/env node
// Installs the workspace on a machine that has only Node and npm: pnpm is fetched through npx at the version pinned in
// package.json#packageManager, and the workspace's own devDependency on pnpm puts a pnpm binary in node_modules/.bin
// for every later script. Skips the install when the lockfile has not changed since the last successful one.
//
// Every root script a README names starts with it, so each works on a fresh clone. A plain `npm install` at the root
// works too: npm installs the root's own devDependencies its way, then runs `postinstall`, which calls this with
// `--after-npm-install`: the workspace is installed again with pnpm (node_modules replaced, no prompt), since npm does
// not read pnpm-workspace.yaml and would leave the packages unlinked. Inside pnpm's own install the hook does nothing.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const stamp = join(root, 'node_modules', '.mcpkit-install-stamp');
const lock = join(root, 'pnpm-lock.yaml');
const digest = existsSync(lock) ? createHash('sha256').update(readFileSync(lock)).digest('hex') : 'no-lockfile';

const afterNpmInstall = process.argv.includes('--after-npm-install');
if (afterNpmInstall && (process.env.npm_config_user_agent ?? '').startsWith('pnpm/')) process.exit(0);

if (
  !afterNpmInstall &&
  existsSync(stamp) &&
  readFileSync(stamp, 'utf8') === digest &&
  existsSync(join(root, 'node_modules', '.bin', 'pnpm'))
) {
  process.exit(0);
}

const frozen = existsSync(lock) ? ['--frozen-lockfile'] : [];
console.log(`[bootstrap] installing the workspace with ${packageManager} (npx, no global pnpm needed)`);
// confirmModulesPurge=false: a node_modules that npm made is replaced without asking (there is no TTY in CI).
execFileSync('npx', ['-y', packageManager, 'install', ...frozen, '--config.confirmModulesPurge=false'], {
  cwd: root,
  stdio: 'inherit',
});
writeFileSync(stamp, digest);
