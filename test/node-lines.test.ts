import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CURRENT_LINE, NODE_LINES, nodeBinary, nodeVersion } from '../tools/node-lines/index.mjs';

// The Node lines mcpkit supports and tests (20, 22, 24), and the promises around them: the matrix really runs on the
// line it names, the engines say the same everywhere, and no workspace package puts a `node` binary on its own
// script PATH (which made `pnpm start` of a sample app run on another Node than the one its user started it with).

const root = join(import.meta.dirname, '..');
const ENGINES = '^20.19.0 || ^22.12.0 || >=24.0.0';
const TESTED = [20, ...NODE_LINES];

function workspacePackages(): string[] {
  return ['packages', 'apps', 'tools'].flatMap((group) =>
    readdirSync(join(root, group))
      .map((name) => join(group, name))
      .filter((folder) => existsSync(join(root, folder, 'package.json'))),
  );
}

describe('Node lines', () => {
  it('runs on the line the matrix asked for', () => {
    const asked = process.env.MCPKIT_NODE_LINE;
    expect(TESTED).toContain(CURRENT_LINE);
    if (asked !== undefined) expect(CURRENT_LINE).toBe(Number(asked));
  });

  it('has a binary for every other tested line', () => {
    for (const line of NODE_LINES) {
      expect(existsSync(nodeBinary(line)), `Node ${line}`).toBe(true);
      expect(nodeVersion(line)).toMatch(new RegExp(`^v${line}\\.`));
    }
  });

  it('every package and app declares the supported lines in engines', () => {
    const wrong: string[] = [];
    for (const folder of ['.', ...workspacePackages().filter((f) => !f.startsWith('tools'))]) {
      const pkg = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8'));
      if (pkg.engines?.node !== ENGINES) wrong.push(`${folder}: ${JSON.stringify(pkg.engines?.node)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('no workspace package but tools/node-lines depends on npm’s node binaries', () => {
    const offenders: string[] = [];
    for (const folder of workspacePackages()) {
      if (folder === join('tools', 'node-lines')) continue;
      const pkg = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8'));
      for (const field of ['dependencies', 'devDependencies', 'optionalDependencies']) {
        for (const [name, spec] of Object.entries<string>(pkg[field] ?? {})) {
          if (name === 'node' || spec.startsWith('npm:node@')) offenders.push(`${folder} ${field}.${name}`);
        }
      }
      const bin = join(root, folder, 'node_modules', '.bin', 'node');
      if (existsSync(bin)) offenders.push(`${folder}/node_modules/.bin/node`);
    }
    expect(offenders).toEqual([]);
  });

  // node:sqlite (for durable stores) is a built-in from Node 22.13 on without a flag; Node 20 has none.
  it('node:sqlite is there exactly on 22 and later', async () => {
    const loaded = await import('node:sqlite' as string).then(
      () => true,
      () => false,
    );
    expect(loaded).toBe(CURRENT_LINE >= 22);
  });
});
