/**
 * Scopes granted by a token: `scope` (RFC 9068/8693, space-separated) or `scp` (array or string, as Azure AD and
 * Okta issue it). Empty when neither is present.
 */
export function scopesOfClaims(claims: { scope?: unknown; scp?: unknown }): string[] {
  const value = claims.scope ?? claims.scp;
  if (typeof value === 'string') return value.split(' ').filter((scope) => scope !== '');
  if (Array.isArray(value)) return value.filter((scope): scope is string => typeof scope === 'string');
  return [];
}

/** The scopes of `needed` not in `granted` (empty when all are granted). */
export function missingScopes(granted: readonly string[] | undefined, needed: readonly string[]): string[] {
  if (needed.length === 0) return [];
  if (granted === undefined || granted.length === 0) return [...needed];
  return needed.filter((scope) => !granted.includes(scope));
}
