import type { AuthInfo } from '@mcpkit/jsonrpc-core';
import { isModernVersion } from '@mcpkit/protocol';
import type { McpToolServer, Server } from '@mcpkit/server';
import {
  createStreamableHttpHandler,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from '@mcpkit/transport-http';
import type { DurableObjectNamespaceLike, ExecutionContextLike } from './platform';
import { AUTH_HEADER, publicSessionId, splitSessionId } from './routing';

// The Worker's fetch: stateless requests (2026-07-28, and legacy requests outside a session) are answered in the
// isolate that received them; a legacy `initialize` opens a new Durable Object, and every later request of that
// session goes to it by the object id inside its `Mcp-Session-Id`. Nothing else is shared, so any isolate, anywhere,
// serves any request.

/** What the Worker's `authenticate` hook may answer: an identity, nothing (anonymous), or a refusal to send as is. */
export type WorkerAuthResult = AuthInfo | Response | undefined;

/** Options for {@link createMcpWorker}. */
export interface McpWorkerOptions<Env> {
  /**
   * Builds the server once per isolate (and environment), on the first request the isolate receives; it may be
   * async (the first request waits for it).
   */
  server: (env: Env) => McpToolServer | Server | Promise<McpToolServer | Server>;
  /**
   * The name of the Durable Object binding of {@link defineMcpSessionObject} in `env` (e.g. `'MCP_SESSIONS'`). With
   * it, legacy clients get sessions (server→client requests, the GET stream, resumption, subscriptions); without it,
   * every legacy request is served on its own (legacy stateless mode).
   */
  sessions?: string;
  /**
   * Serve every request without a session in one Durable Object instead of the isolate that got it: the name of a
   * binding of {@link defineMcpSessionObject}'s class (it may be the `sessions` one). Isolates share no memory and
   * workerd forbids a request to touch another request's streams or signals, so in the isolates a 2026-07-28
   * `subscriptions/listen` stream hears only the changes made in its own isolate, and `tasks/cancel` cannot stop a task
   * another request started; in one object both work. The price: one object's throughput for all of those requests. Legacy requests without a
   * session then need one (400), as with `createStreamableHttpHandler`'s default.
   */
  hub?: string;
  /** The MCP endpoint's path; other paths get 404. Default `/mcp`. */
  path?: string;
  /**
   * Authenticates each request before anything else runs (e.g. `bearer.authenticate` of `@mcpkit/middleware`, which
   * uses Web Crypto only). A `Response` is sent as is (401 with `WWW-Authenticate`); the identity reaches handlers
   * as `ctx.auth`, in the Worker and in the session object.
   */
  authenticate?: (request: Request, env: Env) => WorkerAuthResult | Promise<WorkerAuthResult>;
  /**
   * Work the Worker keeps running after each response (`ctx.waitUntil`), e.g. `TaskObjectStore.settled()` so a task
   * started by a request runs to its end after the request's response went out.
   */
  waitUntil?: (env: Env) => Promise<unknown> | undefined;
  /** Options of the stateless handler in the Worker (`sessions` is always off there). */
  handler?: Omit<StreamableHttpHandlerOptions, 'sessions' | 'sessionStore' | 'bus'>;
}

/** The object a Worker module exports as default. */
export interface McpWorker<Env> {
  fetch(request: Request, env: Env, ctx?: ExecutionContextLike): Promise<Response>;
}

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

function jsonRpcError(status: number, message: string, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

const SESSION_NOT_FOUND = 'Session not found: it expired, was deleted, or never existed; initialize again';

/**
 * A Cloudflare Worker that serves one MCP server at `/mcp`, in both protocol eras. 2026-07-28 requests and legacy
 * stateless requests need no setup; name a Durable Object binding in `sessions` to give legacy clients sessions, each
 * held by its own object.
 *
 * @example
 * import { createMcpWorker, defineMcpSessionObject } from '@mcpkit/cloudflare';
 * import { buildServer } from './server';
 *
 * export const McpSession = defineMcpSessionObject({ server: buildServer });
 * export default createMcpWorker({ server: buildServer, sessions: 'MCP_SESSIONS' });
 */
export function createMcpWorker<Env = Record<string, unknown>>(options: McpWorkerOptions<Env>): McpWorker<Env> {
  const path = options.path ?? '/mcp';
  const maxBodyBytes = options.handler?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // An isolate may serve several environments in tests; one handler per env object, built on first use.
  const handlers = new WeakMap<object, Promise<StreamableHttpHandler>>();
  const handlerFor = (env: Env): Promise<StreamableHttpHandler> => {
    const key = (env ?? handlers) as object;
    let handler = handlers.get(key);
    if (handler === undefined) {
      handler = Promise.resolve(options.server(env)).then((server) =>
        createStreamableHttpHandler(server, { ...options.handler, sessions: false }),
      );
      handlers.set(key, handler);
      // A factory that failed is tried again by the next request.
      handler.catch(() => handlers.delete(key));
    }
    return handler;
  };

  return {
    async fetch(request, env, ctx) {
      const response = await route(request, env);
      const pending = options.waitUntil?.(env);
      if (pending !== undefined) ctx?.waitUntil(pending);
      return response;
    },
  };

  async function route(request: Request, env: Env): Promise<Response> {
    if (new URL(request.url).pathname !== path) return jsonRpcError(404, `Not found: the MCP endpoint is ${path}`);
    let auth: AuthInfo | undefined;
    if (options.authenticate !== undefined) {
      const outcome = await options.authenticate(request, env);
      if (outcome instanceof Response) return outcome;
      auth = outcome;
    }
    const namespace =
      options.sessions === undefined
        ? undefined
        : ((env as Record<string, unknown>)[options.sessions] as DurableObjectNamespaceLike | undefined);
    if (options.sessions !== undefined && namespace === undefined) {
      throw new TypeError(
        `createMcpWorker: env.${options.sessions} is not bound; declare the Durable Object binding in wrangler.toml`,
      );
    }
    const sessionHeader = request.headers.get('mcp-session-id');
    if (namespace !== undefined && sessionHeader !== null) {
      return toSession(namespace, request, sessionHeader, auth);
    }
    const hub = options.hub === undefined ? undefined : bindingOf(env, options.hub);
    const stateless = async (forward: Request): Promise<Response> =>
      hub !== undefined
        ? hub.get(hub.idFromName(HUB_NAME)).fetch(withAuth(forward, auth))
        : (await handlerFor(env)).handle(forward, auth === undefined ? undefined : { auth });
    // The Worker's one look at the era, a cheap filter: only a POST without a session and without a 2026-07-28
    // header may be a legacy `initialize`, so only its body is read here. Everything else about the era (the `_meta`
    // envelope, a batch) is decided by transport-http's handler, in the isolate, the hub or the session object.
    const mayOpenSession =
      request.method === 'POST' &&
      sessionHeader === null &&
      !isModernVersion(request.headers.get('mcp-protocol-version'));
    if (!mayOpenSession) return stateless(request);
    if (namespace === undefined)
      return (await handlerFor(env)).handle(request, auth === undefined ? undefined : { auth });
    // A legacy POST without a session: only `initialize` opens one. The body is read here (bounded) to tell.
    const text = await readBounded(request, maxBodyBytes);
    if (text === undefined) {
      return jsonRpcError(413, `Payload Too Large: the request body exceeds ${maxBodyBytes} bytes`);
    }
    const forward = new Request(request.url, { method: 'POST', headers: request.headers, body: text });
    if (!opensSession(text)) return stateless(forward);
    const objectId = namespace.newUniqueId();
    return fromSession(objectId.toString(), await namespace.get(objectId).fetch(withAuth(forward, auth)));
  }
}

const HUB_NAME = 'mcpkit-hub';

function bindingOf(env: unknown, name: string): DurableObjectNamespaceLike {
  const binding = (env as Record<string, unknown>)[name] as DurableObjectNamespaceLike | undefined;
  if (binding === undefined) {
    throw new TypeError(
      `createMcpWorker: env.${name} is not bound; declare the Durable Object binding in wrangler.toml`,
    );
  }
  return binding;
}

async function toSession(
  namespace: DurableObjectNamespaceLike,
  request: Request,
  header: string,
  auth: AuthInfo | undefined,
): Promise<Response> {
  const parts = splitSessionId(header);
  let id: ReturnType<DurableObjectNamespaceLike['idFromString']> | undefined;
  if (parts !== undefined) {
    try {
      id = namespace.idFromString(parts.objectId);
    } catch {
      id = undefined; // not an id of this namespace
    }
  }
  if (parts === undefined || id === undefined) return jsonRpcError(404, SESSION_NOT_FOUND);
  const headers = new Headers(request.headers);
  headers.set('mcp-session-id', parts.sessionId);
  return fromSession(parts.objectId, await namespace.get(id).fetch(withAuth(new Request(request, { headers }), auth)));
}

/** The object's answer with the session id the client must send back (the handler names its session on every answer). */
function fromSession(objectId: string, response: Response): Response {
  const sessionId = response.headers.get('mcp-session-id');
  if (sessionId === null) return response;
  const headers = new Headers(response.headers);
  headers.set('mcp-session-id', publicSessionId(objectId, sessionId));
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

function withAuth(request: Request, auth: AuthInfo | undefined): Request {
  const headers = new Headers(request.headers);
  headers.delete(AUTH_HEADER);
  if (auth !== undefined) headers.set(AUTH_HEADER, JSON.stringify(auth));
  return new Request(request, { headers });
}

/**
 * Whether a body is (or, in a batch, holds) `initialize`. One with a 2026-07-28 envelope opens no session either: the
 * object's handler reads the envelope, answers it by the 2026-07-28 rules and mints no session id.
 */
function opensSession(text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false; // the stateless handler answers the parse error
  }
  const messages = Array.isArray(value) ? value : [value];
  return messages.some(
    (message) =>
      message !== null && typeof message === 'object' && (message as { method?: unknown }).method === 'initialize',
  );
}

/** The body as text, or `undefined` once it passes `limit` bytes (nothing more is read). */
async function readBounded(request: Request, limit: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) return undefined;
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
