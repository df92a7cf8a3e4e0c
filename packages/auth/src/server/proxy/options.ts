// The options of createOAuthProxy, and their checked, defaulted form the handlers share.
import type { JWK } from 'jose';
import { OAuthProxyError } from './errors';
import { InMemoryOAuthProxyStore, type OAuthProxyStore } from './store';

/** How the proxy authenticates at the upstream token endpoint. */
export type UpstreamAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

/** The tokens the upstream provider returned (RFC 6749 §5.1), as the proxy keeps them. */
export interface UpstreamTokens {
  access_token: string;
  token_type: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  id_token?: string;
  [key: string]: unknown;
}

/** Who the user is, as {@link OAuthProxyOptions.identify} finds out from the upstream tokens. */
export interface UpstreamIdentity {
  /** Becomes the `sub` of the tokens the proxy issues. */
  subject?: string;
  /** More claims for the proxy's access tokens (e.g. `email`); registered claims cannot be overridden. */
  claims?: Record<string, unknown>;
}

/** The identity provider the proxy fronts, and the one client the proxy is registered as there. */
export interface UpstreamProviderOptions {
  /** The upstream authorization endpoint, e.g. `https://idp.example.com/oauth/authorize`. */
  authorizationEndpoint: string | URL;
  /** The upstream token endpoint. */
  tokenEndpoint: string | URL;
  /** The proxy's pre-registered client id at the upstream provider (its redirect URI: the proxy's callback). */
  clientId: string;
  /** Its client secret there, if it has one (a confidential client). */
  clientSecret?: string;
  /** Default `client_secret_basic` with a secret, `none` without. */
  authMethod?: UpstreamAuthMethod;
  /**
   * The scope asked upstream. A string: always that. A function: derived from the scopes the MCP client asked the proxy
   * for. Default: the MCP client's scope, forwarded as is.
   */
  scope?: string | ((requested: readonly string[]) => string | undefined);
  /** The upstream issuer: when set, an `iss` on the upstream callback must equal it (RFC 9207). */
  issuer?: string;
  /** More parameters for the upstream authorization request (e.g. `{ prompt: 'consent' }`, `audience`). */
  authorizationParams?: Record<string, string>;
}

/** The key the proxy signs its access tokens with. */
export interface ProxySigningKey {
  /** A private `CryptoKey` or private JWK. */
  privateKey: CryptoKey | JWK;
  /** The public half, published at the JWKS endpoint. */
  publicJwk: JWK;
  /** JWS algorithm, e.g. `ES256`, `RS256`. */
  alg: string;
  /** Key id (`kid`), so verifiers pick the right key when keys rotate. */
  kid: string;
}

/** Options of {@link createOAuthProxy}. */
export interface OAuthProxyOptions {
  /**
   * The proxy's issuer: its own base URL (https, or http on a loopback host for local development), e.g.
   * `https://mcp.example.com`. Endpoints are served under it (`/authorize`, `/token`, `/register`, `/callback`,
   * `/jwks`), metadata at `/.well-known/oauth-authorization-server` (RFC 8414 path insertion for an issuer with a path).
   */
  issuer: string | URL;
  /**
   * The MCP server(s) tokens are for (RFC 8707): their canonical URLs, e.g. `https://mcp.example.com/mcp`. Issued
   * access tokens carry the one the client asked for as `aud`; a `resource` not listed is refused (`invalid_target`).
   */
  resource: string | URL | readonly (string | URL)[];
  /** The identity provider the proxy sends users to, and how the proxy is registered there. */
  upstream: UpstreamProviderOptions;
  /** Scopes of the MCP server, advertised and enforced (a request for another one gets `invalid_scope`). */
  scopesSupported?: readonly string[];
  /**
   * Show a consent page naming the MCP client before sending the user upstream. Default true. The upstream provider
   * sees one client (the proxy) for every MCP client, so once the user consented there it may skip its own screen; a
   * link crafted with a client the attacker registered would then deliver the user's code to the attacker (the
   * confused deputy attack of the MCP security best practices). Turn it off only if the upstream always asks.
   */
  consent?: boolean;
  /** Accept Client ID Metadata Documents (an https URL as `client_id`). Default true. */
  clientIdMetadataDocuments?: boolean;
  /**
   * Finds the user's identity from the upstream tokens (e.g. by calling a userinfo API). Default: the `sub` of the
   * upstream `id_token` when there is one (received straight from the token endpoint over TLS, so OpenID Connect Core
   * §3.1.3.7 lets its signature go unchecked; its `aud` and `iss` are checked).
   */
  identify?: (tokens: UpstreamTokens) => Promise<UpstreamIdentity> | UpstreamIdentity;
  /** Default: an ES256 key generated at start (tokens then die with the process; share a key across instances). */
  signingKey?: ProxySigningKey;
  /** Lifetime of issued access tokens, capped by the upstream access token's. Default 3 600 s. */
  accessTokenTtlSeconds?: number;
  /** Lifetime of issued refresh tokens (each use rotates it). Default 30 days. */
  refreshTokenTtlSeconds?: number;
  /** Lifetime of the proxy's authorization codes. Default 60 s. */
  authorizationCodeTtlSeconds?: number;
  /** How long a user has to finish consent and the upstream login. Default 600 s. */
  transactionTtlSeconds?: number;
  /** Lifetime of dynamically registered clients. Default: no expiry (the store's bound still applies). */
  clientTtlSeconds?: number;
  /** Default: a bounded in-memory store. */
  store?: OAuthProxyStore;
  /** For upstream token requests and client metadata documents. Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Timeout of each upstream request. Default 10 000 ms. */
  upstreamTimeoutMs?: number;
  /** The clock, in milliseconds (for tests). Default `Date.now`. */
  now?: () => number;
}

/** The options after checks and defaults. */
export interface ProxyConfig {
  readonly issuer: string;
  readonly endpoints: {
    readonly metadata: URL;
    readonly authorize: URL;
    readonly token: URL;
    readonly register: URL;
    readonly callback: URL;
    readonly jwks: URL;
  };
  readonly resources: readonly string[];
  readonly upstream: UpstreamProviderOptions & { readonly authMethod: UpstreamAuthMethod };
  readonly scopesSupported: readonly string[] | undefined;
  readonly consent: boolean;
  readonly clientIdMetadataDocuments: boolean;
  readonly identify: ((tokens: UpstreamTokens) => Promise<UpstreamIdentity> | UpstreamIdentity) | undefined;
  readonly accessTokenTtlSeconds: number;
  readonly refreshTokenTtlSeconds: number;
  readonly authorizationCodeTtlSeconds: number;
  readonly transactionTtlSeconds: number;
  readonly clientTtlSeconds: number | undefined;
  readonly store: OAuthProxyStore;
  readonly fetch: typeof fetch;
  readonly upstreamTimeoutMs: number;
  readonly now: () => number;
  /** Cookies get `Secure` and the `__Host-` prefix when the issuer is https. */
  readonly secureCookies: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

function checkedUrl(option: string, value: string | URL, allowPath = true): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch (cause) {
    throw new OAuthProxyError(
      'ERR_PROXY_OPTIONS',
      `${option} must be an absolute URL, got '${String(value)}'`,
      {
        option,
        value: String(value),
      },
      { cause },
    );
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw new OAuthProxyError(
      'ERR_PROXY_OPTIONS',
      `${option} must use https (http only on 127.0.0.1, [::1] or localhost), got '${url.href}'`,
      { option, value: url.href },
    );
  }
  if (url.hash !== '' || (!allowPath && url.search !== '')) {
    throw new OAuthProxyError('ERR_PROXY_OPTIONS', `${option} must have no query or fragment, got '${url.href}'`, {
      option,
      value: url.href,
    });
  }
  return url;
}

function positive(option: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new OAuthProxyError('ERR_PROXY_OPTIONS', `${option} must be a positive number, got ${value}`, {
      option,
      value,
    });
  }
  return value;
}

/** RFC 8707 compares resource indicators as URLs; `href` makes `https://a.example` and `https://a.example/` one. */
export function normalizeResource(value: string | URL): string {
  return new URL(value).href;
}

/** Checks the options and fills in the defaults. Throws {@link OAuthProxyError} `ERR_PROXY_OPTIONS`. */
export function resolveProxyConfig(options: OAuthProxyOptions): ProxyConfig {
  const issuerUrl = checkedUrl('issuer', options.issuer, false);
  // The issuer string is kept as written (minus a lone trailing slash) since clients compare it exactly.
  const issuer = issuerUrl.href.replace(/\/$/, '');
  const base = issuerUrl.pathname.replace(/\/$/, '');
  const at = (path: string) => new URL(`${base}${path}`, issuerUrl.origin);
  const resourceList = (Array.isArray(options.resource) ? options.resource : [options.resource]) as (string | URL)[];
  if (resourceList.length === 0) {
    throw new OAuthProxyError('ERR_PROXY_OPTIONS', 'resource must name at least one MCP server URL', {
      option: 'resource',
    });
  }
  const resources = resourceList.map((value) => checkedUrl('resource', value).href);
  const upstream = options.upstream;
  if (typeof upstream?.clientId !== 'string' || upstream.clientId === '') {
    throw new OAuthProxyError('ERR_PROXY_OPTIONS', 'upstream.clientId is required: the proxy’s client id upstream', {
      option: 'upstream.clientId',
    });
  }
  checkedUrl('upstream.authorizationEndpoint', upstream.authorizationEndpoint);
  checkedUrl('upstream.tokenEndpoint', upstream.tokenEndpoint);
  const authMethod = upstream.authMethod ?? (upstream.clientSecret === undefined ? 'none' : 'client_secret_basic');
  if (authMethod !== 'none' && upstream.clientSecret === undefined) {
    throw new OAuthProxyError('ERR_PROXY_OPTIONS', `upstream.authMethod '${authMethod}' needs upstream.clientSecret`, {
      option: 'upstream.clientSecret',
    });
  }
  return {
    issuer,
    endpoints: {
      metadata: new URL(`/.well-known/oauth-authorization-server${base}`, issuerUrl.origin),
      authorize: at('/authorize'),
      token: at('/token'),
      register: at('/register'),
      callback: at('/callback'),
      jwks: at('/jwks'),
    },
    resources,
    upstream: { ...upstream, authMethod },
    scopesSupported: options.scopesSupported,
    consent: options.consent ?? true,
    clientIdMetadataDocuments: options.clientIdMetadataDocuments ?? true,
    identify: options.identify,
    accessTokenTtlSeconds: positive('accessTokenTtlSeconds', options.accessTokenTtlSeconds, 3_600),
    refreshTokenTtlSeconds: positive('refreshTokenTtlSeconds', options.refreshTokenTtlSeconds, 30 * 86_400),
    authorizationCodeTtlSeconds: positive('authorizationCodeTtlSeconds', options.authorizationCodeTtlSeconds, 60),
    transactionTtlSeconds: positive('transactionTtlSeconds', options.transactionTtlSeconds, 600),
    clientTtlSeconds:
      options.clientTtlSeconds === undefined ? undefined : positive('clientTtlSeconds', options.clientTtlSeconds, 0),
    store: options.store ?? new InMemoryOAuthProxyStore(options.now === undefined ? {} : { now: options.now }),
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    upstreamTimeoutMs: positive('upstreamTimeoutMs', options.upstreamTimeoutMs, 10_000),
    now: options.now ?? Date.now,
    secureCookies: issuerUrl.protocol === 'https:',
  };
}
