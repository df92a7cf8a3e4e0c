import { isJsonObject } from '@mcpkit/jsonrpc-core';
import { describeValue, indexPath, jsonTypeOf, keyPath, type ValidationIssue } from './issues.js';

// A tiny validator combinator kit. Every validator is a pair of closures built once:
// - `check` is the hot path: true/false, no allocation, stops at the first failure;
// - `explain` runs only after `check` said no, walks the whole value and appends issues with their JSON path.
// JSON Schema semantics are followed where the MCP schemas use them: objects are open unless closed, a key whose value
// is `undefined` counts as absent (like ajv), `integer` is a number with no fraction, `format` is not checked.

/** Bit set of the JSON types a validator can accept; lets unions skip branches that cannot match. */
const NULL = 1;
const BOOLEAN = 2;
const NUMBER = 4;
const STRING = 8;
/** @internal */
export const ARRAY = 16;
/** @internal */
export const OBJECT = 32;
/** @internal */
export const ANY = NULL | BOOLEAN | NUMBER | STRING | ARRAY | OBJECT;

/** A compiled validator. Build them with the functions of this module, once, at module load. */
export interface Validator {
  /** Fast path: `true` when `value` is valid. Never allocates. */
  readonly check: (value: unknown) => boolean;
  /** Slow path: appends what is wrong with `value` (at `path`) to `issues`. Appends nothing for a valid value. */
  readonly explain: (value: unknown, path: string, issues: ValidationIssue[]) => void;
  /** What the validator expects, for messages: `string`, `"text"`, `TextContent`, `string | integer`. */
  readonly expected: string;
  /** JSON types this validator can accept (bit set). */
  readonly kinds: number;
  /** Set on `literal` validators: the only accepted value (used to find union discriminators). */
  readonly literal?: string | number | boolean;
  /** Set on `object` validators: the declared keys (used by `extend` and to find union discriminators). */
  readonly fields?: ObjectFields;
  /** Set on `array` validators: the item validator. */
  readonly item?: Validator;
}

/** An object key that may be absent. */
export interface OptionalField {
  readonly optional: true;
  readonly validator: Validator;
}

/** The declared keys of an object: each a validator (required) or `optional(validator)`. */
export type Shape = Readonly<Record<string, Validator | OptionalField>>;

/** The declared keys of a compiled object validator, with their required flag. */
export type ObjectFields = ReadonlyMap<string, { readonly validator: Validator; readonly required: boolean }>;

/**
 * What an object does with keys it does not declare: `'open'` (JSON Schema default: anything goes), `'closed'`
 * (`additionalProperties: false`) or a validator every extra value must pass (`additionalProperties: {schema}`).
 */
export type ExtraKeys = 'open' | 'closed' | Validator;

export interface ObjectOptions {
  /** Name used in messages (`expected TextContent`). */
  readonly name?: string;
  readonly extra?: ExtraKeys;
}

/** An object validator, which remembers its shape so that revisions can derive from it with `extend`. */
export interface ObjectValidator extends Validator {
  readonly fields: ObjectFields;
  readonly shape: Shape;
  readonly extra: ExtraKeys;
}

/** @internal The JSON kind bit of a value (see the constants above). */
export function kindOf(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return STRING;
    case 'number':
      return NUMBER;
    case 'boolean':
      return BOOLEAN;
    case 'object':
      return value === null ? NULL : Array.isArray(value) ? ARRAY : OBJECT;
    default:
      return 0;
  }
}

/** @internal */
export function typeIssue(path: string, expected: string, value: unknown): ValidationIssue {
  return { path, code: 'invalid_type', message: `expected ${expected}, got ${jsonTypeOf(value)}` };
}

function primitive(expected: string, kinds: number, check: (value: unknown) => boolean): Validator {
  return {
    check,
    expected,
    kinds,
    explain: (value, path, issues) => {
      if (!check(value)) issues.push(typeIssue(path, expected, value));
    },
  };
}

const STRING_VALIDATOR = primitive('string', STRING, (value) => typeof value === 'string');
const BOOLEAN_VALIDATOR = primitive('boolean', BOOLEAN, (value) => typeof value === 'boolean');
const NULL_VALIDATOR = primitive('null', NULL, (value) => value === null);
const UNKNOWN_VALIDATOR: Validator = { check: () => true, explain: () => {}, expected: 'any value', kinds: ANY };

/**
 * A string. `format` keywords of the schemas (uri, byte, date-time…) are deliberately not checked at runtime.
 * @example string().check('hi') // true
 */
export function string(): Validator {
  return STRING_VALIDATOR;
}

/** A boolean. */
export function boolean(): Validator {
  return BOOLEAN_VALIDATOR;
}

/** JSON `null` (only used inside unions, e.g. `integer | null`). */
export function nullValue(): Validator {
  return NULL_VALIDATOR;
}

/** Any value at all (JSON Schema `{}`). */
export function unknown(): Validator {
  return UNKNOWN_VALIDATOR;
}

export interface NumberOptions {
  /** Inclusive lower bound (JSON Schema `minimum`). */
  readonly minimum?: number;
  /** Inclusive upper bound (JSON Schema `maximum`). */
  readonly maximum?: number;
}

function numeric(integerOnly: boolean, options: NumberOptions): Validator {
  const expected = integerOnly ? 'integer' : 'number';
  const min = options.minimum ?? Number.NEGATIVE_INFINITY;
  const max = options.maximum ?? Number.POSITIVE_INFINITY;
  const isType = integerOnly
    ? (value: unknown): value is number => Number.isInteger(value)
    : (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
  const check = (value: unknown): boolean => isType(value) && value >= min && value <= max;
  return {
    check,
    expected,
    kinds: NUMBER,
    explain: (value, path, issues) => {
      if (!isType(value)) issues.push(typeIssue(path, expected, value));
      else if (value < min) issues.push({ path, code: 'invalid_value', message: `expected ≥ ${min}, got ${value}` });
      else if (value > max) issues.push({ path, code: 'invalid_value', message: `expected ≤ ${max}, got ${value}` });
    },
  };
}

const NUMBER_VALIDATOR = numeric(false, {});
const INTEGER_VALIDATOR = numeric(true, {});

/** A finite number, optionally bounded. @example number({ minimum: 0, maximum: 1 }) */
export function number(options?: NumberOptions): Validator {
  return options === undefined ? NUMBER_VALIDATOR : numeric(false, options);
}

/** A number without fraction (JSON Schema `integer`), optionally bounded. @example integer({ minimum: 0 }) */
export function integer(options?: NumberOptions): Validator {
  return options === undefined ? INTEGER_VALIDATOR : numeric(true, options);
}

/** Exactly one value (JSON Schema `const`). @example literal('2.0') */
export function literal(value: string | number | boolean): Validator {
  const expected = JSON.stringify(value);
  const kinds = kindOf(value);
  return {
    check: (candidate) => candidate === value,
    expected,
    kinds,
    literal: value,
    explain: (candidate, path, issues) => {
      if (candidate === value) return;
      if (kindOf(candidate) !== kinds) issues.push(typeIssue(path, `${expected} (${typeof value})`, candidate));
      else
        issues.push({ path, code: 'invalid_value', message: `expected ${expected}, got ${describeValue(candidate)}` });
    },
  };
}

/** One of a few strings (JSON Schema `enum`). @example enumOf(['user', 'assistant']) */
export function enumOf(values: readonly string[]): Validator {
  const allowed = new Set<unknown>(values);
  const expected = values.map((value) => JSON.stringify(value)).join(' | ');
  return {
    check: (value) => allowed.has(value),
    expected,
    kinds: STRING,
    explain: (value, path, issues) => {
      if (allowed.has(value)) return;
      if (typeof value !== 'string') issues.push(typeIssue(path, 'string', value));
      else
        issues.push({
          path,
          code: 'invalid_value',
          message: `expected one of ${expected}, got ${describeValue(value)}`,
        });
    },
  };
}

/** Marks an object key as optional. @example object({ name: string(), title: optional(string()) }) */
export function optional(validator: Validator): OptionalField {
  return { optional: true, validator };
}

function isOptionalField(field: Validator | OptionalField): field is OptionalField {
  return 'optional' in field;
}

/**
 * A JSON object with declared keys. Extra keys are allowed unless `extra` says otherwise.
 * @example
 * const TextContent = object({ type: literal('text'), text: string() }, { name: 'TextContent' });
 * TextContent.check({ type: 'text', text: 'hi', extra: 1 }) // true
 */
export function object(shape: Shape, options: ObjectOptions = {}): ObjectValidator {
  const extra = options.extra ?? 'open';
  const expected = options.name ?? 'object';
  const fields = new Map<string, { validator: Validator; required: boolean }>();
  const requiredKeys: string[] = [];
  const requiredValidators: Validator[] = [];
  const optionalKeys: string[] = [];
  const optionalValidators: Validator[] = [];
  for (const [key, field] of Object.entries(shape)) {
    if (isOptionalField(field)) {
      fields.set(key, { validator: field.validator, required: false });
      optionalKeys.push(key);
      optionalValidators.push(field.validator);
    } else {
      fields.set(key, { validator: field, required: true });
      requiredKeys.push(key);
      requiredValidators.push(field);
    }
  }
  const closed = extra === 'closed';
  // `additionalProperties: {}` accepts anything: no need to visit the extra keys.
  const extraValidator = typeof extra === 'object' && extra !== UNKNOWN_VALIDATOR ? extra : undefined;
  const requiredCount = requiredKeys.length;
  const optionalCount = optionalKeys.length;
  // The hot loop calls these arrays of functions directly: loading `.check` from validator objects of many shapes
  // would be a megamorphic property access on every key.
  const requiredChecks = requiredValidators.map((validator) => validator.check);
  const allChecks = [...requiredChecks, ...optionalValidators.map((validator) => validator.check)];
  const extraCheck = extraValidator?.check;
  // Field name → index in `allChecks` (required ones first). Null prototype: "toString" & co. are not fields.
  const slots: Record<string, number> = Object.create(null);
  requiredKeys.forEach((key, index) => {
    slots[key] = index;
  });
  optionalKeys.forEach((key, index) => {
    slots[key] = requiredCount + index;
  });

  // Two strategies for the same verdict. When every declared key is required, look each one up. Otherwise walk the
  // keys the value has: looking up an absent optional key is a megamorphic miss (measured ~15 ns each), and most
  // optional keys are absent in real messages.
  const byRequiredKeys = (value: unknown): boolean => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const record = value as Record<string, unknown>;
    for (let index = 0; index < requiredCount; index++) {
      const item = record[requiredKeys[index]!];
      if (item === undefined || !requiredChecks[index]!(item)) return false;
    }
    if (closed) {
      for (const key in record) if (slots[key] === undefined) return false;
    } else if (extraCheck !== undefined) {
      for (const key in record) if (slots[key] === undefined && !extraCheck(record[key])) return false;
    }
    return true;
  };
  const byPresentKeys = (value: unknown): boolean => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const record = value as Record<string, unknown>;
    let requiredSeen = 0;
    for (const key in record) {
      const slot = slots[key];
      if (slot === undefined) {
        if (closed) return false;
        if (extraCheck !== undefined && !extraCheck(record[key])) return false;
        continue;
      }
      const item = record[key];
      if (item === undefined) continue;
      if (!allChecks[slot]!(item)) return false;
      if (slot < requiredCount) requiredSeen++;
    }
    return requiredSeen === requiredCount;
  };
  const check =
    requiredCount === 0 && optionalCount === 0 && !closed && extraCheck === undefined
      ? isJsonObject
      : optionalCount > 0
        ? byPresentKeys
        : byRequiredKeys;

  const explain = (value: unknown, path: string, issues: ValidationIssue[]): void => {
    if (!isJsonObject(value)) {
      issues.push(typeIssue(path, expected, value));
      return;
    }
    for (let index = 0; index < requiredCount; index++) {
      const key = requiredKeys[index]!;
      const validator = requiredValidators[index]!;
      const item = value[key];
      if (item === undefined) {
        issues.push({
          path: keyPath(path, key),
          code: 'missing_key',
          message: `missing required key "${key}" (${validator.expected})`,
        });
      } else if (!validator.check(item)) {
        validator.explain(item, keyPath(path, key), issues);
      }
    }
    for (let index = 0; index < optionalCount; index++) {
      const validator = optionalValidators[index]!;
      const item = value[optionalKeys[index]!];
      if (item !== undefined && !validator.check(item))
        validator.explain(item, keyPath(path, optionalKeys[index]!), issues);
    }
    if (closed) {
      for (const key in value) {
        if (!fields.has(key)) {
          issues.push({
            path: keyPath(path, key),
            code: 'unknown_key',
            message: `unknown key "${key}" in ${expected}`,
          });
        }
      }
    } else if (extraValidator !== undefined) {
      for (const key in value) {
        const item = value[key];
        if (!fields.has(key) && !extraValidator.check(item)) extraValidator.explain(item, keyPath(path, key), issues);
      }
    }
  };

  return { check, explain, expected, kinds: OBJECT, fields, shape, extra };
}

/**
 * A new object validator with the keys of `base` plus (or replaced by) those of `shape`.
 * @example const Resource2 = extend(Resource, { title: optional(string()) }, { name: 'Resource' });
 */
export function extend(base: ObjectValidator, shape: Shape, options: ObjectOptions = {}): ObjectValidator {
  return object(
    { ...base.shape, ...shape },
    { name: options.name ?? base.expected, extra: options.extra ?? base.extra },
  );
}

/** A new object validator without the given keys of `base`. */
export function omit(base: ObjectValidator, keys: readonly string[], options: ObjectOptions = {}): ObjectValidator {
  const shape: Record<string, Validator | OptionalField> = { ...base.shape };
  for (const key of keys) delete shape[key];
  return object(shape, { name: options.name ?? base.expected, extra: options.extra ?? base.extra });
}

/** An object whose every value passes `value` (JSON Schema `additionalProperties: {schema}` with no properties). */
export function record(value: Validator, options: { readonly name?: string } = {}): ObjectValidator {
  return object({}, { name: options.name, extra: value });
}

export interface ArrayOptions {
  /** Name used in messages (`expected JSONRPCBatchRequest`). */
  readonly name?: string;
  readonly minItems?: number;
  readonly maxItems?: number;
}

/** An array whose items all pass `item`. @example array(string(), { maxItems: 100 }) */
export function array(item: Validator, options: ArrayOptions = {}): Validator {
  const min = options.minItems ?? 0;
  const max = options.maxItems ?? Number.POSITIVE_INFINITY;
  const expected = options.name ?? `array of ${item.expected}`;
  const anyItem = item === UNKNOWN_VALIDATOR;
  const itemCheck = item.check;
  const check = (value: unknown): boolean => {
    if (!Array.isArray(value) || value.length < min || value.length > max) return false;
    if (anyItem) return true;
    for (let index = 0; index < value.length; index++) if (!itemCheck(value[index])) return false;
    return true;
  };
  const explain = (value: unknown, path: string, issues: ValidationIssue[]): void => {
    if (!Array.isArray(value)) {
      issues.push(typeIssue(path, expected, value));
      return;
    }
    if (value.length < min) {
      issues.push({ path, code: 'invalid_value', message: `expected at least ${min} items, got ${value.length}` });
    }
    if (value.length > max) {
      issues.push({ path, code: 'invalid_value', message: `expected at most ${max} items, got ${value.length}` });
    }
    for (let index = 0; index < value.length; index++) {
      if (!item.check(value[index])) item.explain(value[index], indexPath(path, index), issues);
    }
  };
  return { check, explain, expected, kinds: ARRAY, item };
}
