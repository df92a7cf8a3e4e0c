import {
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcErrorObject,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type RequestId,
  serializeMessage,
  type Transport,
  type TransportSendOptions,
} from '@mcpkit/jsonrpc-core';
import { headersForToolCall, isModernVersion, McpHeaders, standardHeadersFor } from '@mcpkit/protocol';
import { envelopeVersion, isModernRefusal, isParamHeaderMismatch } from './era-rules';
import { asError, describeMessage, excerpt, httpStatusError, StreamableHttpError } from './errors';
import type { HttpAnswer, HttpExchange } from './http-exchange';
import {
  type ReconnectOptions,
  type ReconnectPolicy,
  reconnectDelay,
  reconnectPolicy,
  waitToReconnect,
} from './reconnect';
import { buildHeaders, type HeadersOption } from './request-headers';
import { errorResponseIn, mediaType, parseJsonBody } from './response-body';
import { exchangeFor } from './runtime-exchange';
import { SseClientTransport } from './sse-client-transport';
import { readSseStream } from './sse-reader';
import { ToolHeaderRegistry } from './tool-headers';

/** Options of {@link StreamableHttpClientTransport}. */
export interface StreamableHttpClientTransportOptions {
  /**
   * The `fetch` to use (tests, proxies, custom agents, `createOAuthFetch`), called with fetch's default redirect
   * handling. Default: on Node, `node:http` / `node:https` through their global keep-alive agents, with fetch's
   * redirect, decoding and abort behaviour but no `Request`/`Response`/web streams per call (about a tenth of the CPU);
   * Node's `fetch` when the process routes fetch through a proxy (an undici dispatcher, `NODE_USE_ENV_PROXY`);
   * elsewhere the global `fetch`.
   */
  fetch?: typeof fetch;
  /**
   * Extra headers for every request (POST, GET, DELETE), e.g. `Authorization`. A function is called before each
   * request, so a refreshed token is used at once. The transport's own headers always win.
   */
  headers?: HeadersOption;
  /** Reconnecting dropped SSE streams (legacy era only: 2026-07-28 has no resumption). */
  reconnect?: ReconnectOptions;
  /**
   * Open the legacy standalone GET stream after `notifications/initialized` (405 = the server has none); sending
   * `notifications/initialized` resolves once the server answered the GET (at most 5 s), so a connected client can be
   * reached. Default `true`.
   */
  standaloneStream?: boolean;
  /**
   * When `initialize` is answered 400, 404 or 405 without a 2026-07-28 error body, try the deprecated HTTP+SSE
   * transport at the same URL (GET expecting an `endpoint` event). Default `true`.
   */
  fallbackToSse?: boolean;
  /**
   * When the server answers 404 for the session (it expired or the server restarted), start a new session by itself:
   * replay the `initialize` the client sent, then `notifications/initialized`, then retry the request — the server
   * keeps no state of the old session, so only use this when your server is stateless enough for that. Default
   * `false`: the request fails with `StreamableHttpError` `ERR_SESSION_EXPIRED` and the transport closes with it as
   * the reason, so the client can connect again.
   */
  reinitializeOnSessionExpired?: boolean;
}

interface InFlight {
  readonly request: JsonRpcRequest;
  readonly modern: boolean;
  readonly controller: AbortController;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** One SSE stream and the GETs that resume it. */
interface StreamChain {
  /** The request whose response this stream owes; absent for the standalone GET stream. */
  readonly entry?: InFlight;
  /** Aborts every stream of the chain: the request's controller, or the standalone stream's. */
  readonly controller: AbortController;
  readonly signal: AbortSignal;
  lastEventId?: string;
  retryMs?: number;
  attempts: number;
}

interface ExchangeState {
  relisted: boolean;
  reinitialized: boolean;
}

const ACCEPT_BOTH = 'application/json, text/event-stream';
const DELETE_TIMEOUT_MS = 2_000;
const MAX_RELIST_PAGES = 100;
/** How long `notifications/initialized` waits for the server to answer the standalone GET before going on anyway. */
const STANDALONE_OPEN_WAIT_MS = 5_000;

/**
 * The client side of MCP's Streamable HTTP transport, on `fetch`, for both protocol eras:
 *
 * - **2026-07-28**: every request is one POST with `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and the
 *   `Mcp-Param-*` headers declared with `x-mcp-header` (learned from the `tools/list` results it carries; on a
 *   HeaderMismatch -32020 about param headers it re-lists tools and retries once). Cancelling a request closes its
 *   response stream instead of sending `notifications/cancelled`.
 * - **2025-03-26 … 2025-11-25**: `Mcp-Session-Id` captured at `initialize` and echoed, `MCP-Protocol-Version` from
 *   the initialize result, the standalone GET stream, streams resumed with `Last-Event-ID` after the server's `retry`
 *   (bounded backoff otherwise), DELETE on close, and a fallback to the deprecated HTTP+SSE transport.
 *
 * Responses may be JSON or SSE (parsed with eventsource-parser).
 *
 * @example
 * ```ts
 * import { Client } from '@mcpkit/client';
 * import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
 *
 * const client = new Client({ name: 'app', version: '1.0.0' });
 * await client.connect(
 *   new StreamableHttpClientTransport(new URL('http://127.0.0.1:3000/mcp'), {
 *     headers: async () => ({ Authorization: `Bearer ${await getToken()}` }),
 *   }),
 * );
 * console.log(client.era, await client.listAllTools());
 * ```
 */
export class StreamableHttpClientTransport implements Transport {
  onmessage?: (message: JsonRpcMessage) => void;
  onclose?: (reason?: Error) => void;
  onerror?: (error: Error) => void;

  readonly #url: URL;
  readonly #http: HttpExchange;
  readonly #customFetch: typeof fetch | undefined;
  readonly #headers: HeadersOption | undefined;
  readonly #policy: ReconnectPolicy;
  readonly #standaloneStream: boolean;
  readonly #fallbackToSse: boolean;
  readonly #reinitialize: boolean;
  readonly #lifetime = new AbortController();
  readonly #inflight = new Map<RequestId, InFlight>();
  /** Streams being read, so close() can end those whose request was already answered (a resumed GET kept open). */
  readonly #streams = new Set<AbortController>();
  readonly #tools = new ToolHeaderRegistry();
  #sessionId: string | undefined;
  #era: 'legacy' | 'modern' | undefined;
  #protocolVersion: string | undefined;
  #initializeRequest: JsonRpcRequest | undefined;
  #standalone: AbortController | undefined;
  #sse: SseClientTransport | undefined;
  #reinitializing: Promise<void> | undefined;
  #privateIds = 0;
  #started = false;
  #closed = false;

  constructor(url: string | URL, options: StreamableHttpClientTransportOptions = {}) {
    this.#url = new URL(url);
    this.#customFetch = options.fetch;
    this.#http = exchangeFor(options.fetch);
    this.#headers = options.headers;
    this.#policy = reconnectPolicy(options.reconnect);
    this.#standaloneStream = options.standaloneStream !== false;
    this.#fallbackToSse = options.fallbackToSse !== false;
    this.#reinitialize = options.reinitializeOnSessionExpired === true;
  }

  /** The legacy session id the server assigned at `initialize`, if any. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  /** The protocol version the transport sends in `MCP-Protocol-Version` (legacy: from the initialize result). */
  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  /** `'sse'` after falling back to the deprecated HTTP+SSE transport, else `'streamable-http'`. */
  get mode(): 'streamable-http' | 'sse' {
    return this.#sse === undefined ? 'streamable-http' : 'sse';
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('StreamableHttpClientTransport: start() was already called');
    this.#started = true;
  }

  /**
   * 2026-07-28 requests are cancelled by closing their response stream (aborting their fetch), never with
   * `notifications/cancelled`: the peer hands each one a signal and this transport aborts the stream when it fires.
   * Legacy requests (and everything after a fallback to HTTP+SSE) are cancelled with the notification.
   */
  cancelsBySignal(request: JsonRpcRequest): boolean {
    if (this.#sse !== undefined) return false;
    const version = envelopeVersion(request);
    return version !== undefined && isModernVersion(version);
  }

  async send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> {
    if (this.#closed || !this.#started) {
      throw new StreamableHttpError(
        'ERR_TRANSPORT_CLOSED',
        `StreamableHttpClientTransport is ${this.#closed ? 'closed' : 'not started'}; cannot send ${describeMessage(message)}`,
        { url: this.#url.href },
      );
    }
    if (this.#sse !== undefined) return this.#sse.send(message);
    if (isJsonRpcNotification(message) && message.method === 'notifications/cancelled') {
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      const entry = id === undefined ? undefined : this.#inflight.get(id);
      if (entry !== undefined) {
        // 2026-07-28 on HTTP: closing the response stream IS the cancellation; nothing is posted.
        try {
          if (!entry.modern) await this.#postOther(message);
        } finally {
          this.#cancel(entry);
        }
        return;
      }
    }
    if (isJsonRpcRequest(message)) return this.#sendRequest(message, options?.signal);
    return this.#postOther(message);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    const sessionId = this.#sessionId;
    this.#shutDown();
    if (this.#sse !== undefined) await this.#sse.close();
    if (sessionId !== undefined && this.#era === 'legacy') await this.#deleteSession(sessionId);
    this.onclose?.();
  }

  // ---- requests ----

  #sendRequest(request: JsonRpcRequest, signal: AbortSignal | undefined): Promise<void> {
    const version = envelopeVersion(request);
    const modern = version !== undefined && isModernVersion(version);
    if (modern) {
      this.#era = 'modern';
      this.#protocolVersion = version;
    } else if (request.method === 'initialize') {
      this.#era = 'legacy';
      this.#initializeRequest = request;
    }
    return new Promise<void>((resolve, reject) => {
      const entry: InFlight = { request, modern, controller: new AbortController(), resolve, reject };
      this.#inflight.set(request.id, entry);
      if (signal !== undefined) {
        // The peer gave up on this request (aborted or timed out): closing its stream tells the server.
        if (signal.aborted) {
          this.#cancel(entry);
          return;
        }
        signal.addEventListener('abort', () => this.#cancel(entry), { once: true, signal: entry.controller.signal });
      }
      this.#roundTrip(entry, { relisted: false, reinitialized: false }).catch((error: unknown) =>
        this.#finish(entry, asError(error)),
      );
    });
  }

  async #roundTrip(entry: InFlight, state: ExchangeState): Promise<void> {
    const { request } = entry;
    const sentSession = this.#sessionId;
    const response = await this.#post(request, entry.controller.signal, entry.modern);
    if (!response.ok) return this.#requestRejected(entry, state, response, sentSession);
    const type = mediaType(response);
    if (type === 'text/event-stream' && response.hasBody) {
      const { controller } = entry;
      return this.#consume(response, { entry, controller, signal: controller.signal, attempts: 0 });
    }
    if (type === 'application/json') {
      this.#deliverJson(await response.text(), request.method);
      if (this.#inflight.get(request.id) === entry) {
        throw new StreamableHttpError(
          'ERR_INVALID_BODY',
          `The JSON response to ${describeMessage(request)} does not contain its response`,
          { status: response.status, url: this.#url.href, httpMethod: 'POST', method: request.method },
        );
      }
      return;
    }
    if (response.status === 202 || !response.hasBody) {
      // Not what the spec allows for a request, but the answer may still come on the standalone stream.
      response.discard();
      return;
    }
    response.discard();
    throw new StreamableHttpError(
      'ERR_CONTENT_TYPE',
      `POST ${this.#url.href} answered ${describeMessage(request)} with content type '${type}'; expected application/json or text/event-stream`,
      { status: response.status, url: this.#url.href, httpMethod: 'POST', method: request.method },
    );
  }

  async #requestRejected(
    entry: InFlight,
    state: ExchangeState,
    response: HttpAnswer,
    sentSession: string | undefined,
  ): Promise<void> {
    const { request } = entry;
    const text = await response.text().catch(() => '');
    if (response.status === 404 && sentSession !== undefined) {
      return this.#sessionGone(entry, state, sentSession, text);
    }
    const rpcError = errorResponseIn(text);
    if (rpcError !== undefined && entry.modern && !state.relisted && request.method === 'tools/call') {
      if (isParamHeaderMismatch(rpcError.error)) {
        state.relisted = true;
        if (await this.#relistTools(request)) return this.#roundTrip(entry, state);
      }
    }
    // 2026-07-28 §7e: a refused initialize without a 2026 error body may come from an HTTP+SSE-only server.
    if (
      request.method === 'initialize' &&
      this.#fallbackToSse &&
      this.#sessionId === undefined &&
      (response.status === 400 || response.status === 404 || response.status === 405) &&
      !isModernRefusal(rpcError?.error)
    ) {
      if (await this.#fallBackToSse(request)) return;
    }
    if (rpcError !== undefined) {
      this.#deliver({ jsonrpc: '2.0', id: request.id, error: rpcError.error });
      return;
    }
    throw httpStatusError(`POST ${this.#url.href} answered ${describeMessage(request)}`, response, text, {
      url: this.#url.href,
      httpMethod: 'POST',
      method: request.method,
    });
  }

  /** 404 for the session: start a new one by replaying `initialize` (when asked to), else fail and close. */
  async #sessionGone(entry: InFlight, state: ExchangeState, sentSession: string, body: string): Promise<void> {
    const initialize = this.#initializeRequest;
    if (
      this.#reinitialize &&
      !state.reinitialized &&
      initialize !== undefined &&
      entry.request.method !== 'initialize'
    ) {
      state.reinitialized = true;
      if (this.#sessionId === sentSession) {
        this.#sessionId = undefined;
        this.#reinitializing ??= this.#replayInitialize(initialize).finally(() => {
          this.#reinitializing = undefined;
        });
      }
      await this.#reinitializing;
      return this.#roundTrip(entry, state);
    }
    if (this.#sessionId === sentSession) this.#sessionId = undefined;
    const error = new StreamableHttpError(
      'ERR_SESSION_EXPIRED',
      `The server no longer knows session ${sentSession} (HTTP 404); connect again to start a new session`,
      {
        status: 404,
        url: this.#url.href,
        httpMethod: 'POST',
        method: entry.request.method,
        sessionId: sentSession,
        body: excerpt(body),
      },
    );
    this.#finish(entry, error);
    // After the peer has seen this request fail with the error (not with a generic "connection closed").
    setTimeout(() => this.#closeWith(error), 0);
  }

  async #replayInitialize(initialize: JsonRpcRequest): Promise<void> {
    this.#stopStandalone();
    const replay: JsonRpcRequest = { ...initialize, id: this.#privateId('reinitialize') };
    const answer = await this.#privateCall(replay, this.#lifetime.signal);
    if ('error' in answer) {
      throw new StreamableHttpError(
        'ERR_SESSION_EXPIRED',
        `The session expired and the replayed initialize failed: ${answer.error.message}`,
        { url: this.#url.href, method: 'initialize' },
      );
    }
    this.#learnInitialize(answer.result);
    await this.#postOther({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /** Re-runs `tools/list` (all pages) with the envelope of `call`, to learn current `x-mcp-header` declarations. */
  async #relistTools(call: JsonRpcRequest): Promise<boolean> {
    const meta = { ...((call.params as { _meta?: Record<string, unknown> } | undefined)?._meta ?? {}) };
    delete meta.progressToken;
    let cursor: string | undefined;
    try {
      for (let page = 0; page < MAX_RELIST_PAGES; page++) {
        const params: Record<string, unknown> = cursor === undefined ? { _meta: meta } : { _meta: meta, cursor };
        const request: JsonRpcRequest = { jsonrpc: '2.0', id: this.#privateId('relist'), method: 'tools/list', params };
        const answer = await this.#privateCall(request, this.#lifetime.signal);
        if ('error' in answer) return false;
        this.#tools.learn(answer.result);
        const next = (answer.result as { nextCursor?: unknown } | null)?.nextCursor;
        if (typeof next !== 'string') return true;
        cursor = next;
      }
    } catch (error) {
      this.onerror?.(asError(error));
      return false;
    }
    return true;
  }

  /** A request of the transport's own: its response is returned, never delivered; other messages are. */
  async #privateCall(
    request: JsonRpcRequest,
    signal: AbortSignal,
  ): Promise<{ result: unknown } | { error: JsonRpcErrorObject }> {
    const modern = envelopeVersion(request) !== undefined;
    const response = await this.#post(request, signal, modern);
    let answer: { result: unknown } | { error: JsonRpcErrorObject } | undefined;
    const take = (message: JsonRpcMessage) => {
      if (isJsonRpcResponse(message) && message.id === request.id) {
        answer = 'error' in message ? { error: message.error } : { result: message.result };
      } else {
        this.#deliver(message);
      }
    };
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      const rpcError = errorResponseIn(text);
      if (rpcError !== undefined) return { error: rpcError.error };
      throw httpStatusError(`POST ${this.#url.href} answered ${describeMessage(request)}`, response, text, {
        url: this.#url.href,
        httpMethod: 'POST',
        method: request.method,
      });
    }
    if (mediaType(response) === 'text/event-stream' && response.hasBody) {
      await readSseStream(response, { onEvent: (event) => this.#parseEvent(event.data, take) });
    } else {
      for (const message of parseJsonBody(await response.text()).messages) take(message);
    }
    if (answer === undefined) {
      throw new StreamableHttpError('ERR_STREAM_ENDED', `The server did not answer ${describeMessage(request)}`, {
        url: this.#url.href,
        method: request.method,
      });
    }
    return answer;
  }

  async #fallBackToSse(initialize: JsonRpcRequest): Promise<boolean> {
    const sse = new SseClientTransport(this.#url, { fetch: this.#customFetch, headers: this.#headers });
    sse.onmessage = (message) => this.#deliver(message);
    sse.onerror = (error) => this.onerror?.(error);
    sse.onclose = (reason) => this.#closeWith(reason);
    try {
      await sse.start();
    } catch (error) {
      this.onerror?.(
        new StreamableHttpError(
          'ERR_HTTP_STATUS',
          `initialize was refused and the HTTP+SSE fallback failed too: ${asError(error).message}`,
          { url: this.#url.href, method: 'initialize' },
          { cause: error },
        ),
      );
      return false;
    }
    if (this.#closed) {
      await sse.close();
      return true;
    }
    this.#sse = sse;
    await sse.send(initialize);
    return true;
  }

  // ---- notifications and responses ----

  async #postOther(message: JsonRpcMessage): Promise<void> {
    const sentSession = this.#sessionId;
    const response = await this.#post(message, this.#lifetime.signal, this.#era === 'modern');
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      const error =
        response.status === 404 && sentSession !== undefined
          ? new StreamableHttpError(
              'ERR_SESSION_EXPIRED',
              `The server no longer knows session ${sentSession} (HTTP 404); connect again to start a new session`,
              { status: 404, url: this.#url.href, httpMethod: 'POST', sessionId: sentSession, body: excerpt(text) },
            )
          : httpStatusError(`POST ${this.#url.href} answered ${describeMessage(message)}`, response, text, {
              url: this.#url.href,
              httpMethod: 'POST',
              method: 'method' in message ? message.method : undefined,
            });
      if (error.code === 'ERR_SESSION_EXPIRED') {
        if (this.#sessionId === sentSession) this.#sessionId = undefined;
        if (!this.#reinitialize) setTimeout(() => this.#closeWith(error), 0);
      }
      throw error;
    }
    // A notification or response is answered 202 without a body; anything a server sends anyway is not for us.
    response.discard();
    if (
      isJsonRpcNotification(message) &&
      message.method === 'notifications/initialized' &&
      this.#era === 'legacy' &&
      this.#standaloneStream
    ) {
      // The session is usable once the server can reach the client: a server that sends a request on the standalone
      // stream before the GET arrives would lose it (the official SDK drops such messages), so wait for its answer.
      await this.#openStandalone();
    }
  }

  // ---- HTTP ----

  async #post(message: JsonRpcMessage, signal: AbortSignal, modern: boolean): Promise<HttpAnswer> {
    const fixed: Record<string, string | undefined> = { accept: ACCEPT_BOTH, 'content-type': 'application/json' };
    if (modern && 'method' in message) {
      Object.assign(fixed, standardHeadersFor(message, this.#protocolVersion));
      if (message.method === 'tools/call' && 'id' in message) {
        const params = message.params as { name?: unknown; arguments?: Record<string, unknown> } | undefined;
        Object.assign(fixed, headersForToolCall(this.#tools.paramsOf(params?.name), params?.arguments));
      }
    } else {
      fixed['mcp-session-id'] = this.#sessionId;
      if (!(isJsonRpcRequest(message) && message.method === 'initialize')) {
        fixed[McpHeaders.ProtocolVersion] = this.#protocolVersion;
      }
    }
    const headers = await buildHeaders(this.#headers, fixed);
    const body = serializeMessage(message);
    let response: HttpAnswer;
    try {
      response = await this.#http(this.#url, { method: 'POST', headers, body, signal });
    } catch (error) {
      throw new StreamableHttpError(
        'ERR_NETWORK',
        `POST ${this.#url.href} (${describeMessage(message)}) failed: ${asError(error).message}`,
        { url: this.#url.href, httpMethod: 'POST', method: 'method' in message ? message.method : undefined },
        { cause: error },
      );
    }
    if (!modern) {
      const sessionId = response.header('mcp-session-id');
      if (sessionId !== null && sessionId !== '') this.#sessionId = sessionId;
    }
    return response;
  }

  async #get(signal: AbortSignal, lastEventId: string | undefined): Promise<HttpAnswer> {
    const headers = await buildHeaders(this.#headers, {
      accept: 'text/event-stream',
      'mcp-session-id': this.#sessionId,
      [McpHeaders.ProtocolVersion]: this.#protocolVersion,
      'last-event-id': lastEventId,
    });
    try {
      return await this.#http(this.#url, { method: 'GET', headers, signal });
    } catch (error) {
      throw new StreamableHttpError(
        'ERR_NETWORK',
        `GET ${this.#url.href} failed: ${asError(error).message}`,
        { url: this.#url.href, httpMethod: 'GET' },
        { cause: error },
      );
    }
  }

  async #deleteSession(sessionId: string): Promise<void> {
    try {
      const headers = await buildHeaders(this.#headers, {
        'mcp-session-id': sessionId,
        [McpHeaders.ProtocolVersion]: this.#protocolVersion,
      });
      const response = await this.#http(this.#url, {
        method: 'DELETE',
        headers,
        signal: AbortSignal.timeout(DELETE_TIMEOUT_MS),
      });
      response.discard();
    } catch {
      // Best effort: the session expires on the server anyway.
    }
  }

  // ---- streams ----

  /**
   * Opens the standalone GET stream; resolves once the server answered the GET (the stream is open, or refused), or
   * after {@link STANDALONE_OPEN_WAIT_MS} if it holds the answer back.
   */
  #openStandalone(): Promise<void> {
    this.#stopStandalone();
    const controller = new AbortController();
    this.#standalone = controller;
    const chain: StreamChain = { controller, signal: controller.signal, attempts: 0 };
    let answered!: () => void;
    const ready = new Promise<void>((resolve) => {
      answered = resolve;
    });
    this.#connectChain(chain, false, answered).catch((error: unknown) => {
      answered();
      if (chain.signal.aborted) return;
      // A 404 here means the session is gone. Requests in flight learn it from their own 404 (and fail with it); with
      // none, or when re-initialising is off and nothing else will notice, close now with the reason.
      if (
        StreamableHttpError.is(error) &&
        error.code === 'ERR_SESSION_EXPIRED' &&
        !this.#reinitialize &&
        this.#inflight.size === 0
      ) {
        this.#sessionId = undefined;
        this.#closeWith(error);
        return;
      }
      this.onerror?.(asError(error));
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, STANDALONE_OPEN_WAIT_MS);
    });
    return Promise.race([ready, waited]).finally(() => clearTimeout(timer));
  }

  #stopStandalone(): void {
    this.#standalone?.abort();
    this.#standalone = undefined;
  }

  /** GETs a stream for `chain` (the standalone stream, or a resumption with `Last-Event-ID`) and reads it. */
  async #connectChain(chain: StreamChain, resuming: boolean, answered?: () => void): Promise<void> {
    const response = await this.#get(chain.signal, resuming ? chain.lastEventId : undefined);
    answered?.();
    if (response.status === 405 && chain.entry === undefined) {
      response.discard();
      return;
    }
    if (!response.ok || mediaType(response) !== 'text/event-stream' || !response.hasBody) {
      const text = await response.text().catch(() => '');
      throw new StreamableHttpError(
        response.status === 404 && this.#sessionId !== undefined ? 'ERR_SESSION_EXPIRED' : 'ERR_HTTP_STATUS',
        `GET ${this.#url.href} (${chain.entry === undefined ? 'standalone stream' : `resuming the stream of ${describeMessage(chain.entry.request)}`}) answered HTTP ${response.status} ${mediaType(response)}`,
        {
          status: response.status,
          url: this.#url.href,
          httpMethod: 'GET',
          sessionId: this.#sessionId,
          body: excerpt(text),
        },
      );
    }
    return this.#consume(response, chain);
  }

  /** Reads an SSE stream; when it ends too early (legacy era), resumes it with `Last-Event-ID`. */
  async #consume(response: HttpAnswer, chain: StreamChain): Promise<void> {
    let failure: unknown;
    this.#streams.add(chain.controller);
    try {
      await readSseStream(response, {
        onEvent: (event) => {
          if (event.id !== undefined) chain.lastEventId = event.id;
          chain.attempts = 0;
          if (event.data.trim() !== '' && (event.event === undefined || event.event === 'message')) {
            this.#parseEvent(event.data, (message) => this.#deliver(message));
          }
        },
        onRetry: (retryMs) => {
          chain.retryMs = retryMs;
        },
      });
    } catch (error) {
      failure = error;
    } finally {
      this.#streams.delete(chain.controller);
    }
    if (this.#closed || chain.signal.aborted) return;
    const entry = chain.entry;
    if (entry !== undefined && this.#inflight.get(entry.request.id) !== entry) return;
    const why = failure === undefined ? 'the server closed it' : `it failed: ${asError(failure).message}`;
    if (entry?.modern === true || (entry !== undefined && chain.lastEventId === undefined)) {
      throw new StreamableHttpError(
        'ERR_STREAM_ENDED',
        `The response stream of ${describeMessage(entry.request)} ended before its response (${why})${entry.modern ? '' : ' and carried no event id to resume from'}`,
        { url: this.#url.href, method: entry.request.method },
        { cause: failure },
      );
    }
    return this.#resume(chain, why);
  }

  async #resume(chain: StreamChain, why: string): Promise<void> {
    for (;;) {
      if (chain.attempts >= this.#policy.maxAttempts) {
        const what =
          chain.entry === undefined ? 'standalone stream' : `stream of ${describeMessage(chain.entry.request)}`;
        throw new StreamableHttpError(
          'ERR_STREAM_ENDED',
          `The ${what} ended (${why}) and ${chain.attempts} reconnection attempts failed`,
          { url: this.#url.href, sessionId: this.#sessionId },
        );
      }
      const delay = reconnectDelay(this.#policy, chain.attempts, chain.retryMs);
      chain.attempts++;
      if (!(await waitToReconnect(delay, chain.signal)) || this.#closed) return;
      try {
        return await this.#connectChain(chain, chain.lastEventId !== undefined);
      } catch (error) {
        if (chain.signal.aborted || this.#closed) return;
        if (!StreamableHttpError.is(error) || error.code !== 'ERR_NETWORK') {
          if (StreamableHttpError.is(error) && error.code === 'ERR_SESSION_EXPIRED') {
            this.#sessionId = undefined;
            // After the request of this stream (if any) has failed with this error.
            setTimeout(() => this.#closeWith(error), 0);
          }
          throw error;
        }
        why = error.message;
      }
    }
  }

  // ---- inbound ----

  #parseEvent(data: string, take: (message: JsonRpcMessage) => void): void {
    const { messages, problems } = parseJsonBody(data);
    for (const message of messages) take(message);
    for (const problem of problems) {
      this.onerror?.(
        new StreamableHttpError('ERR_INVALID_BODY', `An SSE event is not a JSON-RPC message: ${problem}`, {
          url: this.#url.href,
          body: excerpt(data),
        }),
      );
    }
  }

  #deliverJson(text: string, method: string): void {
    const { messages, problems } = parseJsonBody(text);
    for (const message of messages) this.#deliver(message);
    for (const problem of problems) {
      this.onerror?.(
        new StreamableHttpError('ERR_INVALID_BODY', `The JSON response to '${method}' is not JSON-RPC: ${problem}`, {
          url: this.#url.href,
          method,
          body: excerpt(text),
        }),
      );
    }
  }

  #deliver(message: JsonRpcMessage): void {
    if (this.#closed) return;
    if (isJsonRpcResponse(message) && message.id !== null) {
      const entry = this.#inflight.get(message.id);
      if (entry !== undefined) {
        if ('result' in message) {
          if (entry.request.method === 'initialize') this.#learnInitialize(message.result);
          else if (entry.request.method === 'tools/list' && entry.modern) this.#tools.learn(message.result);
        }
        this.#finish(entry);
      }
    }
    this.onmessage?.(message);
  }

  #learnInitialize(result: unknown): void {
    const version = (result as { protocolVersion?: unknown } | null)?.protocolVersion;
    if (typeof version === 'string') this.#protocolVersion = version;
  }

  // ---- bookkeeping ----

  #finish(entry: InFlight, error?: Error): void {
    if (this.#inflight.get(entry.request.id) !== entry) return;
    this.#inflight.delete(entry.request.id);
    if (error === undefined) entry.resolve();
    else entry.reject(error);
  }

  #cancel(entry: InFlight): void {
    this.#finish(entry);
    entry.controller.abort();
  }

  #privateId(purpose: string): string {
    return `mcpkit-transport-${purpose}-${++this.#privateIds}`;
  }

  #shutDown(): void {
    this.#closed = true;
    this.#lifetime.abort();
    this.#stopStandalone();
    const closed = new StreamableHttpError('ERR_TRANSPORT_CLOSED', 'StreamableHttpClientTransport closed', {
      url: this.#url.href,
    });
    for (const entry of [...this.#inflight.values()]) {
      this.#finish(entry, closed);
      entry.controller.abort();
    }
    for (const stream of this.#streams) stream.abort();
    this.#streams.clear();
  }

  #closeWith(reason: Error | undefined): void {
    if (this.#closed) return;
    this.#shutDown();
    void this.#sse?.close();
    this.onclose?.(reason);
  }
}
