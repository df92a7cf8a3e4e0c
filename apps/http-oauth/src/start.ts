// Listening and stopping: the demo authorization server and the MCP server, each on its own 127.0.0.1 port.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@mcpkit/transport-http/node';
import { type App, createApp, SCOPES } from './app';
import { type AuthorizationServer, createAuthorizationServer } from './authorization-server/authorization-server';
import { randomId } from './authorization-server/oauth-http';

/** Options of {@link start}. */
export interface StartOptions {
  /** Port of the MCP server; 0 picks a free one. Default 3000. */
  port?: number;
  /** Port of the demo authorization server; 0 picks a free one. Default 3001. */
  authorizationServerPort?: number;
  /**
   * `direct` (default): clients get tokens from the demo authorization server. `proxy`: from an OAuth proxy on the MCP
   * server's origin, with the demo authorization server playing an identity provider that has no DCR and no RFC 8707.
   */
  mode?: 'direct' | 'proxy';
  /** Access token lifetime (of the authorization server, and of the proxy in proxy mode). Default 3 600 s. */
  accessTokenTtlSeconds?: number;
  /** Clock tolerance of the token check. Default 5 s. */
  clockToleranceSeconds?: number;
  /** Where the demo authorization server's notes go. Default `console.log`. */
  log?: (line: string) => void;
}

/** The running servers from {@link start}. */
export interface RunningApp {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: URL;
  /** The issuer clients are sent to (the demo server, or the proxy on the MCP origin). */
  readonly issuer: string;
  readonly authorizationServer: AuthorizationServer;
  readonly app: App;
  close(): Promise<void>;
}

type Handler = (request: Request) => Promise<Response>;

/** Listens first (so port 0 has become a real port), and routes to a handler set once the URLs are known. */
async function listenLate(port: number): Promise<{ server: Server; origin: string; route(handler: Handler): void }> {
  let current: Handler = async () => new Response('starting', { status: 503 });
  const server = createServer(toNodeHandler({ handle: (request) => current(request) }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: actual } = server.address() as AddressInfo;
  return {
    server,
    origin: `http://127.0.0.1:${actual}`,
    route: (handler) => {
      current = handler;
    },
  };
}

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * Starts the demo authorization server and the protected MCP server on 127.0.0.1.
 *
 * @example
 * const running = await start({ port: 0, authorizationServerPort: 0 });
 * console.log(running.url.href);
 * await running.close();
 */
export async function start(options: StartOptions = {}): Promise<RunningApp> {
  const log = options.log ?? console.log;
  const asListener = await listenLate(options.authorizationServerPort ?? 3001);
  const mcpListener = await listenLate(options.port ?? 3000);
  const mcpUrl = `${mcpListener.origin}/mcp`;
  const mode = options.mode ?? 'direct';
  // In proxy mode the proxy is the one pre-registered client of the "identity provider", as it would be at a real one.
  const upstreamClient = {
    client_id: 'mcp-oauth-proxy',
    client_secret: randomId(),
    redirect_uris: [`${mcpListener.origin}/callback`],
  };

  const authorizationServer = await createAuthorizationServer({
    issuer: asListener.origin,
    resources: [mcpUrl],
    scopesSupported: [...SCOPES, 'openid'],
    ...(options.accessTokenTtlSeconds === undefined ? {} : { accessTokenTtlSeconds: options.accessTokenTtlSeconds }),
    clients: mode === 'proxy' ? [upstreamClient] : [],
    onApprove: log,
  });
  asListener.route(
    async (request) => (await authorizationServer.handle(request)) ?? new Response('Not Found', { status: 404 }),
  );

  const app = await createApp({
    mcpUrl,
    auth:
      mode === 'proxy'
        ? {
            kind: 'proxy',
            upstreamIssuer: asListener.origin,
            upstreamClientId: upstreamClient.client_id,
            upstreamClientSecret: upstreamClient.client_secret,
          }
        : { kind: 'direct', issuer: asListener.origin },
    ...(options.clockToleranceSeconds === undefined ? {} : { clockToleranceSeconds: options.clockToleranceSeconds }),
    ...(options.accessTokenTtlSeconds === undefined
      ? {}
      : { proxyAccessTokenTtlSeconds: options.accessTokenTtlSeconds }),
  });
  mcpListener.route((request) => app.handle(request));

  let closing: Promise<void> | undefined;
  return {
    url: new URL(mcpUrl),
    issuer: app.issuer,
    authorizationServer,
    app,
    close: () => {
      closing ??= (async () => {
        await app.mcp.close();
        await Promise.all([closeServer(mcpListener.server), closeServer(asListener.server)]);
      })();
      return closing;
    },
  };
}
