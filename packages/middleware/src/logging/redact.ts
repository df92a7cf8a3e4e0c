/** Field names whose values never reach a log, whatever their case: credentials and what usually carries them. */
export const DEFAULT_REDACTED_FIELDS: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'token',
  'access_token',
  'accessToken',
  'refresh_token',
  'refreshToken',
  'id_token',
  'client_secret',
  'clientSecret',
  'password',
  'secret',
  'api_key',
  'apiKey',
  'x-api-key',
  'requestState',
];

/** What a redacted value is replaced with. */
export const REDACTED = '[REDACTED]';

const MAX_DEPTH = 6;
const MAX_KEYS = 50;
const MAX_STRING = 1_000;
const BEARER = /\b(Bearer|Basic|DPoP)\s+[^\s"']+/gi;

/**
 * Makes a redactor: a copy of a value where every field named in `fields` (case-insensitive, at any depth) is
 * `[REDACTED]`, credentials in strings (`Bearer …`) are masked, and size is bounded (depth 6, 50 keys per object and
 * items per array, 1 000 characters per string), so a log line can neither leak a secret nor grow without bound.
 *
 * @example
 * const redact = createRedactor(['ssn']);
 * redact({ user: 'ada', ssn: '123', headers: { authorization: 'Bearer x' } });
 * // { user: 'ada', ssn: '[REDACTED]', headers: { authorization: '[REDACTED]' } }
 */
export function createRedactor(fields: readonly string[] = []): (value: unknown) => unknown {
  const hidden = new Set([...DEFAULT_REDACTED_FIELDS, ...fields].map((field) => field.toLowerCase()));
  const copy = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') {
      const masked = value.replace(BEARER, `$1 ${REDACTED}`);
      return masked.length > MAX_STRING ? `${masked.slice(0, MAX_STRING)}…` : masked;
    }
    if (value === null || typeof value !== 'object') return value;
    if (depth >= MAX_DEPTH) return '[…]';
    if (Array.isArray(value)) {
      const items = value.slice(0, MAX_KEYS).map((item) => copy(item, depth + 1));
      if (value.length > MAX_KEYS) items.push(`[${value.length - MAX_KEYS} more]`);
      return items;
    }
    const out: Record<string, unknown> = {};
    let count = 0;
    for (const key in value as Record<string, unknown>) {
      if (!Object.hasOwn(value, key)) continue;
      if (++count > MAX_KEYS) {
        out['…'] = 'more keys';
        break;
      }
      out[key] = hidden.has(key.toLowerCase()) ? REDACTED : copy((value as Record<string, unknown>)[key], depth + 1);
    }
    return out;
  };
  return (value) => copy(value, 0);
}
