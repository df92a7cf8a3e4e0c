import {
  AbortLink,
  type AbortSource,
  isJsonRpcNotification,
  isJsonRpcRequest,
  isJsonRpcResponse,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type MessageInfo,
  type RequestId,
  serializeMessage,
  type Transport,
  type TransportSendOptions,
} from '@mcpkit/jsonrpc-core';
import { type Era, eraOfVersion } from '@mcpkit/protocol';
import type { ClientCore, HttpEra, InFlight, PrivateAnswer, RoundTripState, StreamChain } from './client-core';
import { isModernRefusal, modernVersionOf } from './era-rules';
import { asError, describeMessage, excerpt, httpStatusError, StreamableHttpError } from './errors';
import type { HttpAnswer, HttpExchange } from './http-exchange';
import { LegacySession } from './legacy-session';
import { ModernRequests } from './modern-requests';
import { type ReconnectOptions, reconnectPolicy } from './reconnect';
import { buildHeaders, type HeadersOption } from './request-headers';
import { errorResponseIn, mediaType, parseJsonBody } from './response-body';
import { exchangeFor } from './runtime-exchange';
import type { SseClientTransport } from './sse-client-transport';
import { readSseStream } from './sse-reader';

/** The SSE event type a server (ours) sends on a resumed stream that has a gap; see the server's out-stream.ts. */
const EVENTS_LOST_EVENT = 'mcpkit-gap';
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

const ACCEPT_BOTH = 'application/json, text/event-stream';

/**
 * The client side of MCP's Streamable HTTP transport, for both protocol eras (legacy-session.ts, modern-requests.ts):
 *
 * - **2026-07-28**: every request is one POST with `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and the
 *   `Mcp-Param-*` headers declared with `x-mcp-header` (learned from the `tools/list` results it carries; on a
 *   HeaderMismatch -32020 about param headers it re-lists tools and retries once). Cancelling a request closes its
 *   response stream instead of sending `notifications/cancelled`.
 * - **2025-03-26 … 2025-11-25**: `Mcp-Session-Id` captured at `initialize` and echoed, `MCP-Protocol-Version` from
 *   the initialize result, the standalone GET stream, streams resumed with `Last-Event-ID` after the server's `retry`
 *   (bounded backoff otherwise), DELETE on close, and a fallback to the deprecated HTTP+SSE transport.
 *
 * Responses may be JSON or SSE (parsed with eventsource-parser). Requests go out through the caller's `fetch`, else on
 * Node through `node:http` keep-alive agents, else through the runtime's `fetch` (runtime-exchange.ts).
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
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onclose?: (reason?: Error) => void;
  onerror?: (error: Error) => void;

  readonly #url: URL;
  readonly #http: HttpExchange;
  readonly #headers: HeadersOption | undefined;
  readonly #fallbackToSse: boolean;
  readonly #lifetime = new AbortController();
  readonly #inflight = new Map<RequestId, InFlight>();
  /** Streams being read, so close() can end those whose request was already answered (a resumed GET kept open). */
  readonly #streams = new Set<AbortLink>();
  readonly #legacy: LegacySession;
  readonly #modern: ModernRequests;
  /** Each era's half, by name: the transport picks one per message ({@link #eraOf}) and asks it. */
  readonly #eras: Readonly<Record<Era, HttpEra>>;
  /** The half of the era the client negotiated (`setProtocolVersion`); legacy until told. */
  #told: HttpEra;
  #version: string | undefined;
  #sse: SseClientTransport | undefined;
  #privateIds = 0;
  #started = false;
  #closed = false;

  constructor(url: string | URL, options: StreamableHttpClientTransportOptions = {}) {
    this.#url = new URL(url);
    this.#http = exchangeFor(options.fetch);
    this.#headers = options.headers;
    this.#fallbackToSse = options.fallbackToSse !== false;
    const core = this.#core();
    this.#legacy = new LegacySession(core, {
      policy: reconnectPolicy(options.reconnect),
      standaloneStream: options.standaloneStream !== false,
      reinitialize: options.reinitializeOnSessionExpired === true,
      fetch: options.fetch,
    });
    this.#modern = new ModernRequests(core);
    this.#eras = { legacy: this.#legacy, modern: this.#modern };
    this.#told = this.#legacy;
  }

  /** The legacy session id the server assigned at `initialize`, if any. */
  get sessionId(): string | undefined {
    return this.#legacy.sessionId;
  }

  /**
   * The protocol version the client negotiated (`setProtocolVersion`); before it says, the version of the last
   * `initialize` result (the transport replays `initialize` on its own when a session expires, so it reads that one).
   */
  get protocolVersion(): string | undefined {
    return this.#version ?? this.#legacy.protocolVersion;
  }

  /**
   * Tells the transport the version the client negotiated, and so its era: legacy versions send the session headers,
   * 2026-07-28 the standard headers on every POST, and `close()` ends a legacy session. `@mcpkit/client` calls it as
   * soon as negotiation settles (before `notifications/initialized`), as the official SDKs' clients do; a client that
   * never calls it is served by the legacy rules, except for requests whose `_meta` envelope names 2026-07-28 (the
   * probe that comes before negotiation), which always go by the modern ones.
   *
   * @example
   * transport.setProtocolVersion('2026-07-28');
   */
  setProtocolVersion(version: string): void {
    this.#version = version;
    this.#told = this.#eras[eraOfVersion(version)];
    // Each half sends it in its own headers; only the told era's half sends messages that name no version.
    this.#legacy.protocolVersion = version;
    this.#modern.protocolVersion = version;
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
   * 2026-07-28 requests are cancelled by closing their response stream (aborting their request), never with
   * `notifications/cancelled`: the peer hands each one a signal and this transport aborts the stream when it fires.
   * Legacy requests (and everything after a fallback to HTTP+SSE) are cancelled with the notification.
   */
  cancelsBySignal(request: JsonRpcRequest): boolean {
    return this.#sse === undefined && this.#eraOf(request).cancelsBySignal;
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
          if (!entry.era.cancelsBySignal) await this.#postOther(message);
        } finally {
          this.#cancel(entry);
        }
        return;
      }
    }
    // `cancellation` first: reading `signal` would make an AbortSignal for the request.
    if (isJsonRpcRequest(message)) return this.#sendRequest(message, options?.cancellation ?? options?.signal);
    return this.#postOther(message);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#shutDown();
    if (this.#sse !== undefined) await this.#sse.close();
    // Only a legacy session has an id to end (end() does nothing without one): no era to ask.
    await this.#legacy.end();
    this.onclose?.();
  }

  /** What the era halves use of this transport. */
  #core(): ClientCore {
    return {
      url: this.#url,
      http: this.#http,
      headers: this.#headers,
      lifetime: this.#lifetime.signal,
      isClosed: () => this.#closed,
      inFlightCount: () => this.#inflight.size,
      postOther: (message) => this.#postOther(message),
      retry: (entry, state) => this.#roundTrip(entry, state),
      privateCall: (request, signal) => this.#privateCall(request, signal),
      consume: (answer, chain) => this.#consume(answer, chain),
      deliver: (message) => this.#deliver(message),
      finish: (entry, error) => this.#finish(entry, error),
      report: (error) => this.onerror?.(error),
      closeWith: (reason) => this.#closeWith(reason),
      privateId: (purpose) => `mcpkit-transport-${purpose}-${++this.#privateIds}`,
    };
  }

  /**
   * The era whose rules `message` goes by, decided here and nowhere else: a message whose `_meta` envelope names a
   * 2026-07-28-era version goes by the modern rules (the probe comes before negotiation); any other request by the
   * legacy ones (the client's era object puts the envelope on every modern request, so the transport keeps no era of
   * its own for requests); a notification or response names no version and follows the era the client told.
   */
  #eraOf(message: JsonRpcMessage): HttpEra {
    if (modernVersionOf(message) !== undefined) return this.#modern;
    return isJsonRpcRequest(message) ? this.#legacy : this.#told;
  }

  // ---- requests ----

  #sendRequest(request: JsonRpcRequest, signal: AbortSource | undefined): Promise<void> {
    if (request.method === 'initialize') this.#legacy.initializing(request);
    return new Promise<void>((resolve, reject) => {
      const entry: InFlight = { request, era: this.#eraOf(request), cancel: new AbortLink(), resolve, reject };
      this.#inflight.set(request.id, entry);
      if (signal !== undefined) {
        // The peer gave up on this request (aborted or timed out): closing its stream tells the server. The signal is
        // this request's own (TransportSendOptions), so its listener goes with it: nothing to remove.
        if (signal.aborted) {
          this.#cancel(entry);
          return;
        }
        signal.addEventListener('abort', () => this.#cancel(entry), { once: true });
      }
      this.#roundTrip(entry, { relisted: false, reinitialized: false }).catch((error: unknown) =>
        this.#finish(entry, asError(error)),
      );
    });
  }

  async #roundTrip(entry: InFlight, state: RoundTripState): Promise<void> {
    const { request } = entry;
    const sentSession = this.#legacy.sessionId;
    const response = await this.#post(request, entry.cancel, entry.era);
    if (!response.ok) return this.#requestRejected(entry, state, response, sentSession);
    const type = mediaType(response);
    if (type === 'text/event-stream' && response.hasBody) {
      return this.#consume(response, { entry, era: entry.era, cancel: entry.cancel, attempts: 0 });
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
    response.discard();
    // Not what the spec allows for a request, but the answer may still come on the standalone stream.
    if (response.status === 202 || !response.hasBody) return;
    throw new StreamableHttpError(
      'ERR_CONTENT_TYPE',
      `POST ${this.#url.href} answered ${describeMessage(request)} with content type '${type}'; expected application/json or text/event-stream`,
      { status: response.status, url: this.#url.href, httpMethod: 'POST', method: request.method },
    );
  }

  async #requestRejected(
    entry: InFlight,
    state: RoundTripState,
    response: HttpAnswer,
    sentSession: string | undefined,
  ): Promise<void> {
    const { request } = entry;
    const text = await response.text().catch(() => '');
    if (response.status === 404 && sentSession !== undefined) {
      return this.#legacy.sessionGone(entry, state, sentSession, text);
    }
    const rpcError = errorResponseIn(text);
    if (rpcError !== undefined && (await entry.era.repair(entry, state, rpcError.error))) return;
    // 2026-07-28 §7e: a refused initialize without a 2026 error body may come from an HTTP+SSE-only server.
    if (
      request.method === 'initialize' &&
      this.#fallbackToSse &&
      this.#legacy.sessionId === undefined &&
      (response.status === 400 || response.status === 404 || response.status === 405) &&
      !isModernRefusal(rpcError?.error)
    ) {
      const sse = await this.#legacy.startSseFallback();
      if (sse !== undefined) {
        if (this.#closed) {
          await sse.close();
          return;
        }
        this.#sse = sse;
        await sse.send(request);
        return;
      }
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

  /** A request of the transport's own: its response is returned, never delivered; other messages are. */
  async #privateCall(request: JsonRpcRequest, signal: AbortSource): Promise<PrivateAnswer> {
    const response = await this.#post(request, signal, this.#eraOf(request));
    let answer: PrivateAnswer | undefined;
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

  // ---- notifications and responses ----

  async #postOther(message: JsonRpcMessage): Promise<void> {
    const sentSession = this.#legacy.sessionId;
    const response = await this.#post(message, this.#lifetime.signal, this.#eraOf(message));
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      if (response.status === 404 && sentSession !== undefined) {
        const expired = new StreamableHttpError(
          'ERR_SESSION_EXPIRED',
          `The server no longer knows session ${sentSession} (HTTP 404); connect again to start a new session`,
          { status: 404, url: this.#url.href, httpMethod: 'POST', sessionId: sentSession, body: excerpt(text) },
        );
        this.#legacy.expired(expired, sentSession);
        throw expired;
      }
      throw httpStatusError(`POST ${this.#url.href} answered ${describeMessage(message)}`, response, text, {
        url: this.#url.href,
        httpMethod: 'POST',
        method: 'method' in message ? message.method : undefined,
      });
    }
    // A notification or response is answered 202 without a body; anything a server sends anyway is not for us.
    response.discard();
    // notifications/initialized exists only in the legacy era: it opens the session's standalone stream.
    if (isJsonRpcNotification(message) && message.method === 'notifications/initialized') {
      await this.#legacy.initialized();
    }
  }

  // ---- HTTP ----

  /** POSTs one message with the headers of `era`, which also reads the answer's. */
  async #post(message: JsonRpcMessage, signal: AbortSource, era: HttpEra): Promise<HttpAnswer> {
    const fixed: Record<string, string | undefined> = { accept: ACCEPT_BOTH, 'content-type': 'application/json' };
    era.addHeaders(message, fixed);
    const headers = await buildHeaders(this.#headers, fixed);
    let response: HttpAnswer;
    try {
      response = await this.#http(this.#url, { method: 'POST', headers, body: serializeMessage(message), signal });
    } catch (error) {
      throw new StreamableHttpError(
        'ERR_NETWORK',
        `POST ${this.#url.href} (${describeMessage(message)}) failed: ${asError(error).message}`,
        { url: this.#url.href, httpMethod: 'POST', method: 'method' in message ? message.method : undefined },
        { cause: error },
      );
    }
    era.answered(response);
    return response;
  }

  // ---- streams ----

  /** Reads an SSE stream; when it ends too early, its era resumes it (legacy, with `Last-Event-ID`) or fails it. */
  async #consume(response: HttpAnswer, chain: StreamChain): Promise<void> {
    let failure: unknown;
    const related: MessageInfo | undefined =
      chain.entry === undefined ? undefined : { relatedRequestId: chain.entry.request.id };
    this.#streams.add(chain.cancel);
    try {
      await readSseStream(response, {
        onEvent: (event) => {
          if (event.id !== undefined) chain.lastEventId = event.id;
          chain.attempts = 0;
          if (event.data.trim() !== '' && (event.event === undefined || event.event === 'message')) {
            // What comes on a POST's stream belongs to that request: the peer learns which (`relatedRequestId`).
            this.#parseEvent(event.data, (message) => this.#deliver(message, related));
          } else if (event.event === EVENTS_LOST_EVENT) {
            this.onerror?.(
              new StreamableHttpError(
                'ERR_EVENTS_LOST',
                `Resumed a stream of ${this.#url.href} after event ${chain.lastEventId ?? '?'}, but the server no longer had every event since: some messages were lost (the client read too slowly, or was away longer than the server keeps events)`,
                { url: this.#url.href, sessionId: this.#legacy.sessionId, body: event.data.slice(0, 200) },
              ),
            );
          }
        },
        onRetry: (retryMs) => {
          chain.retryMs = retryMs;
        },
      });
    } catch (error) {
      failure = error;
    } finally {
      this.#streams.delete(chain.cancel);
    }
    if (this.#closed || chain.cancel.aborted) return;
    const entry = chain.entry;
    if (entry !== undefined && this.#inflight.get(entry.request.id) !== entry) return;
    const why = failure === undefined ? 'the server closed it' : `it failed: ${asError(failure).message}`;
    return chain.era.streamEnded(chain, why, failure);
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

  #deliver(message: JsonRpcMessage, info?: MessageInfo): void {
    if (this.#closed) return;
    if (isJsonRpcResponse(message) && message.id !== null) {
      const entry = this.#inflight.get(message.id);
      if (entry !== undefined) {
        if ('result' in message) entry.era.learn(entry.request, message.result);
        this.#finish(entry);
      }
    }
    this.onmessage?.(message, info);
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
    entry.cancel.abort();
  }

  #shutDown(): void {
    this.#closed = true;
    this.#lifetime.abort();
    this.#legacy.stopStandalone();
    const closed = new StreamableHttpError('ERR_TRANSPORT_CLOSED', 'StreamableHttpClientTransport closed', {
      url: this.#url.href,
    });
    for (const entry of [...this.#inflight.values()]) {
      this.#finish(entry, closed);
      entry.cancel.abort();
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
