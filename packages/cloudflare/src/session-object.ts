import type { RequestId } from '@mcpkit/jsonrpc-core';
import { InProcessMessageBus, type McpToolServer, type Server, type ServerSession, serverOf } from '@mcpkit/server';
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
    readonly #env: Env;
    readonly #sessions: DurableObjectSessionStore;
    #handler: StreamableHttpHandler | undefined;
    #server: Server | undefined;
    #ready: Promise<StreamableHttpHandler> | undefined;
    /** Whether this incarnation answered anything but 404 (a hub does; an object made for a bad session id does not). */
    #served = false;

    constructor(state: DurableObjectStateLike, env: Env) {
      this.#state = state;
      this.#env = env;
      this.#sessions = new DurableObjectSessionStore(state.storage);
      this.#ready = this.#build();
    }

    /** The handler, built before any request reaches it (an async server factory may load things first). */
    #build(): Promise<StreamableHttpHandler> {
      const endpoint: SessionObjectEndpoint = {
        closeSseStream: (ctx) => this.#handler?.closeSseStream(ctx) ?? false,
      };
      return this.#state.blockConcurrencyWhile(async () => {
        this.#server = serverOf(await options.server(this.#env, endpoint));
        this.#handler = createStreamableHttpHandler(this.#server, {
          ...options.handler,
          sessions: true,
          // One object, one session: a second `initialize` here would be a session nobody can route to.
          maxSessions: 1,
          eventStore: new DurableObjectEventStore(this.#state.storage, options.events),
          sessionStore: this.#sessions,
          bus: new InProcessMessageBus(),
        });
        return this.#handler;
      });
    }

    /**
     * With nothing live here (no session, no 2026-07-28 listen stream of a hub), the handler and its server go (the
     * next request builds others): their timers would otherwise keep the object in memory (pending timers prevent
     * eviction), and what a session needs is in storage.
     */
    async #release(): Promise<void> {
      const handler = this.#handler;
      if (handler === undefined || handler.sessionCount > 0 || (this.#server?.listenStreams.size ?? 0) > 0) return;
      this.#handler = undefined;
      this.#server = undefined;
      this.#ready = undefined;
      this.#served = false;
      await handler.close();
    }

    async fetch(request: Request): Promise<Response> {
      this.#ready ??= this.#build();
      const handler = await this.#ready;
      const auth = authFromHeader(request);
      const response = await handler.handle(request, auth === undefined ? undefined : { auth });
      if (request.method === 'DELETE' && response.ok) {
        await this.#state.storage.deleteAll();
        await this.#state.storage.deleteAlarm();
        await this.#release();
      } else if (response.status === 404) {
        // No such session, in an object that serves nothing else: nothing to clean, nothing to keep in memory.
        if (!this.#served) await this.#release();
      } else {
        this.#served = true;
        // Every request of a session pushes the clean-up back: it fires only after `idleMs` without one.
        await this.#state.storage.setAlarm(Date.now() + idleMs);
      }
      return response;
    }

    async alarm(): Promise<void> {
      // A session live here (a stream open, a call running) keeps everything; one only in storage keeps its state
      // until it expires; an expired one leaves nothing behind.
      if ((this.#handler?.sessionCount ?? 0) > 0) {
        await this.#state.storage.setAlarm(Date.now() + idleMs);
        return;
      }
      await this.#release();
      const expiresAt = await this.#sessions.expiresAt();
      if (expiresAt !== undefined) {
        await this.#state.storage.setAlarm(expiresAt);
        return;
      }
      await this.#state.storage.deleteAll();
    }
  };
}
