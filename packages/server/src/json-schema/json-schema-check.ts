// Checks a plain JSON Schema against the rules of its meta-schema at registration, so an author's typo
// (`type: 'strin'`, `properties: 5`) is reported then, naming the keyword and where it is, instead of surfacing on
// every call as the caller's fault. This is the part of the meta-schemas (draft-04 … 2020-12) that constrains the
// keywords a validator reads: what kind of value each takes. Unknown keywords pass, as the meta-schemas allow.
//
// Why not a validator run against the official meta-schema documents: @cfworker/json-schema (already bundled) does not
// implement 2020-12's `$dynamicRef`, which its meta-schema uses; ajv does but generates code (`new Function`, banned in
// Workers and under strict CSP) and weighs ~120 KB; and both answer a typo with "does not match anyOf" rather than the
// keyword and the values it accepts. This table is about 3 KB minified on the tools-only path.
import { isJsonObject } from '@mcpkit/jsonrpc-core';

/** One problem found in a schema: the JSON pointer of the keyword, and what is wrong with its value. */
export interface JsonSchemaProblem {
  /** JSON pointer of the offending keyword inside the schema, e.g. `/properties/city/type`. */
  path: string;
  /** The keyword, e.g. `type`. */
  keyword: string;
  /** What the keyword takes, for people. */
  message: string;
}

const TYPE_NAMES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'];

type Rule =
  | 'schema'
  | 'schemas'
  | 'schemaMap'
  | 'schemaOrList'
  | 'type'
  | 'strings'
  | 'count'
  | 'number'
  | 'positive'
  | 'boolean'
  | 'string'
  | 'regex'
  | 'array'
  | 'dependencies';

// Keywords by the kind of value they take (grouped in strings: the table is on every server's load path).
const KEYWORDS: Record<Rule, string> = {
  type: 'type',
  schemaMap: 'properties patternProperties dependentSchemas $defs definitions',
  schema:
    'additionalProperties unevaluatedProperties propertyNames additionalItems unevaluatedItems contains not if then else',
  schemaOrList: 'items',
  schemas: 'prefixItems allOf anyOf oneOf',
  strings: 'required',
  array: 'enum',
  dependencies: 'dependencies dependentRequired',
  count: 'minLength maxLength minItems maxItems minProperties maxProperties minContains maxContains',
  number: 'minimum maximum exclusiveMinimum exclusiveMaximum',
  positive: 'multipleOf',
  boolean: 'uniqueItems',
  regex: 'pattern',
  string: 'format title description $ref $id $anchor $comment',
};
const RULES = new Map<string, Rule>();
for (const [rule, keywords] of Object.entries(KEYWORDS)) {
  for (const keyword of keywords.split(' ')) RULES.set(keyword, rule as Rule);
}

const EXPECTED: Record<Rule, string> = {
  schema: 'a schema (an object or a boolean)',
  schemas: 'a non-empty array of schemas',
  schemaMap: 'an object whose values are schemas',
  schemaOrList: 'a schema, or an array of schemas',
  type: `one of ${TYPE_NAMES.map((name) => `"${name}"`).join(', ')}, or an array of them`,
  strings: 'an array of unique strings',
  count: 'a non-negative integer',
  number: 'a number',
  positive: 'a number greater than 0',
  boolean: 'true or false',
  string: 'a string',
  regex: 'a valid regular expression',
  array: 'an array',
  dependencies: 'an object whose values are arrays of strings or schemas',
};

const isSchema = (value: unknown) => isJsonObject(value) || typeof value === 'boolean';
const isStrings = (value: unknown) =>
  Array.isArray(value) && value.every((item) => typeof item === 'string') && new Set(value).size === value.length;

function valid(rule: Rule, value: unknown, draft4: boolean): boolean {
  switch (rule) {
    case 'schema':
      return isSchema(value);
    case 'schemas':
      return Array.isArray(value) && value.length > 0 && value.every(isSchema);
    case 'schemaMap':
      return isJsonObject(value) && Object.values(value).every(isSchema);
    case 'schemaOrList':
      return isSchema(value) || (Array.isArray(value) && value.every(isSchema));
    case 'type':
      return typeof value === 'string'
        ? TYPE_NAMES.includes(value)
        : isStrings(value) && (value as string[]).every((name) => TYPE_NAMES.includes(name));
    case 'strings':
      return isStrings(value);
    case 'count':
      return Number.isInteger(value) && (value as number) >= 0;
    case 'number':
      // draft-04's exclusiveMinimum/exclusiveMaximum are booleans.
      return typeof value === 'number' || (draft4 && typeof value === 'boolean');
    case 'positive':
      return typeof value === 'number' && value > 0;
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
    case 'regex':
      if (typeof value !== 'string') return false;
      try {
        new RegExp(value, 'u');
        return true;
      } catch {
        return false;
      }
    case 'array':
      return Array.isArray(value);
    case 'dependencies':
      return isJsonObject(value) && Object.values(value).every((item) => isStrings(item) || isSchema(item));
  }
}

const pointerToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Keywords whose value holds subschemas to walk into, and how. */
function* subschemas(schema: Record<string, unknown>, path: string): Generator<[unknown, string]> {
  for (const [keyword, value] of Object.entries(schema)) {
    const rule = RULES.get(keyword);
    const at = `${path}/${pointerToken(keyword)}`;
    if (rule === 'schema' || (rule === 'schemaOrList' && !Array.isArray(value))) yield [value, at];
    else if (rule === 'schemas' || rule === 'schemaOrList') {
      for (const [index, item] of (value as unknown[]).entries()) yield [item, `${at}/${index}`];
    } else if (rule === 'schemaMap' || rule === 'dependencies') {
      for (const [key, item] of Object.entries(value as object)) {
        if (isJsonObject(item)) yield [item, `${at}/${pointerToken(key)}`];
      }
    }
  }
}

/**
 * The first problem in `schema` by the rules of the JSON Schema meta-schemas, or `undefined` when there is none.
 *
 * @example
 * findJsonSchemaProblem({ type: 'object', properties: { city: { type: 'strin' } } });
 * // { path: '/properties/city/type', keyword: 'type', message: '... got "strin"' }
 */
export function findJsonSchemaProblem(schema: unknown, draft4 = false): JsonSchemaProblem | undefined {
  // Bounded by the schema itself: a schema is a tree (JSON), so the walk ends; `seen` guards against shared objects.
  const seen = new Set<object>();
  const stack: Array<[unknown, string]> = [[schema, '']];
  while (stack.length > 0) {
    const [node, path] = stack.pop()!;
    if (!isJsonObject(node) || seen.has(node)) continue;
    seen.add(node);
    for (const [keyword, value] of Object.entries(node)) {
      const rule = RULES.get(keyword);
      if (rule !== undefined && !valid(rule, value, draft4)) {
        return {
          path: `${path}/${pointerToken(keyword)}`,
          keyword,
          message: `"${keyword}" must be ${EXPECTED[rule]}; got ${JSON.stringify(value) ?? String(value)}`,
        };
      }
    }
    stack.push(...subschemas(node, path));
  }
  return undefined;
}
