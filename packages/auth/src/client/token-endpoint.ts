// One request to an authorization server's token endpoint (RFC 6749 §3.2): the grant's parameters, the client's
// authentication (§2.3, RFC 7523), and the checked response (§5.1) or the server's error (§5.2). Every grant goes
// through here, so the rules about credentials live in one place.

import { createClientAssertion, JWT_BEARER_CLIENT_ASSERTION_TYPE } from './client-assertion';
import type { DpopProver } from './dpop';
import { OAuthError, oauthServerError } from './oauth-error';
import type { AuthorizationServerMetadata, ClientCredentials, TokenEndpointAuthMethod, TokenResponse } from './types';

/** One token request. */
export interface TokenRequest {
  authorizationServer: AuthorizationServerMetadata;
  credentials: ClientCredentials;
  /** `grant_type` and the grant's parameters, sent as they are. */
  grant: Record<string, string>;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** Extra request headers (e.g. a DPoP proof). `Content-Type`, `Accept` and client authentication are set here. */
  headers?: HeadersInit;
  /**
   * The `token_type` values accepted, compared case-insensitively (default `['Bearer']`). A token exchange that yields
   * something other than an access token answers `N_A` (RFC 8693 §2.2.1).
   */
  tokenTypes?: readonly string[];
  /**
   * Binds the tokens to this prover's key (RFC 9449): a `DPoP` proof on the request, one retry when the server asks
   * for a nonce (`use_dpop_nonce`), and `token_type` `DPoP` accepted (`Bearer` too, from servers without DPoP).
   */
  dpop?: DpopProver;
}

const DEFAULT_TOKEN_TYPES = ['Bearer'] as const;
const DPOP_TOKEN_TYPES = ['DPoP', 'Bearer'] as const;
// RFC 8414 §2: a server that omits the list supports client_secret_basic only.
const DEFAULT_AUTH_METHODS = ['client_secret_basic'] as const;
const MAX_BODY_SNIPPET = 200;

/**
 * POSTs a grant to the token endpoint with the client's authentication and returns the checked token response.
 * Rejects with an {@link OAuthError}: the server's `error` code (`invalid_grant`, `invalid_client`, …) or an `ERR_`
 * code for what the client found (unreachable endpoint, unusable response, missing credentials).
 *
 * @example
 * ```ts
 * const tokens = await requestToken({
 *   authorizationServer: metadata,
 *   credentials: { clientId: 'my-client', clientSecret: 's3cret' },
 *   grant: { grant_type: 'refresh_token', refresh_token: stored.refresh_token, resource: 'https://mcp.example.com/mcp' },
 * });
 * ```
 */
export async function requestToken(request: TokenRequest): Promise<TokenResponse> {
  const { authorizationServer, credentials, grant } = request;
  const endpoint = authorizationServer.token_endpoint;
  const debug = { tokenEndpoint: endpoint, grantType: grant.grant_type, clientId: credentials.clientId };
  if (credentials.issuer !== undefined && credentials.issuer !== authorizationServer.issuer) {
    throw new OAuthError(
      'ERR_CLIENT_AUTHENTICATION',
      `These client credentials were issued by ${credentials.issuer}, not by ${authorizationServer.issuer}: register with this authorization server.`,
      {
        source: 'client',
        data: { ...debug, credentialsIssuer: credentials.issuer, issuer: authorizationServer.issuer },
      },
    );
  }

  const method = selectTokenEndpointAuthMethod(credentials, authorizationServer);
  const { dpop } = request;
  const tokenTypes = request.tokenTypes ?? (dpop === undefined ? DEFAULT_TOKEN_TYPES : DPOP_TOKEN_TYPES);
  const data = { ...debug, authMethod: method };
  // Two attempts at most: the second only when a DPoP server asked for a nonce. Everything is rebuilt, since a client
  // assertion's jti and a DPoP proof are single-use.
  for (let attempt = 1; ; attempt++) {
    const headers = new Headers(request.headers);
    headers.set('Content-Type', 'application/x-www-form-urlencoded');
    headers.set('Accept', 'application/json');
    if (dpop !== undefined) headers.set('DPoP', await dpop.proof({ method: 'POST', url: endpoint }));
    const body = new URLSearchParams(grant);
    await authenticateClient(method, credentials, authorizationServer, headers, body);

    let response: Response;
    try {
      response = await (request.fetch ?? fetch)(endpoint, { method: 'POST', headers, body, signal: request.signal });
    } catch (cause) {
      if (request.signal?.aborted) throw cause;
      throw new OAuthError('ERR_TOKEN_ENDPOINT_UNREACHABLE', `The token endpoint ${endpoint} could not be reached.`, {
        source: 'client',
        data,
        cause,
      });
    }
    const text = await response.text();
    const json = parseJsonObject(text);
    const newNonce = dpop?.rememberNonce(endpoint, response) === true;
    // RFC 9449 §8: a 400 use_dpop_nonce with a fresh DPoP-Nonce asks for the same request again with that nonce.
    if (newNonce && attempt === 1 && response.status === 400 && json?.error === 'use_dpop_nonce') continue;
    return readTokenResponse(response, text, json, tokenTypes, data);
  }
}

/**
 * The client authentication method for a token request: the configured `authMethod`, else the first that fits the
 * credentials and the server's `token_endpoint_auth_methods_supported`: `client_secret_basic`, then
 * `client_secret_post` for a secret, `private_key_jwt` for a key, `none` for a public client.
 *
 * @example
 * ```ts
 * selectTokenEndpointAuthMethod({ clientId: 'c', clientSecret: 's' }, { ...metadata, token_endpoint_auth_methods_supported: ['client_secret_post'] });
 * // 'client_secret_post'
 * ```
 */
export function selectTokenEndpointAuthMethod(
  credentials: ClientCredentials,
  authorizationServer: AuthorizationServerMetadata,
): TokenEndpointAuthMethod {
  if (credentials.authMethod !== undefined) return credentials.authMethod;
  const supported: readonly string[] =
    authorizationServer.token_endpoint_auth_methods_supported ?? DEFAULT_AUTH_METHODS;
  const hasSecret = credentials.clientSecret !== undefined;
  const hasKey = credentials.privateKey !== undefined;
  if (hasSecret && supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (hasSecret && supported.includes('client_secret_post')) return 'client_secret_post';
  if (hasKey && supported.includes('private_key_jwt')) return 'private_key_jwt';
  if ((!hasSecret && !hasKey) || supported.includes('none')) return 'none';
  throw new OAuthError(
    'ERR_CLIENT_AUTHENTICATION',
    `The authorization server supports ${supported.join(', ')} at its token endpoint, and these credentials fit none of them: configure a matching secret or key, or set authMethod.`,
    {
      source: 'client',
      data: { issuer: authorizationServer.issuer, supported, hasSecret, hasKey, clientId: credentials.clientId },
    },
  );
}

/**
 * RFC 6749 §2.3.1: client id and secret are form-urlencoded before they are joined and base64-encoded. Spaces become
 * `%20` (not `+`) and `!'()*` are escaped too, so servers that decode with `decodeURIComponent` agree with
 * form decoders.
 *
 * @example
 * ```ts
 * basicAuthorization('my client', 'p@ss:word'); // 'Basic bXklMjBjbGllbnQ6cCU0MHNzJTNBd29yZA=='
 * ```
 */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  const pair = `${formEncode(clientId)}:${formEncode(clientSecret)}`;
  // Only ASCII remains after form-encoding, so btoa cannot throw.
  return `Basic ${btoa(pair)}`;
}

function formEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

async function authenticateClient(
  method: TokenEndpointAuthMethod,
  credentials: ClientCredentials,
  authorizationServer: AuthorizationServerMetadata,
  headers: Headers,
  body: URLSearchParams,
): Promise<void> {
  switch (method) {
    case 'client_secret_basic':
      headers.set('Authorization', basicAuthorization(credentials.clientId, requireSecret(credentials, method)));
      return;
    case 'client_secret_post':
      body.set('client_id', credentials.clientId);
      body.set('client_secret', requireSecret(credentials, method));
      return;
    case 'none':
      body.set('client_id', credentials.clientId);
      return;
    case 'private_key_jwt': {
      if (credentials.privateKey === undefined) throw missingCredential(credentials, method, 'privateKey');
      const assertion = await createClientAssertion({
        clientId: credentials.clientId,
        // The issuer identifies the authorization server (RFC 7523bis); the conformance suite checks exactly this.
        audience: authorizationServer.issuer,
        privateKey: credentials.privateKey,
        algorithm: credentials.signingAlgorithm,
        supportedAlgorithms: authorizationServer.token_endpoint_auth_signing_alg_values_supported,
        keyId: credentials.keyId,
      });
      body.set('client_assertion_type', JWT_BEARER_CLIENT_ASSERTION_TYPE);
      body.set('client_assertion', assertion);
      return;
    }
  }
}

function requireSecret(credentials: ClientCredentials, method: TokenEndpointAuthMethod): string {
  if (credentials.clientSecret === undefined) throw missingCredential(credentials, method, 'clientSecret');
  return credentials.clientSecret;
}

function missingCredential(credentials: ClientCredentials, method: TokenEndpointAuthMethod, field: string): OAuthError {
  return new OAuthError(
    'ERR_CLIENT_AUTHENTICATION',
    `Token endpoint authentication ${method} needs credentials.${field}, which is not set.`,
    { source: 'client', data: { authMethod: method, missing: field, clientId: credentials.clientId } },
  );
}

function readTokenResponse(
  response: Response,
  text: string,
  body: Record<string, unknown> | undefined,
  tokenTypes: readonly string[],
  debug: Record<string, unknown>,
): TokenResponse {
  const status = response.status;
  // Some servers answer errors with 200; an `error` member without a token is an error whatever the status.
  if (body !== undefined && typeof body.error === 'string' && (!response.ok || body.access_token === undefined)) {
    throw oauthServerError(body as { error: string }, status, debug);
  }
  if (!response.ok) {
    throw new OAuthError(
      'ERR_TOKEN_ENDPOINT_HTTP',
      `The token endpoint answered HTTP ${status} without an OAuth error body: check the endpoint URL and the server's logs.`,
      {
        source: 'client',
        status,
        data: { ...debug, contentType: response.headers.get('content-type'), body: snippet(text) },
      },
    );
  }
  if (body === undefined) {
    throw invalidResponse('is not a JSON object', status, {
      ...debug,
      contentType: response.headers.get('content-type'),
      body: snippet(text),
    });
  }
  return checkTokenResponse(body, tokenTypes, status, debug);
}

function checkTokenResponse(
  body: Record<string, unknown>,
  tokenTypes: readonly string[],
  status: number,
  debug: Record<string, unknown>,
): TokenResponse {
  // Data names the fields present, never their values: they are tokens.
  const fields = { ...debug, fields: Object.keys(body) };
  if (typeof body.access_token !== 'string' || body.access_token === '') {
    throw invalidResponse('has no access_token', status, fields);
  }
  const tokenType = body.token_type;
  if (typeof tokenType !== 'string') throw invalidResponse('has no token_type', status, fields);
  const lower = tokenType.toLowerCase();
  if (!tokenTypes.some((accepted) => accepted.toLowerCase() === lower)) {
    throw invalidResponse(`has token_type ${tokenType}, expected ${tokenTypes.join(' or ')}`, status, {
      ...fields,
      tokenType,
    });
  }
  const expiresIn = body.expires_in;
  if (expiresIn !== undefined) {
    // Some servers send the number as a string; anything else is unusable.
    const seconds = typeof expiresIn === 'string' && expiresIn.trim() !== '' ? Number(expiresIn) : expiresIn;
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
      throw invalidResponse('has an expires_in that is not a number of seconds', status, { ...fields, expiresIn });
    }
    if (seconds !== expiresIn) body.expires_in = seconds;
  }
  for (const name of ['refresh_token', 'scope', 'id_token', 'issued_token_type'] as const) {
    if (body[name] !== undefined && typeof body[name] !== 'string') {
      throw invalidResponse(`has a ${name} that is not a string`, status, fields);
    }
  }
  return body as TokenResponse;
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function invalidResponse(problem: string, status: number, data: Record<string, unknown>): OAuthError {
  return new OAuthError(
    'ERR_INVALID_TOKEN_RESPONSE',
    `The token endpoint's response ${problem} (RFC 6749 §5.1): the server is not a conforming OAuth token endpoint.`,
    { source: 'client', status, data },
  );
}

function snippet(text: string): string {
  return text.length > MAX_BODY_SNIPPET ? `${text.slice(0, MAX_BODY_SNIPPET)}…` : text;
}
