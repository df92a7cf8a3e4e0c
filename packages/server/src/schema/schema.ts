import { defineCodedError } from '@mcpkit/jsonrpc-core';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { InferJsonSchema } from '../json-schema/json-schema-types';
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

function toJsonSchema(schema: StandardSchemaV1, role: 'input' | 'output'): Record<string, unknown> {
  const standard = schema['~standard'];
  const converter = (standard as Partial<StandardJSONSchemaV1.Props>).jsonSchema;
  if (converter === undefined || typeof converter[role] !== 'function') {
    throw new SchemaError(
      `This ${standard.vendor} schema cannot describe itself as JSON Schema (no "~standard.jsonSchema"): use a version with Standard JSON Schema (zod 4.2+, arktype 2.1.20+, valibot via @valibot/to-json-schema's toStandardJsonSchema), or a plain JSON Schema.`,
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
    // Runs per call: no closure, issue list or promise list unless a property needs one (an async validator, an issue).
    validate(value) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return { ok: false, issues: [{ path: '', message: 'Expected an object' }] };
      }
      const input = value as Record<string, unknown>;
      const output: Record<string, unknown> = {};
      let issues: SchemaIssue[] | undefined;
      let pending: Promise<void>[] | undefined;
      for (const [key, property] of entries) {
        const present = Object.hasOwn(input, key);
        const result = property.validate(present ? input[key] : undefined);
        if (result instanceof Promise) {
          pending ??= [];
          pending.push(
            result.then((settled) => {
              issues = settleProperty(key, present, settled, output, issues);
            }),
          );
        } else {
          issues = settleProperty(key, present, result, output, issues);
        }
      }
      if (pending === undefined) return shapeVerdict(output, issues);
      return Promise.all(pending).then(() => shapeVerdict(output, issues));
    },
  };
}

/** Puts one property's validated value into `output`, or its issues into `issues` (created on the first). */
function settleProperty(
  key: string,
  present: boolean,
  result: StandardSchemaV1.Result<unknown>,
  output: Record<string, unknown>,
  issues: SchemaIssue[] | undefined,
): SchemaIssue[] | undefined {
  if (result.issues !== undefined) {
    const list = issues ?? [];
    for (const issue of result.issues) list.push({ path: `/${key}${pathOf(issue.path)}`, message: issue.message });
    return list;
  }
  if (result.value !== undefined || present) output[key] = result.value;
  return issues;
}

function shapeVerdict(output: Record<string, unknown>, issues: SchemaIssue[] | undefined): SchemaCheck {
  return issues !== undefined && issues.length > 0 ? { ok: false, issues } : { ok: true, value: output };
}

/**
 * Prepares a plain JSON Schema once: checks it, and returns its wire form and a validator. `jsonSchemaCompiler` (the
 * `@cfworker/json-schema` one) is the implementation `McpServer` uses; a lean server takes one through its
 * `jsonSchema` option only when it registers plain JSON Schemas, so Standard-Schema-only servers do not carry it.
 */
export type JsonSchemaCompiler = (schema: JsonSchema) => CompiledSchema;

/**
 * Prepares a schema with the given JSON Schema compiler (`undefined`: plain JSON Schemas are refused with a
 * `SchemaError` saying how to enable them). `owner` names the schema in errors.
 */
export function compileSchemaWith(
  schema: SchemaInput,
  role: 'input' | 'output',
  owner: string | undefined,
  jsonSchema: JsonSchemaCompiler | undefined,
): CompiledSchema {
  try {
    if (isStandardSchema(schema)) return compileStandardSchema(schema, role);
    if (isStandardSchemaShape(schema)) return compileShape(schema, role);
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
      throw new SchemaError('A schema must be a Standard Schema or a JSON Schema object', { schema });
    }
    if (jsonSchema === undefined) {
      throw new SchemaError(
        'A plain JSON Schema needs a validator this server lacks: pass { jsonSchema: jsonSchemaCompiler } (from @mcpkit/server) to McpToolServer, use McpServer, or use a Standard Schema (zod, valibot, arktype).',
        {},
      );
    }
    return jsonSchema(schema as JsonSchema);
  } catch (error) {
    if (owner === undefined || !SchemaError.is(error)) throw error;
    throw new SchemaError(`${owner}: ${error.message}`, { ...(error.data as Record<string, unknown>), schema: owner });
  }
}

/** Formats issues for people: one line per issue, with its path. */
export function formatIssues(issues: readonly SchemaIssue[]): string {
  return issues.map((issue) => (issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`)).join('\n');
}
