import { Gateway, type UpstreamConnection } from '@mcpkit/gateway';
import type { AuthInfo } from '@mcpkit/jsonrpc-core';
import { createBearerAuth, TokenVerificationError } from '@mcpkit/middleware';
import { rateLimit } from '@mcpkit/middleware/rate-limit';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/transport-http';

/** What the gateway mounts: one upstream per namespace. */
export interface GatewayUpstreams {
  /** apps/quickstart over stdio. */
  quick: UpstreamConnection;
  /** apps/everything-server over Streamable HTTP. */
  everything: UpstreamConnection;
  /** apps/websocket's server over WebSocket. */
  ws: UpstreamConnection;
}

/** Options of `createGatewayApp`. */
export interface GatewayAppOptions {
  /** Where the gateway itself is reached (the RFC 8707 resource its tokens must name). */
  resource: URL;
  upstreams: GatewayUpstreams;
  /** The bearer tokens the gateway accepts, each with the user it stands for. */
  tokens: Record<string, string>;
  /** Calls each user may make: a burst, then a steady rate. Default 20, then 10 per second. */
  limit?: { capacity: number; refillPerSecond: number };
}

/**
 * The gateway app: a Streamable HTTP handler in front of one `McpServer` into which three upstreams are mounted.
 * Each request is authenticated here (the token never travels upstream: each upstream is reached with the gateway's
 * own connection) and limited per user before any upstream sees it.
 */
export async function createGatewayApp(options: GatewayAppOptions) {
  const server = new McpServer(
    { name: 'mcpkit-gateway-sample', version: '1.0.0' },
    { instructions: 'One endpoint for three servers: quick_* (the trattoria), everything_*, ws_*.' },
  );
  const bearer = createBearerAuth({
    resource: options.resource,
    verifier: {
      async verify(token): Promise<AuthInfo> {
        const subject = Object.hasOwn(options.tokens, token) ? options.tokens[token] : undefined;
        if (subject === undefined) {
          throw new TokenVerificationError('invalid_token', 'Unknown token', { reason: 'inactive' });
        }
        return { token, subject, scopes: [] };
      },
    },
  });
  server.use(bearer.middleware);
  server.use(rateLimit({ limit: options.limit ?? { capacity: 20, refillPerSecond: 10 } }));
  const gateway = new Gateway(server);
  await Promise.all([
    gateway.mount('quick', options.upstreams.quick),
    gateway.mount('everything', options.upstreams.everything),
    gateway.mount('ws', options.upstreams.ws),
  ]);
  const handler = bearer.protect(createStreamableHttpHandler(server));
  return {
    server,
    gateway,
    /** The protected Streamable HTTP handler (serve it with `listen` from `@mcpkit/transport-http/node`). */
    handler,
    async close() {
      await handler.close();
      await gateway.close();
      await server.close();
    },
  };
}
