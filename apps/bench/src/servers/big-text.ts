// The `big` tool's payload (issue 7 metric 7: a small request, a 10 MB text result). The text is built once per size
// and reused, so a call measures moving the result, not `String.prototype.repeat`. Every server uses this module.

/** Input schema of `big`: `{bytes}`, an integer between 0 and 64 MiB. */
export const BIG_INPUT_SCHEMA = {
  type: 'object',
  properties: { bytes: { type: 'integer', minimum: 0, maximum: 67_108_864 } },
  required: ['bytes'],
} as const;

let cached = '';

/** `bytes` ASCII characters (so as many bytes in UTF-8), the same string for repeated calls with one size. */
export function bigText(bytes: number): string {
  if (cached.length !== bytes) cached = 'x'.repeat(bytes);
  return cached;
}
