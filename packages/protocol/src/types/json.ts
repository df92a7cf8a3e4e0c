/**
 * Any JSON value, as the 2026-07-28 schema's `JSONValue` (older revisions used `{}` / `object` for the same role).
 *
 * @example
 * ```ts
 * const value: JSONValue = { units: 'metric', days: [1, 2, 3], verbose: false };
 * ```
 */
export type JSONValue = string | number | boolean | null | JSONObject | JSONArray;

/** A JSON object: string keys, JSON values (`JSONObject` in the 2026-07-28 schema). */
export interface JSONObject {
  [key: string]: JSONValue;
}

/** A JSON array (`JSONArray` in the 2026-07-28 schema). */
export type JSONArray = JSONValue[];

/**
 * An object-shaped JSON Schema (a subschema or a root schema). Boolean schemas (`true` / `false`) are typed
 * separately where the dialect allows them.
 */
export interface JSONSchemaObject {
  $schema?: string;
  type?: string | string[];
  properties?: { [name: string]: JSONSchemaObject | boolean };
  required?: string[];
  [keyword: string]: unknown;
}
