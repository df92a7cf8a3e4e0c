import type { SchemaRevision } from '../../src/validation/revision-definition.js';
import type { JsonSchema } from './schema-instances.js';

// Deliberate disagreements with the official schema.json. Each entry patches the schema the way our validators read
// it; a disagreement is excused only if ajv on the patched schema agrees with us. An entry that excuses nothing in one
// of its revisions is stale and fails the test.

export interface AllowListEntry {
  readonly id: string;
  readonly revisions: readonly SchemaRevision[];
  readonly reason: string;
  /** Mutates a deep copy of the schema document. */
  readonly patch: (schema: Record<string, unknown>) => void;
}

function defsOf(schema: Record<string, unknown>): Record<string, JsonSchema> {
  return (schema.$defs ?? schema.definitions) as Record<string, JsonSchema>;
}

/** Replaces `"integer"` by `"number"` in every `type` list inside `node`. */
function widenIntegers(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) widenIntegers(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const record = node as Record<string, unknown>;
  if (Array.isArray(record.type) && record.type.includes('integer')) {
    record.type = record.type.map((type) => (type === 'integer' ? 'number' : type));
  }
  for (const value of Object.values(record)) widenIntegers(value);
}

export const ALLOW_LIST: readonly AllowListEntry[] = [
  {
    id: 'json-value-null-and-fractions',
    revisions: ['2026-07-28'],
    reason:
      'schema.ts defines JSONValue = string | number | boolean | null | JSONObject | JSONArray; the generated ' +
      'schema.json says ["string","integer","boolean"] (no null, no fractions). JSONObject is used for capability ' +
      'settings and sampling metadata, where 0.5 or null are ordinary values; the official SDK accepts them too.',
    patch: (schema) => {
      const jsonValue = defsOf(schema).JSONValue as { anyOf: Record<string, unknown>[] };
      for (const branch of jsonValue.anyOf) {
        if (Array.isArray(branch.type)) branch.type = ['string', 'number', 'boolean', 'null'];
      }
    },
  },
  {
    id: 'elicit-result-number',
    revisions: ['2025-06-18', '2025-11-25', '2026-07-28'],
    reason:
      'ElicitResult.content values: schema.ts says string | number | boolean (| string[]), schema.json says integer. ' +
      'A NumberSchema field of type "number" is answered with a fraction (3.5), which must be accepted.',
    patch: (schema) => widenIntegers(defsOf(schema).ElicitResult),
  },
];
