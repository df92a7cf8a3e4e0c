import type { AuthInfo, JsonRpcRequest } from '@mcpkit/jsonrpc-core';
import { authErrorResponse } from './auth-responses';
import { readBearerToken } from './bearer-token';
import { AuthConfigError, TokenVerificationError } from './errors';
import { parseResourceUrl, protectedResourceMetadataUrl } from './resource-metadata';
import { missingScopes } from './scopes';
import type { TokenVerifier } from './token-verifier';

/** Options for {@link createBearerAuth}. */
export interface BearerAuthOptions {
  /** Checks tokens: `createJwtVerifier`, `createIntrospectionVerifier`, or yours. */
  verifier: TokenVerifier;
  /** The canonical URL of this MCP server (e.g. `https://mcp.example.com/mcp`): the audience tokens must carry. */
  resource: string | URL;
  /** Where clients find the protected resource metadata. Default: the path-inserted well-known URL of `resource`. */
  resourceMetadataUrl?: string;
  /** Scopes every request needs (403 `insufficient_scope` without them). Default none. */
  requiredScopes?: readonly string[];
  /**
   * Extra scopes per tool, checked on `tools/call` (step-up: the client is told with a 403 which scopes to get).
   * Needs the `authorize` hook of the Streamable HTTP handler: pass `bearer.authorize` there.
   */
  toolScopes?: Readonly<Record<string, readonly string[]>>;
  /** The `scope` of 401 challenges (what a client without a token should ask for). Default `requiredScopes`. */
  challengeScopes?: readonly string[];
  /** Told when a token could not be checked (verifier unavailable or failing), to log it. */
  onError?: (error: unknown) => void;
}

/** Anything with the web-standard `handle` of `createStreamableHttpHandler` (or `withCors` around it). */
export interface AuthenticatedHandler {
  handle(request: Request, extra?: { auth?: AuthInfo }): Promise<Response>;
}

/** Bearer-token protection for an MCP endpoint, built by {@link createBearerAuth}. */
export interface BearerAuth {
  /** The resource tokens must be issued for. */
  readonly resource: string;
  /** The `resource_metadata` URL sent in challenges. */
  readonly resourceMetadataUrl: string;
  /**
   * The identity of a request, or the answer that refuses it: 400 `invalid_request` (malformed header, token in the
   * query string), 401 (no token; `invalid_token`), 403 `insufficient_scope` (missing `requiredScopes`), 503/500
   * when the verifier could not decide.
   */
  authenticate(request: Request): Promise<AuthInfo | Response>;
  /**
   * The `authorize` hook for `createStreamableHttpHandler`: refuses a `tools/call` whose tool needs scopes the token
   * lacks with 403 `insufficient_scope` naming the scopes the call needs. A plain function (no `this`).
   */
  readonly authorize: (message: JsonRpcRequest, auth: AuthInfo | undefined) => Response | undefined;
  /**
   * Wraps a handler so every request is authenticated first and its identity passed on as `extra.auth` (and so to
   * `ctx.auth`). CORS preflights (OPTIONS) pass through unauthenticated. Other members of the handler stay reachable.
   */
  protect<H extends AuthenticatedHandler>(handler: H): H;
}

function nowSeconds(): number {
  return Date.now() / 1000;
}

/**
 * Protects an MCP endpoint with OAuth bearer tokens the way the MCP authorization spec asks: the token only from the
 * `Authorization` header, challenges that point at the protected resource metadata, audience-bound tokens, and
 * per-tool scopes with step-up.
 *
 * @example
 * const bearer = createBearerAuth({
 *   resource: 'https://mcp.example.com/mcp',
 *   verifier: createJwtVerifier({ issuer: 'https://auth.example.com', jwksUrl: 'https://auth.example.com/jwks' }),
 *   requiredScopes: ['mcp:tools'],
 *   toolScopes: { delete_file: ['files:write'] },
 * });
 * const mcp = bearer.protect(createStreamableHttpHandler(server, { authorize: bearer.authorize }));
 * // export default { fetch: (request) => mcp.handle(request) };
 */
export function createBearerAuth(options: BearerAuthOptions): BearerAuth {
  if (options.verifier === undefined || typeof options.verifier.verify !== 'function') {
    throw new AuthConfigError('`verifier` must be a TokenVerifier (createJwtVerifier, createIntrospectionVerifier)', {
      option: 'verifier',
    });
  }
  parseResourceUrl(options.resource);
  const resource = String(options.resource);
  const resourceMetadataUrl = options.resourceMetadataUrl ?? protectedResourceMetadataUrl(resource);
  const verifier = options.verifier;
  const requiredScopes = [...(options.requiredScopes ?? [])];
  const challengeScopes = [...(options.challengeScopes ?? requiredScopes)];
  const onError = options.onError ?? (() => undefined);
  // A Map, not the options object: a tool named "constructor" must not find Object.prototype.constructor.
  const toolScopes = new Map<string, readonly string[]>();
  for (const [tool, scopes] of Object.entries(options.toolScopes ?? {})) {
    toolScopes.set(tool, [...new Set([...requiredScopes, ...scopes])]);
  }

  const unauthorized = (): Response =>
    authErrorResponse(401, 'unauthorized', 'This MCP server needs an OAuth access token (Authorization: Bearer)', {
      resourceMetadata: resourceMetadataUrl,
      scope: challengeScopes,
    });

  const insufficient = (needed: readonly string[], missing: readonly string[]): Response => {
    const description = `The token lacks the scope${missing.length === 1 ? '' : 's'} ${missing.join(' ')}`;
    return authErrorResponse(403, 'insufficient_scope', description, {
      error: 'insufficient_scope',
      errorDescription: description,
      resourceMetadata: resourceMetadataUrl,
      scope: needed,
    });
  };

  const invalidToken = (description: string): Response =>
    authErrorResponse(401, 'invalid_token', description, {
      error: 'invalid_token',
      errorDescription: description,
      resourceMetadata: resourceMetadataUrl,
      scope: challengeScopes,
    });

  async function authenticate(request: Request): Promise<AuthInfo | Response> {
    const read = readBearerToken(request);
    if (read.kind === 'missing') return unauthorized();
    if (read.kind === 'malformed') {
      return authErrorResponse(400, 'invalid_request', read.reason, {
        error: 'invalid_request',
        errorDescription: read.reason,
        resourceMetadata: resourceMetadataUrl,
      });
    }
    let auth: AuthInfo;
    try {
      auth = await verifier.verify(read.token, { resource, request });
    } catch (error) {
      if (error instanceof TokenVerificationError && error.code === 'invalid_token') {
        return invalidToken(error.message);
      }
      onError(error);
      if (error instanceof TokenVerificationError) {
        return authErrorResponse(503, 'temporarily_unavailable', error.message, undefined);
      }
      return authErrorResponse(500, 'server_error', 'The access token could not be checked', undefined);
    }
    // Verifiers of your own may not check expiry; a token past its exp is never accepted here.
    if (auth.expiresAt !== undefined && auth.expiresAt <= nowSeconds()) {
      return invalidToken('The token expired; get a new one');
    }
    const missing = missingScopes(auth.scopes, requiredScopes);
    if (missing.length > 0) return insufficient(requiredScopes, missing);
    return auth;
  }

  const authorize = (message: JsonRpcRequest, auth: AuthInfo | undefined): Response | undefined => {
    if (message.method !== 'tools/call' || toolScopes.size === 0) return undefined;
    const name = (message.params as { name?: unknown } | undefined)?.name;
    if (typeof name !== 'string') return undefined;
    const needed = toolScopes.get(name);
    if (needed === undefined) return undefined;
    if (auth === undefined) {
      return authErrorResponse(401, 'unauthorized', `The tool "${name}" needs an OAuth access token`, {
        resourceMetadata: resourceMetadataUrl,
        scope: needed,
      });
    }
    const missing = missingScopes(auth.scopes, needed);
    return missing.length === 0 ? undefined : insufficient(needed, missing);
  };

  function protect<H extends AuthenticatedHandler>(handler: H): H {
    const handle = async (request: Request, extra?: { auth?: AuthInfo }): Promise<Response> => {
      if (request.method === 'OPTIONS') return handler.handle(request, extra);
      const auth = await authenticate(request);
      if (auth instanceof Response) return auth;
      return handler.handle(request, extra === undefined ? { auth } : { ...extra, auth });
    };
    // Everything but `handle` is the wrapped handler's own (bound: it may use private fields).
    return new Proxy(handler, {
      get(target, property) {
        if (property === 'handle') return handle;
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }

  return { resource, resourceMetadataUrl, authenticate, authorize, protect };
}
