import { describe, expect, it } from 'vitest';
import type { ValidationIssue } from '../../src/validation/issues.js';
import type { Validator } from '../../src/validation/kit.js';
import { types20260728 } from '../../src/validation/spec-2026-07-28.js';
import { mutantsOf } from './mutations.js';
import { officialExamples } from './official-schema.js';

// The explaining pass must point at the place that is wrong. Every mutant of every official example that our
// validator rejects is checked: an issue must sit on the mutated location, inside it (`set $.params = {}` → the
// missing `$.params.name`), or on the union that contains it.

/** `a` and `b` are the same location or one contains the other. */
function related(a: string, b: string): boolean {
  const within = (inner: string, outer: string) =>
    inner === outer || inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`);
  return within(a, b) || within(b, a);
}

const types: Readonly<Record<string, Validator>> = types20260728;

describe('issue paths', () => {
  const cases: { label: string; path: string; change: string; issues: ValidationIssue[] }[] = [];
  for (const { typeName, file, value } of officialExamples()) {
    const validator = types[typeName]!;
    for (const mutant of mutantsOf(value, 10_000)) {
      if (validator.check(mutant.value)) continue;
      const issues: ValidationIssue[] = [];
      validator.explain(mutant.value, '$', issues);
      cases.push({ label: `${typeName}/${file}: ${mutant.change}`, path: mutant.path, change: mutant.change, issues });
    }
  }

  it('cover thousands of rejected mutants', () => {
    expect(cases.length).toBeGreaterThan(5_000);
  });

  it('point at the mutated location, inside it, or at the union around it', () => {
    const unrelated = cases
      .filter((entry) => !entry.issues.some((issue) => related(issue.path, entry.path)))
      .map((entry) => `${entry.label} → ${entry.issues.map((issue) => issue.path).join(', ')}`);
    expect(unrelated).toEqual([]);
  });

  it('name the dropped key itself when a required key is missing outside of unions', () => {
    const drops = cases.filter((entry) => entry.change.startsWith('drop '));
    const exact = drops.filter((entry) =>
      entry.issues.some((issue) => issue.path === entry.path && issue.code === 'missing_key'),
    );
    const viaUnion = drops.filter((entry) => entry.issues.some((issue) => issue.code === 'no_match'));
    // A drop that is not reported at its own path is only allowed when a union had to guess the intended branch.
    const unexplained = drops
      .filter((entry) => !exact.includes(entry) && !viaUnion.includes(entry))
      .map((entry) => `${entry.label} → ${entry.issues.map((issue) => `${issue.path} ${issue.message}`).join('; ')}`);
    expect(unexplained).toEqual([]);
    expect(exact.length).toBeGreaterThan(drops.length * 0.8);
  });
});
