import type { ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { ValidationIssue } from '../../src/validation/issues.js';
import type { Validator } from '../../src/validation/kit.js';
import type { SchemaRevision } from '../../src/validation/revision-definition.js';
import { types20241105 } from '../../src/validation/spec-2024-11-05.js';
import { types20250326 } from '../../src/validation/spec-2025-03-26.js';
import { types20250618 } from '../../src/validation/spec-2025-06-18.js';
import { types20251125 } from '../../src/validation/spec-2025-11-25.js';
import { types20260728 } from '../../src/validation/spec-2026-07-28.js';
import { getValidators } from '../../src/validation/validators.js';
import { PROTOCOL_VERSIONS as SCHEMA_REVISIONS } from '../../src/versions.js';
import { ALLOW_LIST } from './allow-list.js';
import { buildCorpus } from './corpus.js';
import { compileOfficial, loadOfficial, loadRawSchema, type OfficialSchema } from './official-schema.js';

// Our hand-written validators must give the official JSON Schema's verdict (ajv, formats off) on every instance of a
// broad corpus: generated valid instances, the official examples, hand-written messages, and systematic mutants of
// all of them. The only tolerated differences are the allow-listed ones, each proven by a patched schema.

const TYPES: Readonly<Record<SchemaRevision, Readonly<Record<string, Validator>>>> = {
  '2024-11-05': types20241105,
  '2025-03-26': types20250326,
  '2025-06-18': types20250618,
  '2025-11-25': types20251125,
  '2026-07-28': types20260728,
};

interface Disagreement {
  readonly typeName: string;
  readonly origin: string;
  readonly ajv: boolean;
  readonly ours: boolean;
  readonly value: string;
}

function patchedSchemas(revision: SchemaRevision): { id: string; official: OfficialSchema }[] {
  return ALLOW_LIST.filter((entry) => entry.revisions.includes(revision)).map((entry) => {
    const raw = structuredClone(loadRawSchema(revision)) as Record<string, unknown>;
    entry.patch(raw);
    return { id: entry.id, official: compileOfficial(revision, raw) };
  });
}

describe.each(SCHEMA_REVISIONS)('agreement with the official JSON Schema of %s', (revision) => {
  const official = loadOfficial(revision);
  const types = TYPES[revision];

  it('defines a validator for exactly the types of the schema', () => {
    expect(Object.keys(types).sort()).toEqual([...official.typeNames].sort());
    expect([...getValidators(revision).typeNames].sort()).toEqual([...official.typeNames].sort());
  });

  it('gives the same verdict as ajv on every instance of the corpus', () => {
    const corpus = buildCorpus(official);
    const patches = patchedSchemas(revision);
    const excused = new Map<string, number>(patches.map((patch) => [patch.id, 0]));
    const disagreements: Disagreement[] = [];
    const inconsistent: string[] = [];
    const ajvCache = new Map<string, ValidateFunction>();
    let valid = 0;

    for (const entry of corpus) {
      let validate = ajvCache.get(entry.typeName);
      if (validate === undefined) {
        validate = official.validator(entry.typeName);
        ajvCache.set(entry.typeName, validate);
      }
      const theirs = validate(entry.value) === true;
      const validator = types[entry.typeName]!;
      const ours = validator.check(entry.value);
      if (ours) valid++;

      // The explaining pass must agree with the fast pass: issues exactly when invalid.
      const issues: ValidationIssue[] = [];
      validator.explain(entry.value, '$', issues);
      if (ours === issues.length > 0) inconsistent.push(`${entry.typeName}: ${entry.origin}`);

      if (theirs === ours) continue;
      const patch = patches.find((candidate) => candidate.official.validator(entry.typeName)(entry.value) === ours);
      if (patch !== undefined) {
        excused.set(patch.id, (excused.get(patch.id) ?? 0) + 1);
        continue;
      }
      disagreements.push({
        typeName: entry.typeName,
        origin: entry.origin,
        ajv: theirs,
        ours,
        value: JSON.stringify(entry.value).slice(0, 400),
      });
    }

    const summary = [...excused].map(([id, count]) => `${id}: ${count}`).join(', ') || 'none';
    console.log(
      `[${revision}] ${corpus.length} instances of ${official.typeNames.length} types: ${valid} valid, ` +
        `${corpus.length - valid} invalid; allow-listed disagreements: ${summary}`,
    );
    expect(corpus.length).toBeGreaterThan(10_000);
    expect(valid).toBeGreaterThan(corpus.length / 5);
    expect(corpus.length - valid).toBeGreaterThan(corpus.length / 5);
    expect(disagreements.slice(0, 20)).toEqual([]);
    expect(inconsistent.slice(0, 20)).toEqual([]);
    const stale = [...excused].filter(([, count]) => count === 0).map(([id]) => id);
    expect(stale, 'allow-list entries that no longer excuse anything: remove them').toEqual([]);
  });
});

describe('the agreement harness', () => {
  it('notices a validator that differs from the schema', () => {
    // A deliberately wrong ProgressNotification params (progress must be an integer here) must be caught.
    const official = loadOfficial('2025-11-25');
    const corpus = buildCorpus(official).filter((entry) => entry.typeName === 'ProgressNotificationParams');
    const validate = official.validator('ProgressNotificationParams');
    const wrong = (value: unknown) =>
      types20251125.ProgressNotificationParams.check(value) &&
      Number.isInteger((value as { progress: number }).progress);
    const differences = corpus.filter((entry) => (validate(entry.value) === true) !== wrong(entry.value));
    expect(differences.length).toBeGreaterThan(0);
  });
});
