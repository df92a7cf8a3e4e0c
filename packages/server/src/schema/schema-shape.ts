// A raw shape — an object whose values are all Standard Schemas, `{ city: z.string() }` — is what most existing MCP
// servers pass as `inputSchema` (the official SDK's v1 form). It is accepted as the object of those properties, with no
// schema library imported: each value converts and validates itself through Standard Schema / Standard JSON Schema.
import type { StandardSchemaV1 } from '@standard-schema/spec';

/** An object whose values are Standard Schemas: `{ city: z.string(), days: z.number().optional() }`. */
export type StandardSchemaShape = { readonly [key: string]: StandardSchemaV1 };

/** A property is optional when its schema accepts `undefined` (`.optional()`, `.default(…)`); required otherwise. */
export type InferShape<S extends StandardSchemaShape> = {
  -readonly [K in keyof S as undefined extends StandardSchemaV1.InferOutput<S[K]>
    ? never
    : K]: StandardSchemaV1.InferOutput<S[K]>;
} & {
  -readonly [K in keyof S as undefined extends StandardSchemaV1.InferOutput<S[K]>
    ? K
    : never]?: StandardSchemaV1.InferOutput<S[K]>;
} extends infer T
  ? { [K in keyof T]: T[K] }
  : never;

/** What a compiled property brings: its JSON Schema, and its validator. */
export interface ShapeProperty {
  jsonSchema: Record<string, unknown>;
  validate: StandardSchemaV1['~standard']['validate'];
}

/** Whether `value` carries the Standard Schema interface (`~standard.validate`). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const standard = (value as { '~standard'?: { validate?: unknown } } | null)?.['~standard'];
  return typeof standard === 'object' && standard !== null && typeof standard.validate === 'function';
}

/** Whether `value` is a raw shape: a plain, non-empty object whose every value is a Standard Schema. */
export function isStandardSchemaShape(value: unknown): value is StandardSchemaShape {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || isStandardSchema(value)) return false;
  const values = Object.values(value);
  return values.length > 0 && values.every(isStandardSchema);
}

/** Whether a property's schema accepts a missing value, decided once at registration (an async answer: required). */
export function acceptsUndefined(schema: StandardSchemaV1): boolean {
  const result = schema['~standard'].validate(undefined);
  if (result instanceof Promise) {
    result.catch(() => {});
    return false;
  }
  return result.issues === undefined;
}

/**
 * The JSON Schema of a shape: an object with these properties, `required` for those that do not accept `undefined`.
 * `$defs` of the properties are lifted to the root, where their `#/$defs/…` references point.
 */
export function shapeJsonSchema(
  properties: Record<string, ShapeProperty>,
  required: readonly string[],
): Record<string, unknown> {
  const wire: Record<string, unknown> = {};
  const defs: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(properties)) {
    const { $schema: _dialect, $defs, ...rest } = property.jsonSchema;
    wire[key] = rest;
    for (const [name, definition] of Object.entries(($defs ?? {}) as Record<string, unknown>)) {
      if (Object.hasOwn(defs, name) && JSON.stringify(defs[name]) !== JSON.stringify(definition)) {
        throw new TypeError(`two properties define a different "$defs/${name}"; wrap the shape in an object schema`);
      }
      defs[name] = definition;
    }
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: wire,
    ...(required.length > 0 ? { required } : {}),
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}
