import { defineCodedError } from '@mcpkit/jsonrpc-core';

/**
 * Why a token was refused. `invalid_token` answers 401 with `error="invalid_token"` (the client should get a new
 * token); `verifier_unavailable` means the verifier could not decide (JWKS or introspection endpoint down) and
 * answers 503, because blaming the token would send the client through authorization for nothing.
 */
export type TokenVerificationErrorCode = 'invalid_token' | 'verifier_unavailable';

/** What went wrong, for logs and tests: never sent to the client beyond `error_description`. */
export type TokenRefusalReason =
  | 'malformed'
  | 'signature'
  | 'algorithm'
  | 'unknown_key'
  | 'expired'
  | 'not_yet_valid'
  | 'audience'
  | 'issuer'
  | 'type'
  | 'missing_claim'
  | 'inactive'
  | 'unreachable'
  | 'bad_response';

/** Debug data of a {@link TokenVerificationError}. */
export interface TokenVerificationErrorData {
  reason: TokenRefusalReason;
  /** The claim that failed (`aud`, `iss`, `exp`, …), when one did. */
  claim?: string;
  /** The error a library or endpoint gave, when there was one. */
  cause?: unknown;
}

/**
 * Thrown by a {@link TokenVerifier} when it does not accept a token. Bearer auth turns it into the right HTTP answer.
 *
 * @example
 * throw new TokenVerificationError('invalid_token', 'The token expired at 2026-01-01T00:00:00Z; get a new one', {
 *   reason: 'expired',
 *   claim: 'exp',
 * });
 */
export class TokenVerificationError extends defineCodedError<TokenVerificationErrorCode, TokenVerificationErrorData>(
  'TokenVerificationError',
  '@mcpkit/middleware/TokenVerificationError',
) {
  constructor(code: TokenVerificationErrorCode, message: string, data: TokenVerificationErrorData) {
    super(code, message, data, data.cause === undefined ? undefined : { cause: data.cause });
  }
}

/** Debug data of an {@link AuthConfigError}: the option at fault and the value it was given. */
export interface AuthConfigErrorData {
  option: string;
  value?: unknown;
}

/**
 * Thrown at setup when auth options cannot work (a resource that is not an absolute URL, no key source, …): fail at
 * startup, not on the first request.
 *
 * @example
 * throw new AuthConfigError('`resource` must be an absolute https URL, got "mcp"', { option: 'resource', value: 'mcp' });
 */
export class AuthConfigError extends defineCodedError<'invalid_auth_options', AuthConfigErrorData>(
  'AuthConfigError',
  '@mcpkit/middleware/AuthConfigError',
) {
  constructor(message: string, data: AuthConfigErrorData) {
    super('invalid_auth_options', message, data);
  }
}
