import { AuthorizationError } from './authorization-error';
import type { AuthorizationServerMetadata } from './types';

// Reading the authorization response at the redirect URI (RFC 6749 §4.1.2), after RFC 9207's `iss` check, which the
// MCP spec (2026-07-28) makes a table on two inputs: whether the server advertises
// `authorization_response_iss_parameter_supported`, and whether the response carries `iss`.
//
//   advertised + present  => compare          advertised + absent => reject
//   not advertised + present => compare       not advertised + absent => proceed
//
// The comparison is exact (no normalisation) and happens before anything else, error responses included: an error
// from an unexpected issuer is a mix-up attack's way in too.

/**
 * Checks the `iss` of an authorization response against the issuer recorded with the PKCE verifier (RFC 9207).
 *
 * @example
 * ```ts
 * checkAuthorizationResponseIssuer(new URL(callbackUrl).searchParams, authorizationServer);
 * ```
 */
export function checkAuthorizationResponseIssuer(
  params: URLSearchParams,
  authorizationServer: Pick<AuthorizationServerMetadata, 'issuer' | 'authorization_response_iss_parameter_supported'>,
): void {
  const iss = params.get('iss');
  const advertised = authorizationServer.authorization_response_iss_parameter_supported === true;
  if (iss === null) {
    if (!advertised) return;
    throw new AuthorizationError(
      'ERR_ISS_MISMATCH',
      `The authorization response has no iss, but ${authorizationServer.issuer} advertises ` +
        'authorization_response_iss_parameter_supported (RFC 9207): refusing the response',
      { expectedIssuer: authorizationServer.issuer },
    );
  }
  if (iss !== authorizationServer.issuer) {
    throw new AuthorizationError(
      'ERR_ISS_MISMATCH',
      `The authorization response comes from issuer ${JSON.stringify(iss)}, not ${authorizationServer.issuer} ` +
        '(RFC 9207): refusing it, it may be a mix-up attack',
      { iss, expectedIssuer: authorizationServer.issuer },
    );
  }
}

/**
 * The authorization code of a callback whose issuer was checked; throws on an error response.
 *
 * @example
 * ```ts
 * const code = readAuthorizationCode(new URL(callbackUrl).searchParams, authorizationServer);
 * ```
 */
export function readAuthorizationCode(
  params: URLSearchParams,
  authorizationServer: Pick<AuthorizationServerMetadata, 'issuer' | 'authorization_response_iss_parameter_supported'>,
): string {
  checkAuthorizationResponseIssuer(params, authorizationServer);
  const error = params.get('error');
  if (error !== null) {
    const description = params.get('error_description');
    throw new AuthorizationError(
      'ERR_AUTHORIZATION_DENIED',
      `The authorization server answered ${error}${description === null ? '' : `: ${description}`}`,
      { error, errorDescription: description ?? undefined, errorUri: params.get('error_uri') ?? undefined },
    );
  }
  const code = params.get('code');
  if (code === null || code === '') {
    throw new AuthorizationError('ERR_AUTHORIZATION_DENIED', 'The authorization response carries no code', {
      params: Object.fromEntries(params),
    });
  }
  return code;
}
