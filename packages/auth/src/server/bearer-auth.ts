import type { AuthInfo } from '@mcpkit/jsonrpc-core';
import type { ServerMiddleware } from '@mcpkit/server';
import { type AuthRefusal, authRefusal, BuiltRefusal, refusalResponse } from './auth-responses';
import type { BearerErrorData } from './bearer-errors';
import { bearerMiddleware } from './bearer-middleware';
import { type BearerTokenResult, readBearerToken } from './bearer-token';
import { AuthConfigError, TokenVerificationError } from './errors';
import { type NodeRequestLike, readNodeBearerToken } from './node-request';
import { parseResourceUrl, protectedResourceMetadataUrl } from './resource-metadata';
import { type ScopeRules, ScopeTable } from './scope-table';
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
   * Extra scopes per tool, checked on `tools/call` (step-up: the client is told with a 403 which scopes to get), by
   * exact name or glob (`delete_*`). Checked by `bearer.middleware` (install it with `mcp.use(bearer.middleware)`:
   * every transport runs it; over HTTP the refusal is an HTTP 403 with the challenge, before anything runs).
   */
  toolScopes?: ScopeRules;
  /** Extra scopes per prompt, checked on `prompts/get` (by name or glob), as `toolScopes`. */
  promptScopes?: ScopeRules;
  /**
   * Extra scopes per resource, checked on `resources/read`, `resources/subscribe` and `resources/unsubscribe` (by
   * URI or glob such as `file:///private/*`), as `toolScopes`.
   */
  resourceScopes?: ScopeRules;
  /** The `scope` of 401 challenges (what a client without a token should ask for). Default `requiredScopes`. */
  challengeScopes?: readonly string[];
  /** Told when a token could not be checked (verifier unavailable or failing), to log it. */
  onError?: (error: unknown) => void;
}

/** Anything with the web-standard `handle` of `createStreamableHttpHandler` (or `withCors` around it). */
export interface AuthenticatedHandler {
  handle(request: Request, extra?: { auth?: AuthInfo }): Promise<Response>;
}

/** What `createWebSocketServer` (from `@mcpkit/transport-websocket/node`) needs for bearer auth: spread it in. */
export interface BearerWebSocketOptions {
  /** Checks the upgrade request: the identity, or the 400/401/403/503 answer sent instead of upgrading. */
  authenticate: (request: NodeRequestLike) => Promise<AuthInfo | AuthRefusal>;
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
   * {@link BearerAuth.authenticate} for a Node request (`IncomingMessage`, or a WebSocket upgrade request), without
   * building a web `Request`: the refusal comes as plain data (status, headers, body). The verifier is called without
   * `context.request`. A plain function (no `this`).
   *
   * @example
   * const auth = await bearer.authenticateNode(req);
   * if ('status' in auth) return void res.writeHead(auth.status, auth.headers).end(auth.body);
   */
  readonly authenticateNode: (request: NodeRequestLike) => Promise<AuthInfo | AuthRefusal>;
  /**
   * The per-request authorization of every transport, as server middleware: refuses, with a JSON-RPC error
   * ({@link BearerErrorCode}, `data` as {@link BearerErrorData}), a call of a tool, prompt or resource that needs
   * scopes the token lacks (403) or made without a token (401), and any request once a long-lived connection's token
   * expired (401). Install it once: `mcp.use(bearer.middleware)`.
   */
  readonly middleware: ServerMiddleware;
  /**
   * `authenticate` for `createWebSocketServer` (refusals at the upgrade). Per-request checks are
   * {@link BearerAuth.middleware}: install it on the server as well.
   *
   * @example
   * mcp.use(bearer.middleware);
   * await createWebSocketServer(mcp, { port: 3000, ...bearer.forWebSocket() });
   */
  forWebSocket(): BearerWebSocketOptions;
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
 * per-tool scopes with step-up. Works in front of Streamable HTTP, legacy HTTP+SSE and WebSocket.
 *
 * @example
 * const bearer = createBearerAuth({
 *   resource: 'https://mcp.example.com/mcp',
 *   verifier: createJwtVerifier({ issuer: 'https://auth.example.com', jwksUrl: 'https://auth.example.com/jwks' }),
 *   requiredScopes: ['mcp:tools'],
 *   toolScopes: { delete_file: ['files:write'] },
 * });
 * server.use(bearer.middleware); // per-tool scopes on every transport (HTTP: 403 before anything runs)
 * const mcp = bearer.protect(createStreamableHttpHandler(server));
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
  const scopes = new ScopeTable(requiredScopes, {
    tools: options.toolScopes,
    prompts: options.promptScopes,
    resources: options.resourceScopes,
  });
  const checkConfig = { scopes, resourceMetadataUrl, requiredScopes };

  const unauthorized = (): BuiltRefusal =>
    authRefusal(401, 'unauthorized', 'This MCP server needs an OAuth access token (Authorization: Bearer)', {
      resourceMetadata: resourceMetadataUrl,
      scope: challengeScopes,
    });

  const insufficient = (needed: readonly string[], missing: readonly string[]): BuiltRefusal => {
    const description = `The token lacks the scope${missing.length === 1 ? '' : 's'} ${missing.join(' ')}`;
    return authRefusal(403, 'insufficient_scope', description, {
      error: 'insufficient_scope',
      errorDescription: description,
      resourceMetadata: resourceMetadataUrl,
      scope: needed,
    });
  };

  const invalidToken = (description: string): BuiltRefusal =>
    authRefusal(401, 'invalid_token', description, {
      error: 'invalid_token',
      errorDescription: description,
      resourceMetadata: resourceMetadataUrl,
      scope: challengeScopes,
    });

  // The one check behind both entry points: web `Request` and Node request differ only in how the token is read.
  async function check(read: BearerTokenResult, request: Request | undefined): Promise<AuthInfo | BuiltRefusal> {
    if (read.kind === 'missing') return unauthorized();
    if (read.kind === 'malformed') {
      return authRefusal(400, 'invalid_request', read.reason, {
        error: 'invalid_request',
        errorDescription: read.reason,
        resourceMetadata: resourceMetadataUrl,
      });
    }
    let auth: AuthInfo;
    try {
      auth = await verifier.verify(read.token, request === undefined ? { resource } : { resource, request });
    } catch (error) {
      if (error instanceof TokenVerificationError && error.code === 'invalid_token') {
        return invalidToken(error.message);
      }
      onError(error);
      if (error instanceof TokenVerificationError) {
        return authRefusal(503, 'temporarily_unavailable', error.message, undefined);
      }
      return authRefusal(500, 'server_error', 'The access token could not be checked', undefined);
    }
    // Verifiers of your own may not check expiry; a token past its exp is never accepted here.
    if (auth.expiresAt !== undefined && auth.expiresAt <= nowSeconds()) {
      return invalidToken('The token expired; get a new one');
    }
    const missing = missingScopes(auth.scopes, requiredScopes);
    if (missing.length > 0) return insufficient(requiredScopes, missing);
    return auth;
  }

  async function authenticate(request: Request): Promise<AuthInfo | Response> {
    const result = await check(readBearerToken(request), request);
    return result instanceof BuiltRefusal ? refusalResponse(result) : result;
  }

  const authenticateNode = (request: NodeRequestLike): Promise<AuthInfo | AuthRefusal> =>
    check(readNodeBearerToken(request), undefined);

  const middleware = bearerMiddleware(checkConfig);
  const webSocket: BearerWebSocketOptions = Object.freeze({ authenticate: authenticateNode });

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

  return {
    resource,
    resourceMetadataUrl,
    authenticate,
    authenticateNode,
    middleware,
    forWebSocket: () => webSocket,
    protect,
  };
}
