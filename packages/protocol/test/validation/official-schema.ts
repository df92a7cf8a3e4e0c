import { readdirSync, readFileSync } from 'node:fs';
import Ajv, { type ValidateFunction } from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import type { SchemaRevision } from '../../src/validation/revision-definition.js';
import type { JsonSchema, SchemaDocument } from './schema-instances.js';

// The official schema.json of each revision, loaded from the in-repo fixtures and compiled with ajv: the oracle our
// hand-written validators are held to. Formats are not validated (ours do not check them either, by design).

const FIXTURES = new URL('../fixtures/spec/', import.meta.url);

export interface OfficialSchema {
  readonly revision: SchemaRevision;
  readonly raw: JsonSchema;
  readonly document: SchemaDocument;
  readonly typeNames: readonly string[];
  /** ajv's verdict for `$defs/<typeName>`. */
  readonly validator: (typeName: string) => ValidateFunction;
}

export function loadRawSchema(revision: SchemaRevision): JsonSchema {
  return JSON.parse(readFileSync(new URL(`${revision}/schema.json`, FIXTURES), 'utf8')) as JsonSchema;
}

/** Compiles a (possibly patched) schema document with the ajv flavour of its draft. */
export function compileOfficial(revision: SchemaRevision, raw: JsonSchema): OfficialSchema {
  const defsKeyword = raw.$defs !== undefined ? '$defs' : 'definitions';
  const defs = raw[defsKeyword] as Record<string, JsonSchema>;
  const modern = String(raw.$schema).includes('2020-12');
  const options = { strict: false, validateFormats: false, allErrors: false } as const;
  const ajv = modern ? new Ajv2020(options) : new Ajv(options);
  const id = `https://mcpkit.test/${revision}/schema.json`;
  ajv.addSchema({ ...raw, $id: id });
  const compiled = new Map<string, ValidateFunction>();
  return {
    revision,
    raw,
    document: { defs, defsKeyword },
    typeNames: Object.keys(defs),
    validator: (typeName) => {
      let validate = compiled.get(typeName);
      if (validate === undefined) {
        validate = ajv.compile({ $ref: `${id}#/${defsKeyword}/${typeName}` });
        compiled.set(typeName, validate);
      }
      return validate;
    },
  };
}

export function loadOfficial(revision: SchemaRevision): OfficialSchema {
  return compileOfficial(revision, loadRawSchema(revision));
}

/** The official 2026-07-28 examples: `{ typeName, file, value }` for every `examples/<TypeName>/*.json`. */
export function officialExamples(): { typeName: string; file: string; value: unknown }[] {
  const root = new URL('2026-07-28/examples/', FIXTURES);
  const examples: { typeName: string; file: string; value: unknown }[] = [];
  for (const typeName of readdirSync(root).sort()) {
    for (const file of readdirSync(new URL(`${typeName}/`, root)).sort()) {
      if (!file.endsWith('.json')) continue;
      const value: unknown = JSON.parse(readFileSync(new URL(`${typeName}/${file}`, root), 'utf8'));
      examples.push({ typeName, file, value });
    }
  }
  return examples;
}
