import type { DpopProver } from './dpop';
import type { OAuthStore } from './store';
import type { ClientCredentials, NonInteractiveGrant, TokenEndpointAuthMethod } from './types';

/**
 * Client metadata (RFC 7591 §2) sent in Dynamic Client Registration. Fields not given are derived: `redirect_uris`
 * from the redirect URL, `grant_types` (`authorization_code`, plus `refresh_token` when refresh tokens are wanted),
 * `response_types: ['code']`, `token_endpoint_auth_method` from what the server supports (`none` preferred: the
 * client is public and relies on PKCE), `application_type` (`native` for loopback and custom-scheme redirects, else
 * `web`).
 */
export interface OAuthClientMetadata {
  client_name?: string;
  redirect_uris?: string[];
  grant_types?: string[];
  response_types?: string[];
  token_endpoint_auth_method?: TokenEndpointAuthMethod;
  application_type?: 'native' | 'web';
  scope?: string;
  client_uri?: string;
  logo_uri?: string;
  software_id?: string;
  software_version?: string;
  [key: string]: unknown;
}

/** What {@link OAuthClientProvider.redirectToAuthorization} is told besides the URL. */
export interface AuthorizationRedirect {
  /** The URL to open: the authorization server's authorization endpoint with every parameter. */
  authorizationUrl: URL;
  /** The `state` of this authorization (the callback must carry it back). */
  state: string;
  /** The redirect URI the callback arrives at. */
  redirectUri: string;
  signal?: AbortSignal;
}

/**
 * The parts of the OAuth client an application plugs in: where state is kept, how the user reaches the authorization
 * server, and which client it is.
 *
 * @example
 * ```ts
 * // A CLI: open the browser, await the loopback callback, return its URL.
 * const provider: OAuthClientProvider = {
 *   redirectUrl: 'http://127.0.0.1:8765/callback',
 *   clientMetadata: { client_name: 'My CLI' },
 *   async redirectToAuthorization({ authorizationUrl }) {
 *     openBrowser(authorizationUrl);
 *     return await waitForCallback(8765); // the full callback URL, with code and state
 *   },
 * };
 * ```
 */
export interface OAuthClientProvider {
  /** Tokens, client credentials and pending authorizations (default: an `InMemoryOAuthStore`). */
  store?: OAuthStore;
  /** The redirect URI of the authorization-code flow. Required unless `grant` is set. */
  redirectUrl?: string | URL;
  /** Client metadata for Dynamic Client Registration (see {@link OAuthClientMetadata} for the defaults). */
  clientMetadata?: OAuthClientMetadata;
  /**
   * An HTTPS URL where this client's Client ID Metadata Document is served; used as `client_id` at authorization
   * servers that advertise `client_id_metadata_document_supported`, instead of registering.
   */
  clientMetadataUrl?: string;
  /**
   * Pre-registered credentials. A static value with an `issuer` is only used at that authorization server; without
   * one it is used at any. A function is asked per issuer (return undefined to fall back to CIMD / registration).
   */
  clientCredentials?:
    | ClientCredentials
    | ((issuer: string) => ClientCredentials | undefined | Promise<ClientCredentials | undefined>);
  /**
   * Sends the user to the authorization server. A CLI or desktop app returns the callback URL (with `code` and
   * `state`) once the redirect arrives, and the request that needed authorization continues. A web app that navigates
   * away returns nothing: the request fails with an `UnauthorizedError`, and the page that receives the callback calls
   * `OAuthClient.finish(callbackUrl)`.
   */
  redirectToAuthorization?(
    redirect: AuthorizationRedirect,
  ): Promise<string | URL | undefined> | string | URL | undefined;
  /**
   * A grant that needs no user (client credentials, enterprise-managed authorization). When set, it replaces the
   * authorization-code flow.
   */
  grant?: NonInteractiveGrant;
  /**
   * Proof-of-possession tokens (DPoP, RFC 9449), opt-in. `true`: the client generates an ES256 key pair on first use
   * (private key not extractable, gone with the process). A `DpopProver` over your own key pair (e.g. kept in
   * IndexedDB) keeps tokens in a persistent store usable after a restart: they are bound to the key. A web app whose
   * callback page calls `finish()` needs such a key too (the code is bound to it by `dpop_jkt`). Authorization
   * servers that answer `token_type: Bearer` keep working; their tokens are sent as `Bearer`.
   *
   * @example
   * ```ts
   * const provider: OAuthClientProvider = { dpop: await DpopProver.generate(), redirectUrl, redirectToAuthorization };
   * ```
   */
  dpop?: boolean | DpopProver;
}
