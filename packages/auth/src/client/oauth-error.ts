import { defineCodedError } from '@mcpkit/jsonrpc-core';

// The one error type of the token endpoint and the grants built on it. An authorization server's own error (RFC 6749
// §5.2) keeps its `error` code as is, so callers can branch on `invalid_grant` without a lookup table; what the client
// found itself uses an `ERR_` code, like the package's other errors.

/** The error codes RFC 6749 §5.2 (and RFC 8693 §2.2.2) define for the token endpoint. */
export type OAuthServerErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  /** Any other code a server sends (extensions register their own). */
  | (string & {});

/** The codes of the problems the client finds itself, before or after talking to the token endpoint. */
export type OAuthClientErrorCode =
  /** The client cannot authenticate as configured (no usable method, a secret or key missing, a foreign issuer). */
  | 'ERR_CLIENT_AUTHENTICATION'
  /** The `private_key_jwt` or grant assertion could not be built (unusable key, unknown algorithm). */
  | 'ERR_CLIENT_ASSERTION'
  /** The token endpoint could not be reached (network failure; `cause` holds the fetch error). */
  | 'ERR_TOKEN_ENDPOINT_UNREACHABLE'
  /** The token endpoint failed without an RFC 6749 error body (e.g. a 500 with an HTML page). */
  | 'ERR_TOKEN_ENDPOINT_HTTP'
  /** A success response that is not a usable token response (not JSON, no `access_token`, wrong `token_type`). */
  | 'ERR_INVALID_TOKEN_RESPONSE';

/** Where an {@link OAuthError} came from. */
export type OAuthErrorSource = 'authorization-server' | 'client';

/** What {@link OAuthError}'s constructor takes besides the code and message. */
export interface OAuthErrorInit {
  source: OAuthErrorSource;
  /** RFC 6749 `error_description`, as the server sent it. */
  description?: string;
  /** RFC 6749 `error_uri`, as the server sent it. */
  uri?: string;
  /** The HTTP status of the token endpoint's response, when there was one. */
  status?: number;
  /** What helps to debug: endpoint, grant type, method. Never secrets, assertions or tokens. */
  data?: Record<string, unknown>;
  cause?: unknown;
}

// The brand key is also read by the root entry's negotiation (which never imports /auth): keep it.
/**
 * A failed token request: either the authorization server's error response (RFC 6749 §5.2, `source:
 * 'authorization-server'`, `code` is the server's `error`) or a problem the client found (`source: 'client'`, an `ERR_`
 * code). A refresh that fails with `invalid_grant` means the grant is gone: authorize again.
 *
 * @example
 * ```ts
 * try {
 *   tokens = await requestToken({ authorizationServer, credentials, grant: { grant_type: 'refresh_token', refresh_token } });
 * } catch (error) {
 *   if (OAuthError.is(error) && error.code === 'invalid_grant') return startAuthorization();
 *   throw error;
 * }
 * ```
 */
export class OAuthError extends defineCodedError<OAuthServerErrorCode | OAuthClientErrorCode>(
  'OAuthError',
  '@mcpkit/client/OAuthError',
) {
  readonly source: OAuthErrorSource;
  readonly description: string | undefined;
  readonly uri: string | undefined;
  readonly status: number | undefined;

  constructor(code: OAuthServerErrorCode | OAuthClientErrorCode, message: string, init: OAuthErrorInit) {
    super(code, message, init.data, init.cause === undefined ? undefined : { cause: init.cause });
    this.source = init.source;
    this.description = init.description;
    this.uri = init.uri;
    this.status = init.status;
  }
}

const SERVER_ADVICE: Record<string, string> = {
  invalid_request: 'the request is malformed or misses a parameter the server requires',
  invalid_client: 'check the client id, secret or signing key registered at this authorization server',
  invalid_grant: 'the grant (code, refresh token or assertion) is invalid, expired or revoked: authorize again',
  unauthorized_client: 'this client is not allowed to use this grant type: check its registration',
  unsupported_grant_type: 'the authorization server does not support this grant type',
  invalid_scope: 'ask for a scope the authorization server supports',
  invalid_target: 'the requested resource or audience is not accepted by the authorization server',
};

/**
 * Builds the error for an RFC 6749 §5.2 error body. `data` names the endpoint and grant; the description and URI are
 * the server's words, kept apart from the message the client writes.
 */
export function oauthServerError(
  body: { error: string; error_description?: unknown; error_uri?: unknown },
  status: number,
  data: Record<string, unknown>,
): OAuthError {
  const description = typeof body.error_description === 'string' ? body.error_description : undefined;
  const uri = typeof body.error_uri === 'string' ? body.error_uri : undefined;
  const advice = SERVER_ADVICE[body.error] ?? 'see the error description and the server documentation';
  const said = description === undefined ? '' : ` ("${description}")`;
  return new OAuthError(
    body.error,
    `The authorization server refused the token request with ${body.error}${said}; ${advice}.`,
    { source: 'authorization-server', description, uri, status, data },
  );
}
