/** A JSON object as it arrives on the wire: params, results, `_meta`, error data. */
export type JsonObject = Record<string, unknown>;

/**
 * Whether `value` is a JSON object: not `null`, not an array. The one check every package reads wire values with.
 *
 * @example
 * if (isJsonObject(message.params)) console.log(Object.keys(message.params));
 */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
