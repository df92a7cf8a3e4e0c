// Enterprise-managed authorization (MCP extension SEP-990, draft-ietf-oauth-identity-assertion-authz-grant): the
// user's single sign-on identity token is exchanged at the enterprise identity provider for an Identity Assertion JWT
// Authorization Grant (ID-JAG, RFC 8693 token exchange), which the MCP server's authorization server then trades for
// an access token (RFC 7523 JWT bearer grant). No browser round trip: the enterprise IdP decides.

import { OAuthError } from './oauth-error';
import { requestToken } from './token-endpoint';
import type {
  AuthorizationServerMetadata,
  ClientCredentials,
  GrantContext,
  NonInteractiveGrant,
  TokenResponse,
} from './types';

/** RFC 8693 §2.1: the grant type of a token exchange. */
export const TOKEN_EXCHANGE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:token-exchange';
/** RFC 7523 §2.1: the grant type that presents a JWT (here the ID-JAG) as the authorization grant. */
export const JWT_BEARER_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** The token type of an Identity Assertion JWT Authorization Grant. */
export const ID_JAG_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';
/** RFC 8693 §3: an OpenID Connect ID token as the subject token. */
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';

/** The enterprise identity provider: where the ID-JAG is obtained, and how the client authenticates there. */
export interface IdentityProvider {
  /** The IdP's token endpoint. */
  tokenEndpoint: string;
  /** The IdP's issuer identifier (default: the token endpoint's origin). Credentials bound to another are refused. */
  issuer?: string;
  /** The client's registration at the IdP (not the one at the MCP authorization server). */
  credentials: ClientCredentials;
  /** The IdP's `token_endpoint_auth_methods_supported`, if known; RFC 8414's default applies otherwise. */
  authMethodsSupported?: string[];
}

/** What the subject token callback is told about the exchange it is for. */
export interface SubjectTokenRequest {
  /** The MCP authorization server's issuer: the ID-JAG's audience. */
  audience: string;
  /** The MCP server the access token is for. */
  resource: URL;
  signal?: AbortSignal;
}

/** What {@link requestIdJag} needs. */
export interface IdJagRequest {
  identityProvider: IdentityProvider;
  /** The user's identity assertion (by default an ID token from single sign-on). */
  subjectToken: string;
  /** Default {@link ID_TOKEN_TYPE}; a SAML assertion would be `urn:ietf:params:oauth:token-type:saml2`. */
  subjectTokenType?: string;
  /** The MCP authorization server's issuer. */
  audience: string;
  /** The MCP server (RFC 8707). */
  resource: URL;
  scope?: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

/** Options of {@link crossAppAccessGrant}. */
export interface CrossAppAccessGrantOptions {
  /** The enterprise identity provider that issues the ID-JAG: its token endpoint and the client's credentials there. */
  identityProvider: IdentityProvider;
  /**
   * Returns the user's current identity assertion. Called for every exchange, so it can hand out a refreshed one; an
   * expired ID token makes the IdP answer `invalid_grant`.
   */
  subjectToken: (request: SubjectTokenRequest) => string | Promise<string>;
  /** Default {@link ID_TOKEN_TYPE}. */
  subjectTokenType?: string;
}

/**
 * Exchanges the user's identity assertion at the enterprise IdP for an ID-JAG (RFC 8693 with `requested_token_type`
 * {@link ID_JAG_TOKEN_TYPE}, `audience` the MCP authorization server, `resource` the MCP server). The ID-JAG is
 * `access_token` of the result; `token_type` is `N_A`.
 *
 * @example
 * ```ts
 * const { access_token: idJag } = await requestIdJag({
 *   identityProvider: { tokenEndpoint: 'https://idp.example.com/token', credentials: { clientId: 'agent', clientSecret } },
 *   subjectToken: idToken,
 *   audience: 'https://auth.mcp.example.com',
 *   resource: new URL('https://mcp.example.com/mcp'),
 * });
 * ```
 */
export async function requestIdJag(request: IdJagRequest): Promise<TokenResponse> {
  const { identityProvider } = request;
  const grant: Record<string, string> = {
    grant_type: TOKEN_EXCHANGE_GRANT_TYPE,
    requested_token_type: ID_JAG_TOKEN_TYPE,
    audience: request.audience,
    resource: request.resource.href,
    subject_token: request.subjectToken,
    subject_token_type: request.subjectTokenType ?? ID_TOKEN_TYPE,
  };
  if (request.scope !== undefined && request.scope !== '') grant.scope = request.scope;
  const response = await requestToken({
    authorizationServer: identityProviderMetadata(identityProvider),
    credentials: identityProvider.credentials,
    grant,
    fetch: request.fetch,
    signal: request.signal,
    // The draft says N_A (an ID-JAG is not an access token); some IdPs still say Bearer.
    tokenTypes: ['N_A', 'Bearer'],
  });
  if (response.issued_token_type !== undefined && response.issued_token_type !== ID_JAG_TOKEN_TYPE) {
    throw new OAuthError(
      'ERR_INVALID_TOKEN_RESPONSE',
      `The identity provider issued a ${response.issued_token_type} instead of an ID-JAG: check that it supports enterprise-managed authorization for this client.`,
      {
        source: 'client',
        data: { tokenEndpoint: identityProvider.tokenEndpoint, issuedTokenType: response.issued_token_type },
      },
    );
  }
  return response;
}

/**
 * Enterprise-managed authorization as a {@link NonInteractiveGrant}: gets the user's identity assertion, exchanges
 * it at the IdP for an ID-JAG ({@link requestIdJag}), then presents the ID-JAG at the MCP server's authorization server
 * with the JWT bearer grant, authenticated with the client's credentials there.
 *
 * @example
 * ```ts
 * const grant = crossAppAccessGrant({
 *   identityProvider: {
 *     tokenEndpoint: 'https://idp.example.com/oauth2/token',
 *     credentials: { clientId: 'agent-at-idp', clientSecret: idpSecret },
 *   },
 *   subjectToken: () => session.idToken,
 * });
 * // Configure the OAuth provider with `grant`; on a 401 it discovers the authorization server and calls grant.obtain.
 * ```
 */
export function crossAppAccessGrant(options: CrossAppAccessGrantOptions): NonInteractiveGrant {
  return {
    grantType: JWT_BEARER_GRANT_TYPE,
    async obtain(context: GrantContext): Promise<TokenResponse> {
      const audience = context.authorizationServer.issuer;
      const subjectToken = await options.subjectToken({
        audience,
        resource: context.resource,
        signal: context.signal,
      });
      const { access_token: idJag } = await requestIdJag({
        identityProvider: options.identityProvider,
        subjectToken,
        subjectTokenType: options.subjectTokenType,
        audience,
        resource: context.resource,
        scope: context.scope,
        fetch: context.fetch,
        signal: context.signal,
      });
      const grant: Record<string, string> = { grant_type: JWT_BEARER_GRANT_TYPE, assertion: idJag };
      if (context.scope !== undefined && context.scope !== '') grant.scope = context.scope;
      grant.resource = context.resource.href;
      return requestToken({
        authorizationServer: context.authorizationServer,
        credentials: context.credentials,
        grant,
        fetch: context.fetch,
        signal: context.signal,
        // Only the access token is bound; the ID-JAG is a one-time grant, not a token the client keeps.
        dpop: context.dpop,
      });
    },
  };
}

function identityProviderMetadata(identityProvider: IdentityProvider): AuthorizationServerMetadata {
  return {
    issuer: identityProvider.issuer ?? new URL(identityProvider.tokenEndpoint).origin,
    token_endpoint: identityProvider.tokenEndpoint,
    token_endpoint_auth_methods_supported: identityProvider.authMethodsSupported,
  };
}
