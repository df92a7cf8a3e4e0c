// The shell blocks of a README, read as a newcomer runs them on a fresh clone with only Node and npm: valid bash, no
// bare `pnpm` (not on PATH until the workspace's own pnpm is installed, and never global), no `npm install` of an
// @mcpkit package by name (not on a registry yet: the tarballs of `npm run pack` are), and every script a command
// names exists where the command runs it (`npm run x` at the root or in the README's own package, `npx pnpm --filter
// <package> x` in that workspace package).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CodeBlock } from './blocks';

// pnpm and npm commands that are not scripts: a `npx pnpm <name>` or `npm run`-less call of one of these is fine.
const BUILT_IN = new Set(['install', 'add', 'exec', 'dlx', 'vitest', 'turbo', 'tsx', 'changeset', 'pack', 'publish']);

interface Manifest {
  name?: string;
  scripts?: Record<string, string>;
}

const readManifest = (file: string): Manifest | undefined =>
  existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : undefined;

/** The workspace's packages by name (packages/, apps/, tools/), with their scripts. */
function workspacePackages(root: string): Map<string, Set<string>> {
  const packages = new Map<string, Set<string>>();
  for (const group of ['packages', 'apps', 'tools']) {
    if (!existsSync(join(root, group))) continue;
    for (const entry of readdirSync(join(root, group), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const manifest = readManifest(join(root, group, entry.name, 'package.json'));
      if (manifest?.name !== undefined) packages.set(manifest.name, new Set(Object.keys(manifest.scripts ?? {})));
    }
  }
  return packages;
}

/**
 * The commands of a shell block, one per simple command: comments and line continuations removed, split at `&&`,
 * `||`, `;` and `|`, leading `VAR=value` assignments dropped.
 */
export function shellCommands(code: string): string[][] {
  const text = code.replace(/\\\n/g, ' ').replace(/(^|\s)#.*$/gm, '');
  return text
    .split(/\n|&&|\|\||;|\|/)
    .map((command) => command.trim().split(/\s+/).filter(Boolean))
    .map((words) => {
      let first = 0;
      while (first < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[first]!)) first++;
      return words.slice(first);
    })
    .filter((words) => words.length > 0);
}

/** Reports every line of a shell block that cannot run as written on a fresh clone. */
export function checkShell(block: CodeBlock, root: string, report: (block: CodeBlock, message: string) => void): void {
  const syntax = spawnSync('bash', ['-n'], { input: block.code, encoding: 'utf8' });
  if (syntax.status !== 0) report(block, `is not valid bash: ${syntax.stderr.trim()}`);
  const local = new Set<string>();
  for (const manifest of [join(root, 'package.json'), join(root, dirname(block.readme), 'package.json')]) {
    for (const name of Object.keys(readManifest(manifest)?.scripts ?? {})) local.add(name);
  }
  let workspace: Map<string, Set<string>> | undefined;
  for (const words of shellCommands(block.code)) {
    const [command, ...args] = words;
    if (command === 'pnpm') {
      report(
        block,
        `runs bare \`pnpm\`, which a fresh clone does not have on PATH: write \`npx pnpm ${args.join(' ')}\``,
      );
      continue;
    }
    if (command === 'npm' && (args[0] === 'install' || args[0] === 'i')) {
      const named = args.slice(1).filter((arg) => arg.startsWith('@mcpkit/'));
      if (named.length > 0) {
        report(
          block,
          `installs ${named.join(', ')} by name, but the packages are not on a registry yet: install the tarballs of \`npm run pack\` (npm install /path/to/mcpkit/packs/*.tgz)`,
        );
      }
      continue;
    }
    const pnpmArgs = command === 'npx' && args[0] === 'pnpm' ? args.slice(1) : undefined;
    if (command === 'npm' && args[0] === 'run' && args[1] !== undefined) {
      if (!local.has(args[1])) report(block, `runs script "${args[1]}", which neither package.json defines`);
    } else if (pnpmArgs !== undefined) {
      const filterAt = pnpmArgs.findIndex((arg) => arg === '--filter' || arg === '-F');
      if (filterAt >= 0) {
        const target = pnpmArgs[filterAt + 1] ?? '';
        const rest = pnpmArgs.slice(filterAt + 2).filter((arg) => arg !== '--fail-if-no-match');
        const script = rest[0] === 'run' ? rest[1] : rest[0];
        workspace ??= workspacePackages(root);
        const scripts = workspace.get(target);
        if (scripts === undefined) {
          report(block, `filters on "${target}", which is no package of the workspace`);
        } else if (script !== undefined && !BUILT_IN.has(script) && !scripts.has(script)) {
          report(block, `runs script "${script}" of ${target}, which its package.json does not define`);
        }
        continue;
      }
      const script = pnpmArgs[0] === 'run' ? pnpmArgs[1] : pnpmArgs[0];
      if (script !== undefined && /^[a-z]/.test(script) && !local.has(script) && !BUILT_IN.has(script)) {
        report(block, `runs script "${script}", which neither package.json defines`);
      }
    }
  }
}
