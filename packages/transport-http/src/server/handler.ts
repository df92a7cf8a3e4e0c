import { type AuthInfo, isJsonObject as isObject, type RequestId } from '@mcpkit/jsonrpc-core';
import { isLegacyVersion, isModernVersion, type McpHeaderParam, messageEra } from '@mcpkit/protocol';
import { type McpToolServer, type MessageBus, type Server, type ServerSession, serverOf } from '@mcpkit/server';
import { shareBroadcasts } from '@mcpkit/server/cluster';
import { ClusterLink } from './cluster/cluster-link';
import type { SessionStore } from './cluster/session-store';
import type { EndpointContext } from './endpoint-context';
import { type EventStore, InMemoryEventStore } from './event-store';
import { HttpSession } from './http-session';
import { LegacyEndpoint } from './legacy-endpoint';
import { modernPost, type ToolHeaderParams } from './modern-post';
import { ANSWER, type Answer, type AnswerSource, toResponse } from './reply';
import {
  checkContentType,
  checkPostAccept,
  DEFAULT_MAX_BODY_BYTES,
  parseErrorResponse,
  readBodyText,
} from './request-checks';
import { errorResponse, methodNotAllowed } from './responses';
import { type HostOriginOptions, HostOriginPolicy } from './security';
import { DEFAULT_MAX_BUFFERED_BYTES } from './sse';
import type { ResponseMode } from './stateless';
import { ToolHeaderIndex } from './tool-headers';

// The Streamable HTTP endpoint: checks every request (Host/Origin, method, content type, body size), parses the body
// once, and hands it to the era it belongs to — 2026-07-28 (modern-post.ts: one POST, one answer) or the legacy era
// (legacy-endpoint.ts: sessions, the GET stream, DELETE, or stateless requests).

/** Options for {@link createStreamableHttpHandler}. */
export interface StreamableHttpHandlerOptions extends HostOriginOptions {
  /**
   * Legacy era (≤ 2025-11-25): `true` (default) mints an `Mcp-Session-Id` at `initialize` and requires it afterwards;
   * `false` serves every request on its own (no session ids, no GET stream, no server→client requests).
   * The 2026-07-28 era never has sessions.
   */
  sessions?: boolean;
  /**
   * A legacy session ends (its id then gets 404) when, for this long, no request of it was in flight and neither a
   * request nor an event delivered to it touched it: an open stream that carries nothing does not keep it alive.
   * Default 30 minutes.
   */
  sessionIdleTimeoutMs?: number;
  /** At most this many legacy sessions at once; `initialize` beyond it gets 503 with `Retry-After`. Default 10 000. */
  maxSessions?: number;
  /**
   * At most this many legacy sessions per client at once, so one client cannot take the whole `maxSessions`;
   * `initialize` beyond it gets 503 with `Retry-After`. A client is its principal (see `principalOf`) when the request
   * is authenticated, else `clientKeyOf(request)`, else the remote address the node/express adapter saw. Default 1 000.
   */
  maxSessionsPerClient?: number;
  /**
   * Who an unauthenticated client is, for `maxSessionsPerClient`. Default: the remote address (node and express
   * adapters; a web `Request` elsewhere has none, and then only authenticated clients are limited). Behind a reverse
   * proxy every client has the proxy's address: return the address the proxy forwards (from a header only it sets).
   *
   * @example
   * createStreamableHttpHandler(server, { clientKeyOf: (request) => request.headers.get('x-real-ip') ?? undefined });
   */
  clientKeyOf?: (request: Request) => string | undefined;
  /**
   * How responses to requests are sent: `'sse'` (default) always opens an SSE stream; `'json'` always answers with
   * JSON (request-related notifications are then dropped); `'auto'` answers JSON unless a notification comes first
   * (2026-07-28 and legacy stateless requests; legacy sessions treat it as `'sse'`).
   */
  responseMode?: ResponseMode;
  /**
   * Where legacy-session SSE events are kept for resumption (Last-Event-ID). Default: a bounded in-memory store.
   * `false` turns resumability off (no event ids, no priming events).
   */
  eventStore?: EventStore | false;
  /** The SSE `retry` (ms) sent with priming events: how long a client waits before reconnecting. Default 1000. */
  retryMs?: number;
  /** SSE keep-alive comment interval in ms; 0 turns them off. Default 15 000. */
  keepAliveMs?: number;
  /**
   * Per SSE stream (POST responses and the GET stream): what may wait for a client that does not read. An event
   * written when this much already waits closes the stream and releases the buffer; a legacy client resumes with
   * `Last-Event-ID`, a 2026-07-28 request is cancelled. Default 1 MiB.
   */
  maxBufferedBytes?: number;
  /** Largest request body accepted (413 beyond). Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * Who owns a legacy session: a request with another identity's session id gets 404. Default: `clientId` and
   * `subject` of the `AuthInfo`, or the token when it has neither.
   */
  principalOf?: (auth: AuthInfo) => string | undefined;
  /**
   * The `x-mcp-header` declarations of a tool, for checking `Mcp-Param-*` headers (2026-07-28). Default: read from
   * the server's own `tools/list`.
   */
  toolHeaderParams?: (
    toolName: string,
  ) => readonly McpHeaderParam[] | undefined | Promise<readonly McpHeaderParam[] | undefined>;
  /**
   * Scale-out: where legacy sessions live so that every instance behind a load balancer can serve any of them (no
   * sticky sessions). Needs `bus`, and a shared `eventStore` so a client can resume on any instance. Default: sessions
   * live in this process. `@mcpkit/store-redis` provides one.
   */
  sessionStore?: SessionStore;
  /**
   * Scale-out: carries messages between instances — a list change or resource update reaches every instance's
   * clients, a server→client request's answer reaches the instance that sent it, a cancellation the one running the
   * request, a GET stream's events the instance holding the client's connection. Needed with `sessionStore`; alone it
   * shares broadcasts (2026-07-28 listen streams across instances).
   */
  bus?: MessageBus;
  /** Scale-out: this instance's name on the bus (letters, digits, `_`, `-`). Default: random. */
  instanceId?: string;
  /** Scale-out: how long a GET waits for the instance holding its stream. Default 5 000 ms. */
  remoteStreamTimeoutMs?: number;
  /** Problems nobody awaits (event store failures, evicted events). */
  onError?: (error: Error) => void;
}

/** Extra request data from the adapter in front of the handler. */
export interface HandleExtra {
  /** The authenticated identity (from your auth middleware); it reaches handlers as `ctx.auth`. */
  auth?: AuthInfo;
}

/**
 * A Streamable HTTP endpoint for one MCP server, as a web-standard `(Request) => Promise<Response>` function.
 * Mount it at your MCP path (`/mcp`) with any framework that speaks Fetch, or through `./node` / `./express`.
 */
export interface StreamableHttpHandler {
  /** Answers one HTTP request. */
  handle(request: Request, extra?: HandleExtra): Promise<Response>;
  /**
   * Closes the SSE stream that carries a legacy request without ending the request (SSE polling, SEP-1699). Call it
   * from a handler with its `ctx`; the client reconnects with `Last-Event-ID` and loses nothing. False when the
   * request has no open stream here or resumability is off.
   */
  closeSseStream(ctx: { session?: ServerSession | undefined; requestId: RequestId }): boolean;
  /** Closes a legacy session's standalone GET stream (the client reconnects with `Last-Event-ID`). */
  closeStandaloneSseStream(session: ServerSession | undefined): boolean;
  /** Legacy sessions alive now (in a cluster: the copies this instance keeps). */
  readonly sessionCount: number;
  /**
   * Ends every session and refuses further requests (503). In a cluster, sessions live on: only this instance's copies
   * close, and the other instances go on serving them.
   */
  close(): Promise<void>;
}

const DEFAULT_IDLE_MS = 30 * 60_000;
const DEFAULT_MAX_SESSIONS = 10_000;
/** A tenth of the global cap: one client cannot lock others out, and a NAT or office behind one address still fits. */
const DEFAULT_MAX_SESSIONS_PER_CLIENT = 1_000;
const INSTANCE_ID = /^[A-Za-z0-9_-]{1,64}$/;

function defaultPrincipal(auth: AuthInfo): string | undefined {
  if (auth.clientId === undefined && auth.subject === undefined) return `token:${auth.token}`;
  return `${auth.clientId ?? ''}\u0000${auth.subject ?? ''}`;
}

function randomInstanceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  let id = '';
  for (const byte of bytes) id += byte.toString(36).padStart(2, '0');
  return id;
}

/**
 * Serves one `McpServer` (or low-level `Server`) over Streamable HTTP to any number of clients, in both protocol
 * eras, decided per request: 2026-07-28 requests (a `_meta` protocol-version envelope, or a 2026 `MCP-Protocol-Version`
 * header) are stateless POSTs; anything else follows the legacy rules (`initialize`, `Mcp-Session-Id`, the GET
 * stream, DELETE, resumable SSE).
 *
 * @example
 * import { createStreamableHttpHandler } from '@mcpkit/transport-http';
 * const handler = createStreamableHttpHandler(server);
 * // Deno, Bun, Workers: export default { fetch: (request) => handler.handle(request) };
 * // Node: import { listen } from '@mcpkit/transport-http/node'; await listen(handler, { port: 3000 });
 *
 * @example
 * // Several instances behind a load balancer, no sticky sessions (see @mcpkit/store-redis):
 * const handler = createStreamableHttpHandler(server, { sessionStore, eventStore, bus });
 */
export function createStreamableHttpHandler(
  server: McpToolServer | Server,
  options: StreamableHttpHandlerOptions = {},
): StreamableHttpHandler {
  return new StreamableHttpEndpoint(serverOf(server), options);
}

class StreamableHttpEndpoint implements StreamableHttpHandler {
  readonly #context: EndpointContext;
  readonly #policy: HostOriginPolicy;
  readonly #maxBodyBytes: number;
  readonly #toolHeaderParams: ToolHeaderParams;
  readonly #legacy: LegacyEndpoint;
  readonly #allow: string;
  /** Scale-out: subscribed to the bus (every request waits for it), with what to release at close. */
  readonly #sharing: Promise<(() => Promise<void>) | undefined> | undefined;
  #closed = false;

  constructor(server: Server, options: StreamableHttpHandlerOptions) {
    this.#policy = new HostOriginPolicy(options);
    this.#context = {
      server,
      mode: options.responseMode ?? 'sse',
      keepAliveMs: options.keepAliveMs ?? 15_000,
      maxBufferedBytes: options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES,
      onError:
        options.onError ??
        ((error) => {
          server.onerror?.(error);
        }),
    };
    this.#maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    if (options.toolHeaderParams !== undefined) {
      this.#toolHeaderParams = options.toolHeaderParams;
    } else {
      const index = new ToolHeaderIndex(server);
      this.#toolHeaderParams = (name) => index.lookup(name);
    }
    const sessionsEnabled = options.sessions !== false;
    const legacyVersions = new Set(server.supportedVersions.filter(isLegacyVersion));
    this.#allow = sessionsEnabled && legacyVersions.size > 0 ? 'GET, POST, DELETE' : 'POST';
    const idleMs = options.sessionIdleTimeoutMs ?? DEFAULT_IDLE_MS;
    const cluster = this.#clusterOf(options, idleMs);
    this.#legacy = new LegacyEndpoint(this.#context, {
      sessionsEnabled,
      legacyVersions,
      allow: this.#allow,
      principalOf: options.principalOf ?? defaultPrincipal,
      idleMs,
      maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
      maxSessionsPerClient: options.maxSessionsPerClient ?? DEFAULT_MAX_SESSIONS_PER_CLIENT,
      clientKeyOf: options.clientKeyOf,
      eventStore: options.eventStore === false ? undefined : (options.eventStore ?? new InMemoryEventStore()),
      retryMs: options.retryMs ?? 1000,
      cluster,
    });
    const bus = options.bus;
    if (bus !== undefined) {
      this.#sharing = shareBroadcasts(server, bus, this.#context.onError);
      // A failure is reported to onError by the request that needs the bus; not an unhandled rejection meanwhile.
      this.#sharing.catch(() => undefined);
    }
  }

  #clusterOf(options: StreamableHttpHandlerOptions, idleMs: number): ClusterLink | undefined {
    const { sessionStore, bus } = options;
    if (sessionStore === undefined) return undefined;
    if (bus === undefined) {
      throw new TypeError(
        'createStreamableHttpHandler: sessionStore needs a bus too (instances reach each other through it); pass the same bus to every instance',
      );
    }
    const instanceId = options.instanceId ?? randomInstanceId();
    if (!INSTANCE_ID.test(instanceId)) {
      throw new TypeError(
        `createStreamableHttpHandler: instanceId must be 1-64 letters, digits, '_' or '-'; got ${JSON.stringify(instanceId)}`,
      );
    }
    return new ClusterLink({
      instanceId,
      bus,
      store: sessionStore,
      idleMs,
      attachTimeoutMs: options.remoteStreamTimeoutMs ?? 5000,
      onError: this.#context.onError,
    });
  }

  get sessionCount(): number {
    return this.#legacy.sessions.size;
  }

  static {
    // The node adapter's way in (see reply.ts): the same answer as `handle`, before it becomes a `Response`.
    const answer: AnswerSource[typeof ANSWER] = (handler, request, extra) =>
      typeof handler === 'object' && handler !== null && #answer in handler
        ? (handler as StreamableHttpEndpoint).#answer(request, extra)
        : (handler as StreamableHttpHandler).handle(request, extra);
    Object.defineProperty(StreamableHttpEndpoint.prototype.handle, ANSWER, { value: answer });
  }

  async handle(request: Request, extra?: HandleExtra): Promise<Response> {
    return toResponse(await this.#answer(request, extra));
  }

  #answer(request: Request, extra: HandleExtra | undefined): Promise<Answer> | Answer {
    if (this.#closed) return errorResponse(503, -32000, 'Service Unavailable: the MCP endpoint is shut down');
    const denied = this.#policy.check(request);
    if (denied !== undefined) return denied;
    switch (request.method) {
      case 'POST':
        return this.#post(request, extra?.auth);
      case 'GET':
        return this.#legacy.get(request, extra?.auth);
      case 'DELETE':
        return this.#legacy.delete(request, extra?.auth);
      default:
        return methodNotAllowed(this.#allow, `${request.method} is not part of Streamable HTTP`);
    }
  }

  async #post(request: Request, auth: AuthInfo | undefined): Promise<Answer> {
    const refused = checkContentType(request) ?? checkPostAccept(request);
    if (refused !== undefined) return refused;
    const read = readBodyText(request, this.#maxBodyBytes);
    const text = read instanceof Promise ? await read : read;
    if (typeof text !== 'string') return text;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return parseErrorResponse((error as Error).message);
    }
    const headers = request.headers;
    const version = headers.get('mcp-protocol-version');
    const sessionId = headers.get('mcp-session-id');
    // Era branch kept: the one place an HTTP request's era is decided (header, else the body's envelope), before any
    // era object exists; it travels with the request (runStateless hands it to Server.handle). A batch or a non-object
    // body has no envelope: the legacy rules refuse or answer it.
    const modern =
      isModernVersion(version) || (sessionId === null && isObject(value) && messageEra(value.params) === 'modern');
    return modern
      ? modernPost(this.#context, this.#toolHeaderParams, request, value, auth)
      : this.#legacy.post(request, value, version, auth);
  }

  closeSseStream(ctx: { session?: ServerSession | undefined; requestId: RequestId }): boolean {
    const transport = ctx.session?.transport;
    return transport instanceof HttpSession && transport.closeRequestStream(ctx.requestId);
  }

  closeStandaloneSseStream(session: ServerSession | undefined): boolean {
    const transport = session?.transport;
    return transport instanceof HttpSession && transport.closeStandaloneStream();
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#legacy.close();
    const release = await this.#sharing?.catch(() => undefined);
    await release?.();
  }
}
