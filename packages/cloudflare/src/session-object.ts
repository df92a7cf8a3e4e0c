import type { RequestId } from '@mcpkit/jsonrpc-core';
import type { McpToolServer, Server, ServerSession } from '@mcpkit/server';
import {
  createStreamableHttpHandler,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from '@mcpkit/transport-http';
import { DurableObjectEventStore, type DurableObjectEventStoreOptions } from './event-store';
import type { DurableObjectStateLike } from './platform';
import { authFromHeader } from './routing';

// One Durable Object per legacy session. The object runs the ordinary Streamable HTTP handler with sessions on, so the
// session, its GET stream, its pending server→client requests and its subscriptions live in the object's memory, and
// its events (for Last-Event-ID) in the object's storage. Every request of the session reaches this one object, from
// any Worker isolate, so nothing needs sharing between instances.
//
// Hibernation, honestly: a Durable Object is evicted from memory after a while without requests. While an SSE stream
// of the session is open the object has a request in flight and stays; once nothing is open and it is evicted, the
// in-memory session ends with it, and the next request gets 404 (the spec's "initialize again"). The alarm then
// deletes the session's stored events, so an abandoned session leaves nothing behind.

/** What a session object's server may call on the handler that serves it (the handler is made after the server). */
export interface SessionObjectEndpoint {
  /** `closeSseStream` of the session's handler: ends a request's SSE stream (SSE polling); the client resumes. */
  closeSseStream(ctx: { session?: ServerSession | undefined; requestId: RequestId }): boolean;
}

/** Options for {@link defineMcpSessionObject}. */
export interface McpSessionObjectOptions<Env> {
  /** Builds the server for one session object (called once, when the object starts; it may be async). */
  server: (env: Env, endpoint: SessionObjectEndpoint) => McpToolServer | Server | Promise<McpToolServer | Server>;
  /** Options of the session's handler (sessions are always on; the event store is the object's storage). */
  handler?: Omit<StreamableHttpHandlerOptions, 'sessions' | 'eventStore' | 'sessionStore' | 'bus'>;
  /** Bounds of the stored events. */
  events?: DurableObjectEventStoreOptions;
}

/** The instance shape of a session object class: what workerd calls. */
export interface McpSessionObject {
  fetch(request: Request): Promise<Response>;
  alarm(): Promise<void>;
}

const DEFAULT_IDLE_MS = 30 * 60_000;

/**
 * The Durable Object class that holds one legacy MCP session. Export it from your Worker module under the class name
 * of your `durable_objects` binding, and name that binding in {@link createMcpWorker}'s `sessions`.
 *
 * @example
 * // worker.ts
 * export const McpSession = defineMcpSessionObject({ server: buildServer });
 * export default createMcpWorker({ server: buildServer, sessions: 'MCP_SESSIONS' });
 * // wrangler.toml
 * // [[durable_objects.bindings]]
 * // name = "MCP_SESSIONS"
 * // class_name = "McpSession"
 * // [[migrations]]
 * // tag = "v1"
 * // new_sqlite_classes = ["McpSession"]
 */
export function defineMcpSessionObject<Env = Record<string, unknown>>(
  options: McpSessionObjectOptions<Env>,
): new (
  state: DurableObjectStateLike,
  env: Env,
) => McpSessionObject {
  const idleMs = options.handler?.sessionIdleTimeoutMs ?? DEFAULT_IDLE_MS;
  return class McpSessionDurableObject implements McpSessionObject {
    readonly #state: DurableObjectStateLike;
    #handler: StreamableHttpHandler | undefined;
    readonly #ready: Promise<StreamableHttpHandler>;

    constructor(state: DurableObjectStateLike, env: Env) {
      this.#state = state;
      const endpoint: SessionObjectEndpoint = {
        closeSseStream: (ctx) => this.#handler?.closeSseStream(ctx) ?? false,
      };
      // No request reaches the object before its server is built (an async factory may load things first).
      this.#ready = state.blockConcurrencyWhile(async () => {
        this.#handler = createStreamableHttpHandler(await options.server(env, endpoint), {
          ...options.handler,
          sessions: true,
          // One object, one session: a second `initialize` here would be a session nobody can route to.
          maxSessions: 1,
          eventStore: new DurableObjectEventStore(state.storage, options.events),
        });
        return this.#handler;
      });
    }

    async fetch(request: Request): Promise<Response> {
      const handler = await this.#ready;
      const auth = authFromHeader(request);
      const response = await handler.handle(request, auth === undefined ? undefined : { auth });
      // Every request pushes the clean-up back: it fires only after `idleMs` without one.
      await this.#state.storage.setAlarm(Date.now() + idleMs);
      if (request.method === 'DELETE' && response.ok) await this.#state.storage.deleteAll();
      return response;
    }

    async alarm(): Promise<void> {
      // A live session (a stream still open or a call running) keeps its events; a gone one leaves nothing behind.
      if ((await this.#ready).sessionCount > 0) {
        await this.#state.storage.setAlarm(Date.now() + idleMs);
        return;
      }
      await this.#state.storage.deleteAll();
    }
  };
}
