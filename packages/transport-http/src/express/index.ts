// @mcpkit/transport-http/express: the web-standard handler as express middleware.

import type { Request as ExpressRequest, Response as ExpressResponse, NextFunction } from 'express';
import { type NodeHandlerOptions, toNodeHandler, type WebHandler } from '../node/node-handler';

/** Options for {@link createExpressMiddleware}. */
export type ExpressMiddlewareOptions = NodeHandlerOptions;

/**
 * Express middleware around a Streamable HTTP handler. Mount it on your MCP path with `app.all`; it reads the raw
 * body itself (a preceding `express.json()` is fine too) and takes the identity from `req.auth`, where bearer-auth
 * middleware leaves it, or from the `auth` option, which may also answer a refusal (401/403) itself.
 *
 * @example
 * import express from 'express';
 * import { createStreamableHttpHandler } from '@mcpkit/transport-http';
 * import { createExpressMiddleware } from '@mcpkit/transport-http/express';
 * const app = express();
 * app.all('/mcp', createExpressMiddleware(createStreamableHttpHandler(server)));
 * app.listen(3000, '127.0.0.1');
 *
 * @example
 * // With @mcpkit/middleware's bearer auth: refusals (401/403 with WWW-Authenticate) are written as they are.
 * const bearer = createBearerAuth({ resource: 'https://mcp.example.com/mcp', verifier });
 * server.use(bearer.middleware); // per-tool scopes (HTTP 403 before anything runs)
 * const mcp = createStreamableHttpHandler(server);
 * app.all('/mcp', createExpressMiddleware(mcp, { auth: (_req, request) => bearer.authenticate(request) }));
 */
export function createExpressMiddleware(
  handler: WebHandler,
  options: ExpressMiddlewareOptions = {},
): (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => void {
  const listener = toNodeHandler(handler, options);
  return (req, res, next) => {
    listener(req, res).catch(next);
  };
}
