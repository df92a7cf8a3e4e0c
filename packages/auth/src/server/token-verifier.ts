import type { AuthInfo } from '@mcpkit/jsonrpc-core';

/** What a verifier is told about the request a token came with. */
export interface TokenVerifyContext {
  /**
   * The canonical URL of this MCP server (RFC 8707 resource): a token whose audience is not this resource is refused
   * with `invalid_token`, so a token minted for another service cannot be replayed here.
   */
  resource: string;
  /** The HTTP request, for verifiers that need more than the token (mTLS, DPoP). Do not read its body. */
  request?: Request;
}

/**
 * Turns a bearer token into an identity, or throws a `TokenVerificationError` (`invalid_token` when the token is
 * wrong, `verifier_unavailable` when the verifier could not decide). Implementations: `createJwtVerifier`,
 * `createIntrospectionVerifier`; write your own for opaque tokens in a database.
 *
 * @example
 * const verifier: TokenVerifier = {
 *   async verify(token) {
 *     const row = await db.tokens.find(token);
 *     if (!row) throw new TokenVerificationError('invalid_token', 'Unknown token', { reason: 'inactive' });
 *     return { token, subject: row.userId, scopes: row.scopes, expiresAt: row.exp };
 *   },
 * };
 */
export interface TokenVerifier {
  verify(token: string, context: TokenVerifyContext): Promise<AuthInfo>;
}
