import { defineCodedError } from '@mcpkit/jsonrpc-core';

/** The codes of {@link AuthorizationError}: what stopped the client from obtaining or using a token. */
export type AuthorizationErrorCode =
  /** The user must authorize at `data.authorizationUrl`; finish with `OAuthClient.finish(callbackUrl)`. */
  | 'ERR_AUTHORIZATION_REQUIRED'
  /** No protected resource metadata or authorization server metadata could be obtained. */
  | 'ERR_DISCOVERY_FAILED'
  /** The protected resource metadata names another resource than the server the client talks to. */
  | 'ERR_RESOURCE_MISMATCH'
  /** Authorization server metadata whose `issuer` is not the issuer it was fetched for (RFC 8414 §3.3). */
  | 'ERR_ISSUER_MISMATCH'
  /** The authorization server does not advertise PKCE with S256. */
  | 'ERR_PKCE_UNSUPPORTED'
  /** No client credentials: none configured, no Client ID Metadata Document support, no registration endpoint. */
  | 'ERR_REGISTRATION_FAILED'
  /** The authorization response carries a missing or wrong `iss` (RFC 9207). */
  | 'ERR_ISS_MISMATCH'
  /** The authorization response's `state` matches no pending authorization. */
  | 'ERR_STATE_MISMATCH'
  /** The authorization server answered the authorization request with an error (e.g. `access_denied`). */
  | 'ERR_AUTHORIZATION_DENIED'
  /** The server refused a token obtained just now. */
  | 'ERR_UNAUTHORIZED'
  /** The server kept answering 403 `insufficient_scope` after the allowed number of step-up authorizations. */
  | 'ERR_STEP_UP_LIMIT'
  /**
   * A URL a server supplied is not one the client will use: not `https:`, a private, loopback, link-local or
   * unique-local address, a redirect to another origin, or an authorization endpoint that is not `https:`.
   */
  | 'ERR_UNSAFE_URL'
  /** A response from an authorization server or metadata URL was larger than `network.maxResponseBytes`. */
  | 'ERR_RESPONSE_TOO_LARGE'
  /** A request to an authorization server or metadata URL did not complete within `network.timeoutMs`. */
  | 'ERR_RESPONSE_TIMEOUT'
  /** Pre-registered credentials with a secret or a key but no `issuer`: they would go to any authorization server. */
  | 'ERR_CREDENTIALS_WITHOUT_ISSUER';

// The brand key is also read by the root entry's negotiation (which never imports /auth): keep it.
/**
 * A failure of the OAuth client: a code to branch on, a message a person can act on, and the data to debug (URLs,
 * issuers, scopes). Errors the token endpoint answers with are `OAuthError`s; they reach you as the `cause`.
 *
 * @example
 * ```ts
 * try {
 *   await client.connect(transport);
 * } catch (error) {
 *   const auth = findAuthorizationError(error);
 *   if (auth?.code === 'ERR_RESOURCE_MISMATCH') console.error(auth.message, auth.data);
 * }
 * ```
 */
export class AuthorizationError extends defineCodedError<AuthorizationErrorCode>(
  'AuthorizationError',
  '@mcpkit/client/AuthorizationError',
) {}

/**
 * Thrown by the OAuth `fetch` when the user has to authorize in a browser and the app navigates away (the provider's
 * `redirectToAuthorization` returned nothing). Complete later with `OAuthClient.finish(callbackUrl)`, then reconnect.
 *
 * @example
 * ```ts
 * try {
 *   await client.connect(transport);
 * } catch (error) {
 *   if (findAuthorizationError(error)?.code === 'ERR_AUTHORIZATION_REQUIRED') return; // the page is navigating away
 *   throw error;
 * }
 * ```
 */
export class UnauthorizedError extends AuthorizationError {
  override name = 'UnauthorizedError';
  /** Where the user was sent to authorize. */
  readonly authorizationUrl: URL;

  constructor(authorizationUrl: URL, data: Record<string, unknown> = {}) {
    super(
      'ERR_AUTHORIZATION_REQUIRED',
      `Authorization required: the user must authorize at ${authorizationUrl.origin}, then call finish(callbackUrl)`,
      { authorizationUrl: authorizationUrl.href, ...data },
    );
    this.authorizationUrl = authorizationUrl;
  }
}

/**
 * Finds an {@link AuthorizationError} in an error's `cause` chain: transports wrap what their `fetch` throws (for
 * example in a `StreamableHttpError` with code `ERR_NETWORK`), so the OAuth error is usually a cause, not the error.
 *
 * @example
 * ```ts
 * const auth = findAuthorizationError(error);
 * if (auth instanceof UnauthorizedError) showLoginLink(auth.authorizationUrl);
 * ```
 */
export function findAuthorizationError(error: unknown): AuthorizationError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (AuthorizationError.is(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
