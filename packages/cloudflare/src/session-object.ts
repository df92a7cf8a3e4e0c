import type { RequestId } from '@mcpkit/jsonrpc-core';
import { InProcessMessageBus, type McpToolServer, type Server, type ServerSession } from '@mcpkit/server';
import {
  createStreamableHttpHandler,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from '@mcpkit/transport-http';
import { DurableObjectEventStore, type DurableObjectEventStoreOptions } from './event-store';
import type { DurableObjectStateLike } from './platform';
import { authFromHeader } from './routing';
import { DurableObjectSessionStore } from './session-store';

// One Durable Object per legacy session. The object runs the ordinary Streamable HTTP handler with sessions on, so the
// live session (its GET stream, its pending server→client requests) is in the object's memory, and every request of
// the session reaches this one object, from any Worker isolate.
//
// Eviction: a Durable Object leaves memory after a while without requests (or workerd restarts). What the session
// negotiated and changed (version, capabilities, client info, log level, subscriptions) is in the object's storage
// (DurableObjectSessionStore), and so are its SSE events (DurableObjectEventStore). The handler treats each incarnation
// of the object as an instance of a cluster sharing that store (an in-process bus: the instances never overlap), so
// the next incarnation restores the session on its first request, takes over the GET stream, and answers a resumed
// stream of the old incarnation with the events it stored and, for each request that incarnation never answered, an
// error saying to send it again (a server→client request it was waiting on ended with it). The alarm deletes
// everything once the session has expired.

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
    readonly #sessions: DurableObjectSessionStore;
    #handler: StreamableHttpHandler | undefined;
    readonly #ready: Promise<StreamableHttpHandler>;

    constructor(state: DurableObjectStateLike, env: Env) {
      this.#state = state;
      this.#sessions = new DurableObjectSessionStore(state.storage);
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
          sessionStore: this.#sessions,
          bus: new InProcessMessageBus(),
        });
        return this.#handler;
      });
    }

    async fetch(request: Request): Promise<Response> {
      const handler = await this.#ready;
      const auth = authFromHeader(request);
      const response = await handler.handle(request, auth === undefined ? undefined : { auth });
      if (request.method === 'DELETE' && response.ok) {
        await this.#state.storage.deleteAll();
        await this.#state.storage.deleteAlarm();
      } else if (response.status !== 404) {
        // Every request of a session pushes the clean-up back: it fires only after `idleMs` without one. A 404 (no
        // such session) leaves nothing to clean.
        await this.#state.storage.setAlarm(Date.now() + idleMs);
      }
      return response;
    }

    async alarm(): Promise<void> {
      // A session live here (a stream open, a call running) or not yet expired in storage keeps its state; an expired
      // one leaves nothing behind.
      if ((await this.#ready).sessionCount > 0) {
        await this.#state.storage.setAlarm(Date.now() + idleMs);
        return;
      }
      const expiresAt = await this.#sessions.expiresAt();
      if (expiresAt !== undefined) {
        await this.#state.storage.setAlarm(expiresAt);
        return;
      }
      await this.#state.storage.deleteAll();
    }
  };
}
