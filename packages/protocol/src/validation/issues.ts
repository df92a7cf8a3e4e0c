/**
 * What went wrong, in a form a program can branch on (`code`) and a person can act on (`path`, `message`).
 *
 * - `invalid_type`: the JSON type is wrong (`expected string, got number`).
 * - `missing_key`: a required key is absent; `path` points at the missing key.
 * - `unknown_key`: a key is present where the schema forbids extra keys.
 * - `invalid_value`: right type, wrong value (const, enum, integer, minimum/maximum, array length, a rule).
 * - `no_match`: a value matches none of the alternatives of a union.
 * - `unknown_method`: the method does not exist in this revision (in that direction); the caller decides the answer
 *   (usually JSON-RPC -32601).
 * - `unknown_type`: `byType` was asked for a type this revision does not define.
 */
export type ValidationIssueCode =
  | 'invalid_type'
  | 'missing_key'
  | 'unknown_key'
  | 'invalid_value'
  | 'no_match'
  | 'unknown_method'
  | 'unknown_type';

/** One problem found in a value. `path` is a JSONPath into the validated value (`$.params.content[0].type`). */
export interface ValidationIssue {
  readonly path: string;
  readonly code: ValidationIssueCode;
  readonly message: string;
}

/** The outcome of a validation: `{ ok: true }` (a shared, frozen object) or the issues found. */
export type ValidationResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

/** The single success value: valid messages allocate nothing. */
export const VALID: { readonly ok: true } = Object.freeze({ ok: true as const });

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The path of `key` inside the object at `path`: `$.a.b`, or `$.a["io.modelcontextprotocol/x"]` when not an identifier. */
export function keyPath(path: string, key: string): string {
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** The path of item `index` inside the array at `path`. */
export function indexPath(path: string, index: number): string {
  return `${path}[${index}]`;
}

/** A short, bounded rendering of a received value for messages: `"video"`, `1.5`, `null`, `array`, `object`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}…` : JSON.stringify(value);
    case 'number':
    case 'boolean':
      return String(value);
    case 'undefined':
      return 'nothing';
    default:
      return typeof value;
  }
}

/** The JSON type name of a value, as used in `expected X, got Y` messages. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
