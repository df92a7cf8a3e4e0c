/** Whether `value` is a JSON object as it arrives on the wire (not null, not an array): params, results, `_meta`. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
