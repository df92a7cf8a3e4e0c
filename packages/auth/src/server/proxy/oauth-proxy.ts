// createOAuthProxy: the routes of an OAuth authorization server that fronts an existing identity provider.
import type { JSONWebKeySet } from 'jose';
import { handleAuthorize, handleConsent } from './authorize';
import { handleCallback } from './callback';
import { CORS_HEADERS, jsonResponse, oauthErrorResponse } from './http';
import { buildProxyMetadata, type ProxyAuthorizationServerMetadata } from './metadata';
import { type OAuthProxyOptions, resolveProxyConfig } from './options';
import { ProxyState } from './records';
import { handleRegister } from './registration';
import { handleToken } from './token-endpoint';
import { TokenSigner } from './token-signer';

/** An OAuth authorization server in front of an upstream identity provider. See {@link createOAuthProxy}. */
export interface OAuthProxy {
  /** The issuer: put it in the protected resource metadata's `authorization_servers`. */
  readonly issuer: string;
  /** The RFC 8414 metadata the proxy serves. */
  readonly metadata: ProxyAuthorizationServerMetadata;
  /** The callback URL to register at the upstream provider as the proxy client's redirect URI. */
  readonly callbackUrl: string;
  /**
   * Answers a request for one of the proxy's paths, or resolves to undefined for any other path (so it composes with
   * the MCP endpoint: `(await proxy.handle(req)) ?? mcp.handle(req)`).
   */
  handle(request: Request): Promise<Response | undefined>;
  /** The public keys access tokens are signed with (also served at `jwks_uri`), for an in-process verifier. */
  jwks(): Promise<JSONWebKeySet>;
}

/** Options of {@link createOAuthProxy}, plus a sink for failures it answers with a 500. */
export interface CreateOAuthProxyOptions extends OAuthProxyOptions {
  /** Called with unexpected errors (a failing store), which are answered `500 server_error`. */
  onError?: (error: unknown) => void;
}

/**
 * Creates an OAuth 2.1 authorization server that MCP clients can use, in front of an identity provider that lacks what
 * they need (Dynamic Client Registration, Client ID Metadata Documents, RFC 8707 resource indicators). MCP clients
 * register here; the proxy signs the user in upstream as its one pre-registered client, then issues its own
 * short-lived codes and JWT access tokens whose audience is the MCP server.
 *
 * @example
 * ```ts
 * const proxy = createOAuthProxy({
 *   issuer: 'https://mcp.example.com',
 *   resource: 'https://mcp.example.com/mcp',
 *   scopesSupported: ['mcp:tools'],
 *   upstream: {
 *     authorizationEndpoint: 'https://idp.example.com/authorize',
 *     tokenEndpoint: 'https://idp.example.com/oauth/token',
 *     clientId: process.env.IDP_CLIENT_ID!,
 *     clientSecret: process.env.IDP_CLIENT_SECRET,
 *     scope: 'openid profile',
 *   },
 * });
 * // Register proxy.callbackUrl as the redirect URI of that client at the identity provider, then:
 * const fetchHandler = async (req: Request) => (await proxy.handle(req)) ?? mcpEndpoint(req);
 * ```
 */
export function createOAuthProxy(options: CreateOAuthProxyOptions): OAuthProxy {
  const config = resolveProxyConfig(options);
  const state = new ProxyState(config.store);
  const signer = new TokenSigner(options.signingKey);
  const metadata = buildProxyMetadata(config);
  const { endpoints } = config;
  const paths = new Map<string, { methods: string; cors: boolean }>([
    [endpoints.metadata.pathname, { methods: 'GET', cors: true }],
    [endpoints.jwks.pathname, { methods: 'GET', cors: true }],
    [endpoints.register.pathname, { methods: 'POST', cors: true }],
    [endpoints.token.pathname, { methods: 'POST', cors: true }],
    [endpoints.authorize.pathname, { methods: 'GET, POST', cors: false }],
    [endpoints.callback.pathname, { methods: 'GET', cors: false }],
  ]);

  const route = async (request: Request, path: string): Promise<Response> => {
    const method = request.method;
    if (path === endpoints.metadata.pathname && method === 'GET')
      return jsonResponse(metadata, 200, { 'cache-control': 'max-age=3600' });
    if (path === endpoints.jwks.pathname && method === 'GET')
      return jsonResponse(await signer.jwks(), 200, { 'cache-control': 'max-age=300' });
    if (path === endpoints.register.pathname && method === 'POST') return handleRegister(request, config, state);
    if (path === endpoints.token.pathname && method === 'POST') return handleToken(request, config, signer, state);
    if (path === endpoints.authorize.pathname && method === 'GET') return handleAuthorize(request, config, state);
    if (path === endpoints.authorize.pathname && method === 'POST') return handleConsent(request, config, state);
    if (path === endpoints.callback.pathname && method === 'GET') return handleCallback(request, config, state);
    const allowed = paths.get(path);
    if (method === 'OPTIONS' && allowed?.cors) return new Response(null, { status: 204, headers: CORS_HEADERS });
    return new Response(null, { status: 405, headers: { allow: allowed?.methods ?? '' } });
  };

  return {
    issuer: config.issuer,
    metadata,
    callbackUrl: endpoints.callback.href,
    async handle(request) {
      const url = new URL(request.url);
      // Matched by path only: behind a reverse proxy, request.url may name an internal host.
      if (!paths.has(url.pathname)) return undefined;
      try {
        return await route(request, url.pathname);
      } catch (error) {
        options.onError?.(error);
        return oauthErrorResponse(500, 'server_error', 'The authorization server failed; try again later');
      }
    },
    jwks: () => signer.jwks(),
  };
}
