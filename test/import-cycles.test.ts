// No import cycle among package sources, type-only imports included (scripts/check-cycles.mjs): a cycle, even of
// types, means two files are one module split in two, and it is what keeps a bundler from dropping unused code.
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without declarations
import { findCycles, importGraph } from '../scripts/check-cycles.mjs';

const ROOT = resolve(import.meta.dirname, '..');

describe('import cycles among package sources', () => {
  it('finds a cycle when there is one (the checker works)', () => {
    const a = '/x/a.ts';
    const b = '/x/b.ts';
    const c = '/x/c.ts';
    const graph = new Map([
      [a, new Set([b])],
      [b, new Set([a, c])],
      [c, new Set<string>()],
    ]);
    expect(findCycles(graph)).toEqual([[a, b]]);
    expect(findCycles(new Map([[a, new Set([a])]]))).toEqual([[a]]);
  });

  it('reads type-only imports, re-exports and dynamic imports as edges', () => {
    const graph = importGraph(ROOT) as Map<string, Set<string>>;
    const context = resolve(ROOT, 'packages/jsonrpc-core/src/context.ts');
    // context.ts has `import type { … } from './request-options'`.
    expect([...(graph.get(context) ?? [])].map((file) => relative(ROOT, file))).toContain(
      'packages/jsonrpc-core/src/request-options.ts',
    );
    expect(graph.size).toBeGreaterThan(100);
  });

  it('has none', () => {
    const cycles = (findCycles(importGraph(ROOT)) as string[][]).map((cycle) =>
      cycle.map((file) => relative(ROOT, file)),
    );
    expect(cycles).toEqual([]);
  });
});
