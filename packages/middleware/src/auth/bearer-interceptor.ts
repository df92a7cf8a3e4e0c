import type { Interceptor } from '@mcpkit/jsonrpc-core';
import { BearerErrorCode, bearerJsonRpcError } from './bearer-errors';
import { missingScopes } from './scopes';
import type { ToolScopes } from './tool-scopes';

/** What the interceptor needs from bearer auth. */
export interface BearerInterceptorConfig {
  toolScopes: ToolScopes;
  resourceMetadataUrl: string;
  /** The scopes a connection needs at all (named in the challenge of an expired token). */
  requiredScopes: readonly string[];
}

/**
 * Bearer auth for connections authenticated once and then carrying many requests (WebSocket): each inbound request is
 * checked against the identity the transport attached (`ctx.info.auth`). A token that expired since the connection
 * opened refuses every request (401, `invalid_token`); a `tools/call` whose tool needs scopes the token lacks is
 * refused (403, `insufficient_scope`); a scoped tool on an anonymous connection is refused (401, `unauthorized`).
 * Refusals are JSON-RPC errors (see {@link BearerErrorCode}); nothing reaches the handler.
 */
export function createBearerInterceptor(config: BearerInterceptorConfig): Interceptor {
  const { toolScopes, resourceMetadataUrl, requiredScopes } = config;
  return {
    inboundRequest(request, ctx, next) {
      const auth = ctx.info.auth;
      if (auth?.expiresAt !== undefined && auth.expiresAt <= Date.now() / 1000) {
        throw bearerJsonRpcError(
          BearerErrorCode.Unauthorized,
          'The access token of this connection expired; connect again with a fresh token',
          { error: 'invalid_token', scopes: [...requiredScopes], resourceMetadata: resourceMetadataUrl },
        );
      }
      const need = toolScopes.needOf(request);
      if (need === undefined) return next();
      if (auth === undefined) {
        throw bearerJsonRpcError(
          BearerErrorCode.Unauthorized,
          `The tool "${need.tool}" needs an OAuth access token; connect with Authorization: Bearer <token>`,
          { error: 'unauthorized', scopes: [...need.scopes], tool: need.tool, resourceMetadata: resourceMetadataUrl },
        );
      }
      const missing = missingScopes(auth.scopes, need.scopes);
      if (missing.length === 0) return next();
      throw bearerJsonRpcError(
        BearerErrorCode.InsufficientScope,
        `Insufficient scope: the tool "${need.tool}" needs ${missing.join(' ')}, which this connection's token lacks; ` +
          `get a token with "${need.scopes.join(' ')}" and connect again`,
        {
          error: 'insufficient_scope',
          scopes: [...need.scopes],
          missingScopes: missing,
          tool: need.tool,
          resourceMetadata: resourceMetadataUrl,
        },
      );
    },
  };
}
