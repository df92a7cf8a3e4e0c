// No import cycle among package sources, type-only imports included (scripts/check-cycles.mjs). Two cycles are older
// than this check and listed below; each may only shrink: a new cycle, or a file joining a listed one, fails.
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without declarations
import { findCycles, importGraph } from '../scripts/check-cycles.mjs';

const ROOT = resolve(import.meta.dirname, '..');

/** Cycles that predate the check (issue 14): the protocol's type modules, and the server core around `Server`. */
const KNOWN: readonly (readonly string[])[] = [
  [
    'packages/protocol/src/types/common.ts',
    'packages/protocol/src/types/content.ts',
    'packages/protocol/src/types/elicitation.ts',
    'packages/protocol/src/types/input-requests.ts',
    'packages/protocol/src/types/logging.ts',
    'packages/protocol/src/types/meta.ts',
    'packages/protocol/src/types/resources.ts',
    'packages/protocol/src/types/roots.ts',
    'packages/protocol/src/types/sampling.ts',
    'packages/protocol/src/types/tasks.ts',
    'packages/protocol/src/types/tools.ts',
  ],
  [
    'packages/server/src/built-ins.ts',
    'packages/server/src/context.ts',
    'packages/server/src/era-rules.ts',
    'packages/server/src/extensions.ts',
    'packages/server/src/input-rounds.ts',
    'packages/server/src/listen-stream.ts',
    'packages/server/src/middleware/filters.ts',
    'packages/server/src/middleware/types.ts',
    'packages/server/src/notification-context.ts',
    'packages/server/src/server.ts',
    'packages/server/src/session.ts',
  ],
];

describe('import cycles among package sources', () => {
  const cycles: string[][] = (findCycles(importGraph(ROOT)) as string[][]).map((cycle) =>
    cycle.map((file) => relative(ROOT, file)),
  );

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
  });

  it('has no cycle beyond the known ones, and none of those grew', () => {
    const unexpected = cycles.filter((cycle) => !KNOWN.some((known) => cycle.every((file) => known.includes(file))));
    expect(unexpected).toEqual([]);
  });
});
