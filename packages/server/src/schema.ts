import { type Schema as CfSchema, type SchemaDraft, Validator } from '@cfworker/json-schema';
import { defineCodedError } from '@mcpkit/jsonrpc-core';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { findJsonSchemaProblem } from './json-schema-check';
import type { InferJsonSchema } from './json-schema-types';
import {
  acceptsUndefined,
  type InferShape,
  isStandardSchema,
  isStandardSchemaShape,
  type ShapeProperty,
  type StandardSchemaShape,
  shapeJsonSchema,
} from './schema-shape';

/** A plain JSON Schema object (draft-07 or 2020-12). */
export type JsonSchema = Readonly<Record<string, unknown>>;

/**
 * What `inputSchema`, `outputSchema` and prompt `argsSchema` accept: any Standard Schema that also implements the
 * Standard JSON Schema interface (zod 4.2+, arktype, valibot via `@valibot/to-json-schema`), a raw shape of them
 * (`{ city: z.string() }`, taken as the object of those properties), or a plain JSON Schema.
 */
export type SchemaInput = StandardSchemaV1 | StandardSchemaShape | JsonSchema;

/**
 * The value a handler receives for a schema: Standard Schema output, the object a raw shape describes, or what a plain
 * JSON Schema describes (see `InferJsonSchema`).
 */
export type InferSchema<S> = S extends StandardSchemaV1
  ? StandardSchemaV1.InferOutput<S>
  : S extends StandardSchemaShape
    ? InferShape<S>
    : InferJsonSchema<S>;

/**
 * The arguments a tool or prompt handler receives for its schema (an empty object without one). When nothing can be
 * inferred (a JSON Schema held in a variable typed `Record<string, unknown>`), they are `Record<string, unknown>`.
 */
export type ArgsOf<S> = S extends SchemaInput
  ? unknown extends InferSchema<S>
    ? Record<string, unknown>
    : InferSchema<S>
  : Record<string, never>;

/** One validation problem: where, and what. */
export interface SchemaIssue {
  /** A JSON-pointer-like path (`/items/0/name`); empty for the value itself. */
  path: string;
  message: string;
}

/** The outcome of validating one value. */
export type SchemaCheck = { ok: true; value: unknown } | { ok: false; issues: SchemaIssue[] };

/** A schema prepared once at registration: its wire form and its validator. */
export interface CompiledSchema {
  /** The JSON Schema sent to clients (`$schema`, `$defs`, `additionalProperties` untouched). */
  readonly jsonSchema: Record<string, unknown>;
  /** Validates a value; synchronous for JSON Schema, possibly asynchronous for Standard Schema. */
  validate(value: unknown): SchemaCheck | Promise<SchemaCheck>;
}

/** Thrown at registration for a schema the server cannot use. */
export class SchemaError extends defineCodedError<'ERR_INVALID_SCHEMA'>('SchemaError', '@mcpkit/server/SchemaError') {
  constructor(message: string, data: Record<string, unknown> = {}) {
    super('ERR_INVALID_SCHEMA', message, data);
  }
}

function pathOf(path: StandardSchemaV1.Issue['path']): string {
  if (path === undefined || path.length === 0) return '';
  let out = '';
  for (const segment of path) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    out += `/${String(key)}`;
  }
  return out;
}

function fromStandardResult(result: StandardSchemaV1.Result<unknown>): SchemaCheck {
  if (result.issues === undefined) return { ok: true, value: result.value };
  return { ok: false, issues: result.issues.map((issue) => ({ path: pathOf(issue.path), message: issue.message })) };
}

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

function compileJsonSchema(schema: JsonSchema): CompiledSchema {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new SchemaError('A schema must be a Standard Schema or a JSON Schema object', { schema });
  }
  const draft = draftOf(schema);
  const problem = findJsonSchemaProblem(schema, draft === '4');
  if (problem !== undefined) {
    throw new SchemaError(`not a valid JSON Schema: at ${problem.path}, ${problem.message}`, { ...problem });
  }
  // The validator annotates the objects it is given; give it a copy so the caller's schema stays as it was.
  const copy = structuredClone(schema) as CfSchema;
  const validator = new Validator(copy, draft, true);
  assertNoExternalRefs((validator as unknown as { lookup: Record<string, unknown> }).lookup);
  return {
    jsonSchema: schema as Record<string, unknown>,
    validate(value) {
      const result = validator.validate(value);
      if (result.valid) return { ok: true, value };
      const issues: SchemaIssue[] = [];
      for (const error of result.errors) {
        issues.push({ path: error.instanceLocation.replace(/^#/, ''), message: error.error });
      }
      return { ok: false, issues };
    },
  };
}

function toJsonSchema(schema: StandardSchemaV1, role: 'input' | 'output'): Record<string, unknown> {
  const standard = schema['~standard'];
  const converter = (standard as Partial<StandardJSONSchemaV1.Props>).jsonSchema;
  if (converter === undefined || typeof converter[role] !== 'function') {
    throw new SchemaError(
      `This ${standard.vendor} schema cannot describe itself as JSON Schema (it lacks "~standard.jsonSchema"). Use a version that implements Standard JSON Schema (zod 4.2+, arktype 2.1.20+, valibot with @valibot/to-json-schema's toStandardJsonSchema), or pass a plain JSON Schema.`,
      { vendor: standard.vendor },
    );
  }
  try {
    return converter[role]({ target: 'draft-2020-12' });
  } catch (error) {
    throw new SchemaError(
      `The ${standard.vendor} schema could not be converted to JSON Schema: ${(error as Error).message}`,
      { vendor: standard.vendor },
    );
  }
}

function compileStandardSchema(schema: StandardSchemaV1, role: 'input' | 'output'): CompiledSchema {
  const validate = schema['~standard'].validate;
  return {
    jsonSchema: toJsonSchema(schema, role),
    validate(value) {
      const result = validate(value);
      return result instanceof Promise ? result.then(fromStandardResult) : fromStandardResult(result);
    },
  };
}

// A raw shape validates property by property, like the object schema it stands for: the handler gets the validated
// values of the declared properties only (defaults applied, unknown keys dropped).
function compileShape(shape: StandardSchemaShape, role: 'input' | 'output'): CompiledSchema {
  const properties: Record<string, ShapeProperty> = {};
  const required: string[] = [];
  for (const [key, schema] of Object.entries(shape)) {
    let jsonSchema: Record<string, unknown>;
    try {
      jsonSchema = toJsonSchema(schema, role);
    } catch (error) {
      const { message, data } = error as SchemaError;
      throw new SchemaError(`property "${key}": ${message}`, { ...data, property: key });
    }
    properties[key] = { jsonSchema, validate: schema['~standard'].validate };
    if (!acceptsUndefined(schema)) required.push(key);
  }
  let jsonSchema: Record<string, unknown>;
  try {
    jsonSchema = shapeJsonSchema(properties, required);
  } catch (error) {
    throw new SchemaError((error as Error).message, {});
  }
  const entries = Object.entries(properties);
  return {
    jsonSchema,
    validate(value) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return { ok: false, issues: [{ path: '', message: 'Expected an object' }] };
      }
      const input = value as Record<string, unknown>;
      const output: Record<string, unknown> = {};
      const issues: SchemaIssue[] = [];
      const pending: Promise<void>[] = [];
      const settle = (key: string, result: StandardSchemaV1.Result<unknown>) => {
        if (result.issues !== undefined) {
          for (const issue of result.issues) {
            const rest = pathOf(issue.path);
            issues.push({ path: `/${key}${rest}`, message: issue.message });
          }
        } else if (result.value !== undefined || Object.hasOwn(input, key)) {
          output[key] = result.value;
        }
      };
      for (const [key, property] of entries) {
        const result = property.validate(Object.hasOwn(input, key) ? input[key] : undefined);
        if (result instanceof Promise) pending.push(result.then((settled) => settle(key, settled)));
        else settle(key, result);
      }
      const done = (): SchemaCheck => (issues.length > 0 ? { ok: false, issues } : { ok: true, value: output });
      return pending.length > 0 ? Promise.all(pending).then(done) : done();
    },
  };
}

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
  try {
    if (isStandardSchema(schema)) return compileStandardSchema(schema, role);
    if (isStandardSchemaShape(schema)) return compileShape(schema, role);
    return compileJsonSchema(schema as JsonSchema);
  } catch (error) {
    if (owner === undefined || !SchemaError.is(error)) throw error;
    throw new SchemaError(`${owner}: ${error.message}`, { ...(error.data as Record<string, unknown>), schema: owner });
  }
}

/** Formats issues for people: one line per issue, with its path. */
export function formatIssues(issues: readonly SchemaIssue[]): string {
  return issues.map((issue) => (issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`)).join('\n');
}
