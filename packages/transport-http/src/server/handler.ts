import {
  type AuthInfo,
  JsonRpcErrorCode,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type RequestId,
  validateMessage,
} from '@mcpkit/jsonrpc-core';
import {
  compareRequestHeaders,
  headerMismatchError,
  isLegacyVersion,
  isModernVersion,
  type McpHeaderParam,
  MetaKeys,
} from '@mcpkit/protocol';
import { McpServer, type Server, ServerSession } from '@mcpkit/server';
import { type EventStore, InMemoryEventStore } from './event-store';
import { HttpSession, type SessionConfig } from './http-session';
import { ANSWER, type Answer, type AnswerSource, jsonReply, type Reply, reply, toResponse } from './reply';
import {
  checkContentType,
  checkGetAccept,
  checkPostAccept,
  DEFAULT_MAX_BODY_BYTES,
  parseErrorResponse,
  readBodyText,
} from './request-checks';
import { requestInfoOf } from './request-info';
import { errorResponse, jsonResponse, methodNotAllowed } from './responses';
import { type HostOriginOptions, HostOriginPolicy } from './security';
import { isWellFormedSessionId, mintSessionId } from './session-id';
import { SessionTable } from './session-table';
import { DEFAULT_MAX_BUFFERED_BYTES, formatEvent, SSE_HEADERS } from './sse';
import { type ResponseMode, runStateless } from './stateless';
import { ToolHeaderIndex } from './tool-headers';

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
  /** At most this many legacy sessions at once; `initialize` beyond it gets 503. Default 10 000. */
  maxSessions?: number;
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
  /** Legacy sessions alive now. */
  readonly sessionCount: number;
  /** Ends every session and refuses further requests (503). */
  close(): Promise<void>;
}

const DEFAULT_IDLE_MS = 30 * 60_000;
const DEFAULT_MAX_SESSIONS = 10_000;
const ASSUMED_LEGACY_VERSION = '2025-03-26';

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function hasEnvelope(value: unknown): boolean {
  if (!isObject(value)) return false;
  const params = value.params;
  return isObject(params) && isObject(params._meta) && params._meta[MetaKeys.ProtocolVersion] !== undefined;
}

function defaultPrincipal(auth: AuthInfo): string | undefined {
  if (auth.clientId === undefined && auth.subject === undefined) return `token:${auth.token}`;
  return `${auth.clientId ?? ''}\u0000${auth.subject ?? ''}`;
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
 */
export function createStreamableHttpHandler(
  server: McpServer | Server,
  options: StreamableHttpHandlerOptions = {},
): StreamableHttpHandler {
  return new StreamableHttpEndpoint(server instanceof McpServer ? server.server : server, options);
}

class StreamableHttpEndpoint implements StreamableHttpHandler {
  readonly #server: Server;
  readonly #policy: HostOriginPolicy;
  readonly #sessionsEnabled: boolean;
  readonly #mode: ResponseMode;
  readonly #keepAliveMs: number;
  readonly #maxBufferedBytes: number;
  readonly #maxBodyBytes: number;
  readonly #principalOf: (auth: AuthInfo) => string | undefined;
  readonly #toolHeaderParams: NonNullable<StreamableHttpHandlerOptions['toolHeaderParams']>;
  readonly #onError: (error: Error) => void;
  readonly #config: SessionConfig;
  readonly #sessions: SessionTable;
  readonly #statelessSessions = new Map<string, ServerSession>();
  readonly #legacyVersions: ReadonlySet<string>;
  readonly #allow: string;
  #closed = false;

  constructor(server: Server, options: StreamableHttpHandlerOptions) {
    this.#server = server;
    this.#policy = new HostOriginPolicy(options);
    this.#sessionsEnabled = options.sessions !== false;
    this.#mode = options.responseMode ?? 'sse';
    this.#keepAliveMs = options.keepAliveMs ?? 15_000;
    this.#maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.#maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.#principalOf = options.principalOf ?? defaultPrincipal;
    this.#onError =
      options.onError ??
      ((error) => {
        server.onerror?.(error);
      });
    this.#sessions = new SessionTable({
      idleMs: options.sessionIdleTimeoutMs ?? DEFAULT_IDLE_MS,
      maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
      onError: (error) => this.#onError(error),
    });
    if (options.toolHeaderParams !== undefined) {
      this.#toolHeaderParams = options.toolHeaderParams;
    } else {
      const index = new ToolHeaderIndex(server);
      this.#toolHeaderParams = (name) => index.lookup(name);
    }
    this.#legacyVersions = new Set(server.supportedVersions.filter(isLegacyVersion));
    this.#allow = this.#sessionsEnabled && this.#legacyVersions.size > 0 ? 'GET, POST, DELETE' : 'POST';
    const eventStore = options.eventStore === false ? undefined : (options.eventStore ?? new InMemoryEventStore());
    this.#config = {
      eventStore,
      retryMs: options.retryMs ?? 1000,
      keepAliveMs: this.#keepAliveMs,
      maxBufferedBytes: this.#maxBufferedBytes,
      json: this.#mode === 'json',
      onClosed: (session) => this.#sessions.forget(session),
      onError: (error) => this.#onError(error),
    };
  }

  get sessionCount(): number {
    return this.#sessions.size;
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
        return this.#get(request, extra?.auth);
      case 'DELETE':
        return this.#delete(request, extra?.auth);
      default:
        return methodNotAllowed(this.#allow, `${request.method} is not part of Streamable HTTP`);
    }
  }

  // ------------------------------------------------------------------ POST

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
    const modern = isModernVersion(version) || (sessionId === null && hasEnvelope(value));
    return modern ? this.#modernPost(request, value, auth) : this.#legacyPost(request, value, version, auth);
  }

  async #modernPost(request: Request, value: unknown, auth: AuthInfo | undefined): Promise<Answer> {
    if (Array.isArray(value)) {
      return errorResponse(400, JsonRpcErrorCode.InvalidRequest, 'Invalid Request: 2026-07-28 accepts no batches');
    }
    const checked = validateMessage(value);
    if (!checked.ok) return jsonResponse(400, checked.error);
    const message = checked.message;
    if (!('method' in message)) {
      return errorResponse(
        400,
        JsonRpcErrorCode.InvalidRequest,
        'Invalid Request: a 2026-07-28 client sends no responses (the server sends it no requests)',
        { id: message.id },
      );
    }
    let declarations: readonly McpHeaderParam[] | undefined;
    if (message.method === 'tools/call') {
      const name = (message.params as { name?: unknown } | undefined)?.name;
      if (typeof name === 'string') declarations = await this.#toolHeaderParams(name);
    }
    const comparison = compareRequestHeaders(request.headers, message, declarations);
    const id = 'id' in message ? message.id : null;
    if (!comparison.ok) {
      const error = headerMismatchError(comparison.detail);
      return errorResponse(400, error.code, error.message, { id, data: { header: comparison.header } });
    }
    if (!('id' in message)) {
      this.#notify(message, auth, request, undefined);
      return reply(202);
    }
    return runStateless({
      server: this.#server,
      message,
      auth,
      requestInfo: requestInfoOf(request),
      session: undefined,
      mode: this.#mode,
      keepAliveMs: this.#keepAliveMs,
      maxBufferedBytes: this.#maxBufferedBytes,
      modern: true,
      request,
    });
  }

  async #legacyPost(
    request: Request,
    value: unknown,
    version: string | null,
    auth: AuthInfo | undefined,
  ): Promise<Answer> {
    if (version !== null && !this.#legacyVersions.has(version)) return this.#unsupportedVersion(version);
    const assumed = version ?? ASSUMED_LEGACY_VERSION;
    const parsed = validateMessage(value, { allowBatch: assumed === '2025-03-26' });
    let messages: JsonRpcMessage[];
    if (parsed.batch !== undefined) {
      messages = [];
      for (const item of parsed.batch) {
        if (!item.ok) return jsonResponse(400, item.error);
        messages.push(item.message);
      }
    } else if (!parsed.ok) {
      return jsonResponse(400, parsed.error);
    } else {
      messages = [parsed.message];
    }
    const batch = parsed.batch !== undefined;
    const initialize = messages.find(
      (message): message is JsonRpcRequest => 'method' in message && message.method === 'initialize' && 'id' in message,
    );
    if (initialize !== undefined) {
      if (messages.length > 1) {
        return errorResponse(400, JsonRpcErrorCode.InvalidRequest, 'Invalid Request: initialize must be sent alone');
      }
      if (!this.#sessionsEnabled) return this.#stateless(request, initialize, undefined, auth);
      if (request.headers.get('mcp-session-id') !== null) {
        return errorResponse(
          400,
          JsonRpcErrorCode.InvalidRequest,
          'Bad Request: initialize starts a new session; send it without an Mcp-Session-Id header',
          { id: initialize.id },
        );
      }
      return this.#initialize(request, initialize, auth);
    }
    if (!this.#sessionsEnabled) return this.#statelessLegacy(request, messages, batch, assumed, auth);
    const session = this.#sessionFor(request, auth);
    if (session instanceof Response) return session;
    const info = auth === undefined ? { request: requestInfoOf(request) } : { auth, request: requestInfoOf(request) };
    return session.post(messages, info, batch);
  }

  /** A notification without a session: delivered to the server (its middleware and handler), answered 202 at once. */
  #notify(
    message: JsonRpcNotification,
    auth: AuthInfo | undefined,
    request: Request,
    session: ServerSession | undefined,
  ): void {
    const info = auth === undefined ? { request: requestInfoOf(request) } : { auth, request: requestInfoOf(request) };
    this.#server.handleNotification(message, { info, session }).catch((error) => this.#onError(error));
  }

  #unsupportedVersion(version: string): Response {
    const supported = [...this.#legacyVersions].sort().reverse();
    return errorResponse(
      400,
      -32000,
      `Bad Request: unsupported MCP-Protocol-Version '${version}' (supported: ${supported.join(', ')})`,
      { data: { supported, requested: version } },
    );
  }

  async #initialize(request: Request, message: JsonRpcRequest, auth: AuthInfo | undefined): Promise<Answer> {
    if (!this.#sessions.hasRoom()) {
      return errorResponse(503, -32000, `Service Unavailable: too many sessions (${this.#sessions.maxSessions})`, {
        id: message.id,
        headers: { 'retry-after': '5' },
      });
    }
    const session = new HttpSession(
      mintSessionId(),
      auth === undefined ? undefined : this.#principalOf(auth),
      this.#config,
    );
    this.#sessions.add(session);
    try {
      session.peer = await this.#server.connect(session, { fixEra: true });
    } catch (error) {
      this.#sessions.forget(session);
      throw error;
    }
    const info = auth === undefined ? { request: requestInfoOf(request) } : { auth, request: requestInfoOf(request) };
    const response = await session.exchange(message, info);
    if (response === undefined) {
      return errorResponse(503, -32000, 'Service Unavailable: the session closed during initialize', {
        id: message.id,
      });
    }
    let headers: Record<string, string> | undefined;
    if ('error' in response && response.error !== undefined) {
      // A failed initialize leaves no session behind.
      await this.#sessions.end(session);
    } else {
      headers = { 'mcp-session-id': session.sessionId };
    }
    if (this.#mode === 'json') return jsonReply(200, response, headers);
    return reply(
      200,
      headers === undefined ? SSE_HEADERS : { ...SSE_HEADERS, ...headers },
      formatEvent(JSON.stringify(response)),
    );
  }

  async #statelessLegacy(
    request: Request,
    messages: readonly JsonRpcMessage[],
    batch: boolean,
    version: string,
    auth: AuthInfo | undefined,
  ): Promise<Answer> {
    const session = this.#statelessSession(version);
    for (const message of messages) {
      if ('method' in message && !('id' in message)) this.#notify(message, auth, request, session);
    }
    const requests = messages.filter((message): message is JsonRpcRequest => 'method' in message && 'id' in message);
    if (requests.length === 0) return reply(202);
    if (!batch) return this.#stateless(request, requests[0]!, session, auth);
    // A 2025-03-26 batch without a session: run them together and answer one JSON array.
    const bodies = await Promise.all(
      requests.map(async (message) => {
        const response = await runStateless({
          server: this.#server,
          message,
          auth,
          requestInfo: requestInfoOf(request),
          session,
          mode: 'json',
          keepAliveMs: 0,
          maxBufferedBytes: this.#maxBufferedBytes,
          modern: false,
          request,
        });
        return response.status === 200 && response.body !== undefined ? JSON.parse(response.body) : undefined;
      }),
    );
    return jsonReply(
      200,
      bodies.filter((body) => body !== undefined),
    );
  }

  #stateless(
    request: Request,
    message: JsonRpcRequest,
    session: ServerSession | undefined,
    auth: AuthInfo | undefined,
  ): Promise<Reply> {
    return runStateless({
      server: this.#server,
      message,
      auth,
      requestInfo: requestInfoOf(request),
      session,
      mode: this.#mode,
      keepAliveMs: this.#keepAliveMs,
      maxBufferedBytes: this.#maxBufferedBytes,
      modern: false,
      request,
    });
  }

  /**
   * The stand-in session of legacy stateless mode, one per protocol version: it carries the version and no client
   * capabilities, is never connected, and so gets no broadcasts.
   */
  #statelessSession(version: string): ServerSession {
    let session = this.#statelessSessions.get(version);
    if (session === undefined) {
      session = new ServerSession(this.#server, { fixEra: true });
      session.era = 'legacy';
      session.protocolVersion = version;
      session.clientCapabilities = {};
      session.initialized = true;
      this.#statelessSessions.set(version, session);
    }
    return session;
  }

  // ------------------------------------------------------------------ GET and DELETE

  async #get(request: Request, auth: AuthInfo | undefined): Promise<Answer> {
    const refused = this.#legacyOnly(request, 'GET');
    if (refused !== undefined) return refused;
    const notAcceptable = checkGetAccept(request);
    if (notAcceptable !== undefined) return notAcceptable;
    const session = this.#sessionFor(request, auth);
    if (session instanceof Response) return session;
    return session.get(request.headers.get('last-event-id'));
  }

  async #delete(request: Request, auth: AuthInfo | undefined): Promise<Answer> {
    const refused = this.#legacyOnly(request, 'DELETE');
    if (refused !== undefined) return refused;
    const session = this.#sessionFor(request, auth);
    if (session instanceof Response) return session;
    await this.#sessions.end(session);
    return reply(200);
  }

  /** GET and DELETE exist only for legacy sessions: 405 in 2026-07-28, in stateless mode, or on a modern-only server. */
  #legacyOnly(request: Request, method: string): Response | undefined {
    const version = request.headers.get('mcp-protocol-version');
    if (isModernVersion(version)) {
      return methodNotAllowed('POST', `2026-07-28 Streamable HTTP is POST only (no ${method})`);
    }
    if (this.#allow === 'POST') {
      return methodNotAllowed(
        'POST',
        this.#sessionsEnabled ? `this server speaks only 2026-07-28 (no ${method})` : `stateless mode has no ${method}`,
      );
    }
    if (version !== null && !this.#legacyVersions.has(version)) return this.#unsupportedVersion(version);
    return undefined;
  }

  // ------------------------------------------------------------------ sessions

  #sessionFor(request: Request, auth: AuthInfo | undefined): HttpSession | Response {
    const id = request.headers.get('mcp-session-id');
    if (id === null) {
      return errorResponse(400, -32000, 'Bad Request: Mcp-Session-Id header is required (send initialize first)');
    }
    const session = isWellFormedSessionId(id) ? this.#sessions.find(id) : undefined;
    if (session === 'expired') return errorResponse(404, -32000, 'Session not found: it expired; initialize again');
    if (
      session === undefined ||
      session.closed ||
      session.principal !== (auth === undefined ? undefined : this.#principalOf(auth))
    ) {
      return errorResponse(
        404,
        -32000,
        'Session not found: it expired, was deleted, or never existed; initialize again',
      );
    }
    return session;
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
    await this.#sessions.endAll();
  }
}
