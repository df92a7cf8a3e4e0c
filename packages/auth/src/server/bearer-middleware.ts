import type { AuthInfo, JsonRpcError } from '@mcpkit/jsonrpc-core';
import type { ServerMiddleware } from '@mcpkit/server';
import { BearerErrorCode, bearerJsonRpcError } from './bearer-errors';
import type { ScopeNeed, ScopeTable } from './scope-table';
import { missingScopes } from './scopes';

/** What the per-request check needs from bearer auth. */
export interface BearerCheckConfig {
  scopes: ScopeTable;
  resourceMetadataUrl: string;
  /** The scopes a connection needs at all (named in the challenge of an expired token). */
  requiredScopes: readonly string[];
}

const WHAT: Record<ScopeNeed['kind'], string> = { tool: 'tool', prompt: 'prompt', resource: 'resource' };

/**
 * The one per-request authorization check of bearer auth, for every transport: a token that expired since it was
 * verified (a long-lived connection) refuses every request (401, `invalid_token`); a call of a tool, prompt or
 * resource that needs scopes the token lacks is refused (403, `insufficient_scope`), and on an anonymous request
 * (401, `unauthorized`). Returns the JSON-RPC error ({@link BearerErrorCode}, `data` with the challenge), or
 * `undefined` to let the request through.
 */
export function bearerRefusal(
  config: BearerCheckConfig,
  method: string,
  params: unknown,
  auth: AuthInfo | undefined,
): JsonRpcError | undefined {
  const { scopes, resourceMetadataUrl, requiredScopes } = config;
  if (auth?.expiresAt !== undefined && auth.expiresAt <= Date.now() / 1000) {
    return bearerJsonRpcError(BearerErrorCode.Unauthorized, 'The access token expired; get a fresh token', {
      error: 'invalid_token',
      scopes: [...requiredScopes],
      resourceMetadata: resourceMetadataUrl,
    });
  }
  const need = scopes.needOf(method, params);
  if (need === undefined) return undefined;
  const subject = `The ${WHAT[need.kind]} "${need.name}"`;
  const about =
    need.kind === 'tool'
      ? { tool: need.name }
      : need.kind === 'prompt'
        ? { prompt: need.name }
        : { resource: need.name };
  if (auth === undefined) {
    return bearerJsonRpcError(
      BearerErrorCode.Unauthorized,
      `${subject} needs an OAuth access token; send Authorization: Bearer <token>`,
      { error: 'unauthorized', scopes: [...need.scopes], ...about, resourceMetadata: resourceMetadataUrl },
    );
  }
  const missing = missingScopes(auth.scopes, need.scopes);
  if (missing.length === 0) return undefined;
  return bearerJsonRpcError(
    BearerErrorCode.InsufficientScope,
    `Insufficient scope: ${subject.toLowerCase()} needs ${missing.join(' ')}, which the token lacks; get a token with "${need.scopes.join(' ')}"`,
    {
      error: 'insufficient_scope',
      scopes: [...need.scopes],
      missingScopes: missing,
      ...about,
      resourceMetadata: resourceMetadataUrl,
    },
  );
}

/** The per-request check as server middleware: `mcp.use(bearer.middleware)` covers every transport. */
export function bearerMiddleware(config: BearerCheckConfig): ServerMiddleware {
  return (ctx, next) => {
    if (ctx.kind !== 'request') return next();
    const refusal = bearerRefusal(config, ctx.method, ctx.params, ctx.auth);
    if (refusal !== undefined) throw refusal;
    return next();
  };
}
