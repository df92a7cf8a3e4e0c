import type { AuthorizationServerMetadata, ProtectedResourceMetadata } from './types';

// The MCP scope selection strategy (2025-11-25): the scope of the challenge, else every scope the resource lists,
// else none; `offline_access` (SEP-2207) only when the authorization server lists it.

/** Splits a space-separated scope into its distinct scopes. */
export function splitScope(scope: string | undefined): string[] {
  return scope === undefined ? [] : [...new Set(scope.split(' ').filter((item) => item !== ''))];
}

/**
 * The union of scopes, in first-seen order; undefined when empty (so the `scope` parameter is omitted).
 *
 * @example
 * ```ts
 * unionScopes('a b', 'b c'); // 'a b c'
 * ```
 */
export function unionScopes(...scopes: Array<string | undefined>): string | undefined {
  const all = new Set<string>();
  for (const scope of scopes) for (const item of splitScope(scope)) all.add(item);
  return all.size === 0 ? undefined : [...all].join(' ');
}

/**
 * The scope to request: the challenge's `scope`, else the PRM's `scopes_supported`, else none; plus
 * `offline_access` when `wantRefreshTokens` and the authorization server lists it.
 *
 * @example
 * ```ts
 * selectScope({ challengeScope: 'files:read', authorizationServer: as, wantRefreshTokens: true });
 * ```
 */
export function selectScope(input: {
  challengeScope?: string;
  resourceMetadata?: ProtectedResourceMetadata;
  authorizationServer: AuthorizationServerMetadata;
  wantRefreshTokens: boolean;
}): string | undefined {
  const base =
    input.challengeScope !== undefined && input.challengeScope.trim() !== ''
      ? input.challengeScope
      : input.resourceMetadata?.scopes_supported?.join(' ');
  const offline =
    input.wantRefreshTokens && input.authorizationServer.scopes_supported?.includes('offline_access') === true
      ? 'offline_access'
      : undefined;
  // offline_access alone is no scope selection: a server that asked for nothing gets nothing extra.
  return base === undefined || base.trim() === '' ? undefined : unionScopes(base, offline);
}
