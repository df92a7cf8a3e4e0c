// A fast accept for the simplest JSON Schemas, in front of @cfworker/json-schema. Most tool inputs are an object of a
// few typed properties; cfworker builds a JSON pointer for every property it visits, valid or not, which made it the
// largest cost of a `tools/call` on the server. For a schema made only of the keywords below, a value is accepted
// here by a check that mirrors theirs; anything this check refuses (and every schema with another keyword) still goes
// through cfworker, which decides and names the issues. So this can only say "valid" where cfworker would.

import { isJsonObject as isObject } from '@mcpkit/jsonrpc-core';

type Check = (value: unknown) => boolean;

/** Keywords that constrain nothing (annotations), and so need no check. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  'title',
  'description',
  'default',
  'examples',
  'deprecated',
]);

const TYPES: Record<string, Check> = {
  object: isObject,
  array: Array.isArray,
  string: (value) => typeof value === 'string',
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  integer: (value) => typeof value === 'number' && Number.isInteger(value),
  boolean: (value) => typeof value === 'boolean',
  null: (value) => value === null,
};

/**
 * A check that accepts exactly what the schema accepts, when the schema uses only `type` (one name), `properties`,
 * `required`, `additionalProperties` (a boolean), `items` (one schema), `enum` (of strings, numbers, booleans, null),
 * `minimum` / `maximum` and annotations, with boolean subschemas. `undefined` for any other schema.
 */
export function fastCheck(schema: unknown): Check | undefined {
  if (schema === true) return () => true;
  if (schema === false) return () => false;
  if (!isObject(schema)) return undefined;
  const checks: Check[] = [];
  let properties: [string, Check][] | undefined;
  let closed = false;
  for (const [keyword, argument] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword)) continue;
    switch (keyword) {
      case 'type': {
        const check = typeof argument === 'string' ? TYPES[argument] : undefined;
        if (check === undefined) return undefined;
        checks.push(check);
        break;
      }
      case 'properties': {
        if (!isObject(argument)) return undefined;
        properties = [];
        for (const [name, subschema] of Object.entries(argument)) {
          const check = fastCheck(subschema);
          if (check === undefined) return undefined;
          properties.push([name, check]);
        }
        const list = properties;
        checks.push((value) => {
          if (!isObject(value)) return true;
          for (const [name, check] of list) if (Object.hasOwn(value, name) && !check(value[name])) return false;
          return true;
        });
        break;
      }
      case 'required': {
        if (!Array.isArray(argument) || !argument.every((name) => typeof name === 'string')) return undefined;
        const names = argument as string[];
        checks.push((value) => !isObject(value) || names.every((name) => Object.hasOwn(value, name)));
        break;
      }
      case 'additionalProperties':
        if (argument === true) break;
        if (argument !== false) return undefined;
        closed = true;
        break;
      case 'items': {
        const check = fastCheck(argument);
        if (check === undefined) return undefined;
        checks.push((value) => !Array.isArray(value) || value.every(check));
        break;
      }
      case 'enum': {
        if (!Array.isArray(argument) || !argument.every((entry) => entry === null || typeof entry !== 'object')) {
          return undefined;
        }
        const allowed = argument as unknown[];
        checks.push((value) => allowed.includes(value));
        break;
      }
      case 'minimum':
      case 'maximum': {
        if (typeof argument !== 'number') return undefined;
        const bound = argument;
        checks.push(
          keyword === 'minimum'
            ? (value) => typeof value !== 'number' || value >= bound
            : (value) => typeof value !== 'number' || value <= bound,
        );
        break;
      }
      default:
        return undefined;
    }
  }
  if (closed) {
    const declared = new Set((properties ?? []).map(([name]) => name));
    checks.push((value) => !isObject(value) || Object.keys(value).every((key) => declared.has(key)));
  }
  if (checks.length === 1) return checks[0];
  return (value) => {
    for (const check of checks) if (!check(value)) return false;
    return true;
  };
}
