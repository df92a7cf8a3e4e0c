// Plain JSON Schema support: `@cfworker/json-schema` compiled for the schema's declared dialect, after the schema
// itself was checked against the rules of its meta-schema. A module of its own so that a server registering only
// Standard Schemas (zod, valibot, arktype) does not bundle the validator (about 25 KiB minified).
import { type Schema as CfSchema, type SchemaDraft, Validator } from '@cfworker/json-schema';
import {
  type CompiledSchema,
  compileSchemaWith,
  type JsonSchema,
  type JsonSchemaCompiler,
  SchemaError,
  type SchemaInput,
  type SchemaIssue,
} from '../schema/schema';
import { findJsonSchemaProblem } from './json-schema-check';
import { fastCheck } from './json-schema-fast';

const DRAFTS: Record<string, SchemaDraft> = {
  'http://json-schema.org/draft-04/schema': '4',
  'http://json-schema.org/draft-07/schema': '7',
  'https://json-schema.org/draft/2019-09/schema': '2019-09',
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
};

function draftOf(schema: JsonSchema): SchemaDraft {
  const declared = schema.$schema;
  if (declared === undefined) return '2020-12';
  const normalised = typeof declared === 'string' ? declared.replace(/#$/, '').replace(/^https?:/, '') : undefined;
  for (const [uri, draft] of Object.entries(DRAFTS)) {
    if (uri.replace(/^https?:/, '') === normalised) return draft;
  }
  throw new SchemaError(
    `Unsupported JSON Schema dialect ${JSON.stringify(declared)}; use draft-07 or 2020-12 (the default when $schema is absent)`,
    { $schema: declared },
  );
}

// Every $ref must resolve inside the schema itself: the server never fetches a network $ref (SEP-2106), so one that
// points at another document would fail at call time. Reject it now instead.
function assertNoExternalRefs(lookup: Record<string, unknown>): void {
  const documents = new Set(Object.keys(lookup).map((uri) => uri.split('#')[0]));
  for (const node of Object.values(lookup)) {
    const target = (node as { __absolute_ref__?: string } | null)?.__absolute_ref__;
    if (target === undefined) continue;
    if (!documents.has(target.split('#')[0])) {
      throw new SchemaError(
        `The schema refers to ${JSON.stringify((node as { $ref?: string }).$ref)}, outside itself; external $refs are never fetched. Inline it under $defs.`,
        { $ref: (node as { $ref?: string }).$ref },
      );
    }
  }
}

/**
 * The JSON Schema compiler `McpServer` uses (`@cfworker/json-schema`; draft-04, -07, 2019-09 and 2020-12, the last
 * when `$schema` is absent). Give it to a lean server that registers plain JSON Schemas.
 *
 * @example
 * const server = new McpToolServer({ name: 'calc', version: '1.0.0' }, { jsonSchema: jsonSchemaCompiler });
 */
export const jsonSchemaCompiler: JsonSchemaCompiler = (schema: JsonSchema): CompiledSchema => {
  const draft = draftOf(schema);
  const problem = findJsonSchemaProblem(schema, draft === '4');
  if (problem !== undefined) {
    throw new SchemaError(`not a valid JSON Schema: at ${problem.path}, ${problem.message}`, { ...problem });
  }
  // The validator annotates the objects it is given; give it a copy so the caller's schema stays as it was.
  const copy = structuredClone(schema) as CfSchema;
  const validator = new Validator(copy, draft, true);
  assertNoExternalRefs((validator as unknown as { lookup: Record<string, unknown> }).lookup);
  // Simple schemas accept valid values without cfworker (see json-schema-fast.ts); refusals always go through it.
  const accepts = fastCheck(schema);
  return {
    jsonSchema: schema as Record<string, unknown>,
    validate(value) {
      if (accepts?.(value) === true) return { ok: true, value };
      const result = validator.validate(value);
      if (result.valid) return { ok: true, value };
      const issues: SchemaIssue[] = [];
      for (const error of result.errors) {
        issues.push({ path: error.instanceLocation.replace(/^#/, ''), message: error.error });
      }
      return { ok: false, issues };
    },
  };
};

/**
 * Prepares a schema once, at registration: its wire JSON Schema and a validator (a Standard Schema's own, each
 * property's for a raw shape, or `@cfworker/json-schema` compiled for the declared dialect, after the schema itself
 * was checked against the rules of its meta-schema). `owner` names the schema in errors (`Tool "forecast"
 * inputSchema`): a `SchemaError` says which schema, which keyword, and where.
 *
 * @example
 * const compiled = compileSchema({ type: 'object', properties: { n: { type: 'number' } } }, 'input');
 * compiled.validate({ n: 'x' }); // { ok: false, issues: [...] }
 * compileSchema({ type: 'strin' }, 'input', 'Tool "echo" inputSchema');
 * // throws SchemaError: Tool "echo" inputSchema: not a valid JSON Schema: at /type, "type" must be one of …
 */
export function compileSchema(schema: SchemaInput, role: 'input' | 'output', owner?: string): CompiledSchema {
  return compileSchemaWith(schema, role, owner, jsonSchemaCompiler);
}
