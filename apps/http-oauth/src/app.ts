// The protected MCP endpoint: bearer tokens checked against the authorization server's keys, the protected resource
// metadata that tells clients where to get them, and (in proxy mode) the OAuth proxy on the same origin.
import {
  createBearerAuth,
  createJwtVerifier,
  createOAuthProxy,
  createProtectedResourceMetadataHandler,
  type OAuthProxy,
} from '@mcpkit/auth/server';
import { createStreamableHttpHandler, type StreamableHttpHandler } from '@mcpkit/transport-http';
import { ADMIN_SCOPE, BASE_SCOPE, createMcpServer } from './mcp-server';

/** Where the MCP server's tokens come from. */
export type AuthMode =
  /** Straight from the authorization server (which supports DCR and RFC 8707 itself). */
  | { kind: 'direct'; issuer: string }
  /**
   * From an OAuth proxy served on the MCP server's own origin, in front of an identity provider that only knows one
   * pre-registered client (here the demo authorization server plays that provider).
   */
  | {
      kind: 'proxy';
      upstreamIssuer: string;
      upstreamClientId: string;
      upstreamClientSecret: string;
    };

/** Options of {@link createApp}. */
export interface AppOptions {
  /** The MCP endpoint's public URL, e.g. `http://127.0.0.1:3000/mcp`: the `resource` and the tokens' audience. */
  mcpUrl: string;
  auth: AuthMode;
  /** Clock tolerance of the token check, in seconds. Default 5 (the tests use 0 to see expiry at once). */
  clockToleranceSeconds?: number;
  /** Lifetime of the proxy's access tokens (proxy mode). Default 3 600 s. */
  proxyAccessTokenTtlSeconds?: number;
}

/** What {@link createApp} returns. */
export interface App {
  /** Answers every request of the MCP server's origin. */
  handle(request: Request): Promise<Response>;
  /** The MCP handler, to close on shutdown. */
  readonly mcp: StreamableHttpHandler;
  /** The OAuth proxy, in proxy mode. */
  readonly proxy: OAuthProxy | undefined;
  /** The issuer clients are sent to. */
  readonly issuer: string;
}

export const SCOPES = [BASE_SCOPE, ADMIN_SCOPE] as const;

/**
 * Builds the MCP server's origin as one web-standard handler.
 *
 * @example
 * const app = await createApp({ mcpUrl: 'http://127.0.0.1:3000/mcp', auth: { kind: 'direct', issuer: 'http://127.0.0.1:3001' } });
 * // node: toNodeHandler(app) from @mcpkit/transport-http/node
 */
export async function createApp(options: AppOptions): Promise<App> {
  const mcpUrl = new URL(options.mcpUrl);
  let proxy: OAuthProxy | undefined;
  let issuer: string;
  let verifier: ReturnType<typeof createJwtVerifier>;
  const clockToleranceSeconds = options.clockToleranceSeconds ?? 5;
  if (options.auth.kind === 'proxy') {
    const upstream = options.auth.upstreamIssuer;
    proxy = createOAuthProxy({
      issuer: mcpUrl.origin,
      resource: mcpUrl.href,
      scopesSupported: [...SCOPES],
      upstream: {
        authorizationEndpoint: `${upstream}/authorize`,
        tokenEndpoint: `${upstream}/token`,
        clientId: options.auth.upstreamClientId,
        clientSecret: options.auth.upstreamClientSecret,
        issuer: upstream,
        // The provider knows nothing of MCP scopes; the proxy asks it for the user's identity only.
        scope: 'openid',
      },
      ...(options.proxyAccessTokenTtlSeconds === undefined
        ? {}
        : { accessTokenTtlSeconds: options.proxyAccessTokenTtlSeconds }),
    });
    issuer = proxy.issuer;
    // Same process: the proxy's public keys are read directly, no HTTP round trip.
    const keySet = await proxy.jwks();
    verifier = createJwtVerifier({ issuer, keySet, clockToleranceSeconds, typ: 'at+jwt' });
  } else {
    issuer = options.auth.issuer;
    verifier = createJwtVerifier({ issuer, jwksUrl: `${issuer}/jwks`, clockToleranceSeconds });
  }

  const bearer = createBearerAuth({
    resource: mcpUrl.href,
    verifier,
    requiredScopes: [BASE_SCOPE],
    toolScopes: { admin_report: [ADMIN_SCOPE] },
  });
  const metadata = createProtectedResourceMetadataHandler({
    resource: mcpUrl.href,
    authorizationServers: [issuer],
    scopesSupported: [...SCOPES],
    resourceName: 'mcpkit OAuth sample',
  });
  const server = createMcpServer();
  server.use(bearer.middleware); // per-tool scopes: a refusal is an HTTP 403 with the challenge, before anything runs
  const mcp = createStreamableHttpHandler(server);
  const protectedMcp = bearer.protect(mcp);

  return {
    mcp,
    proxy,
    issuer,
    async handle(request) {
      if (metadata.matches(request)) return metadata.handle(request);
      const fromProxy = proxy === undefined ? undefined : await proxy.handle(request);
      if (fromProxy !== undefined) return fromProxy;
      if (new URL(request.url).pathname === mcpUrl.pathname) return protectedMcp.handle(request);
      return new Response('Not Found', { status: 404 });
    },
  };
}
