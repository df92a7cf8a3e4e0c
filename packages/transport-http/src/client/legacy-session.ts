import {
  AbortLink,
  type AbortSource,
  isJsonRpcRequest,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from '@mcpkit/jsonrpc-core';
import { McpHeaders } from '@mcpkit/protocol';
import type { ClientCore, HttpEra, InFlight, RoundTripState, StreamChain } from './client-core';
import { asError, describeMessage, excerpt, StreamableHttpError, streamEndedError } from './errors';
import type { HttpAnswer } from './http-exchange';
import { type ReconnectPolicy, reconnectDelay, waitToReconnect } from './reconnect';
import { buildHeaders } from './request-headers';
import { mediaType } from './response-body';
import { SseClientTransport } from './sse-client-transport';

/** What the legacy half takes from the transport's options. */
export interface LegacySessionOptions {
  readonly policy: ReconnectPolicy;
  readonly standaloneStream: boolean;
  readonly reinitialize: boolean;
  /** The caller's `fetch`, for the HTTP+SSE fallback (undefined: the runtime's default path). */
  readonly fetch: typeof fetch | undefined;
}

const DELETE_TIMEOUT_MS = 5_000;
/** How long `notifications/initialized` waits for the server to answer the standalone GET before going on anyway. */
const STANDALONE_OPEN_WAIT_MS = 5_000;

/**
 * The 2025-03-26 … 2025-11-25 half of StreamableHttpClientTransport: the `Mcp-Session-Id` captured at `initialize`
 * and echoed, `MCP-Protocol-Version` from the initialize result, the standalone GET stream, streams resumed with
 * `Last-Event-ID` after the server's `retry` (bounded backoff otherwise), a new session on 404 when asked to, DELETE on
 * close, and the fallback to the deprecated HTTP+SSE transport.
 */
export class LegacySession implements HttpEra {
  /** A request is cancelled with `notifications/cancelled`. */
  readonly cancelsBySignal = false;
  sessionId: string | undefined;
  /** The version of the initialize result. */
  protocolVersion: string | undefined;
  readonly #core: ClientCore;
  readonly #options: LegacySessionOptions;
  #initializeRequest: JsonRpcRequest | undefined;
  #standalone: AbortLink | undefined;
  #reinitializing: Promise<void> | undefined;

  constructor(core: ClientCore, options: LegacySessionOptions) {
    this.#core = core;
    this.#options = options;
  }

  /** An `initialize` is being sent: remembered, to be replayed for a new session. */
  initializing(request: JsonRpcRequest): void {
    this.#initializeRequest = request;
  }

  /** Adds the session headers to a POST's `headers`. */
  addHeaders(message: JsonRpcMessage, headers: Record<string, string | undefined>): void {
    headers['mcp-session-id'] = this.sessionId;
    if (!(isJsonRpcRequest(message) && message.method === 'initialize')) {
      headers[McpHeaders.ProtocolVersion] = this.protocolVersion;
    }
  }

  /** Takes the session id a POST's answer assigns. */
  answered(answer: HttpAnswer): void {
    const sessionId = answer.header('mcp-session-id');
    if (sessionId !== null && sessionId !== '') this.sessionId = sessionId;
  }

  /** Learns what a delivered result teaches: the version `initialize` settled. */
  learn(request: JsonRpcRequest, result: unknown): void {
    if (request.method === 'initialize') this.learnInitialize(result);
  }

  /** Nothing to repair in a refused request of this era (a lost session is the 404's business: `sessionGone`). */
  async repair(): Promise<boolean> {
    return false;
  }

  learnInitialize(result: unknown): void {
    const version = (result as { protocolVersion?: unknown } | null)?.protocolVersion;
    if (typeof version === 'string') this.protocolVersion = version;
  }

  /** The session `sent` is gone (404): forget it, unless a newer one replaced it already. */
  forget(sent: string): void {
    if (this.sessionId === sent) this.sessionId = undefined;
  }

  /** A notification or response met a 404 for the session: close with that reason, unless sessions are renewed. */
  expired(error: StreamableHttpError, sent: string): void {
    this.forget(sent);
    if (!this.#options.reinitialize) setTimeout(() => this.#core.closeWith(error), 0);
  }

  /**
   * `notifications/initialized` was accepted: the session is usable once the server can reach the client. A server
   * that sends a request on the standalone stream before the GET arrives would lose it (the official SDK drops such
   * messages), so this waits for its answer.
   */
  async initialized(): Promise<void> {
    if (this.#options.standaloneStream) await this.#openStandalone();
  }

  /** 404 for the session: start a new one by replaying `initialize` (when asked to), else fail and close. */
  async sessionGone(entry: InFlight, state: RoundTripState, sentSession: string, body: string): Promise<void> {
    const core = this.#core;
    const initialize = this.#initializeRequest;
    if (
      this.#options.reinitialize &&
      !state.reinitialized &&
      initialize !== undefined &&
      entry.request.method !== 'initialize'
    ) {
      state.reinitialized = true;
      if (this.sessionId === sentSession) {
        this.sessionId = undefined;
        this.#reinitializing ??= this.#replayInitialize(initialize).finally(() => {
          this.#reinitializing = undefined;
        });
      }
      await this.#reinitializing;
      return core.retry(entry, state);
    }
    this.forget(sentSession);
    const error = new StreamableHttpError(
      'ERR_SESSION_EXPIRED',
      `The server no longer knows session ${sentSession} (HTTP 404); connect again to start a new session`,
      {
        status: 404,
        url: core.url.href,
        httpMethod: 'POST',
        method: entry.request.method,
        sessionId: sentSession,
        body: excerpt(body),
      },
    );
    core.finish(entry, error);
    // After the peer has seen this request fail with the error (not with a generic "connection closed").
    setTimeout(() => core.closeWith(error), 0);
  }

  async #replayInitialize(initialize: JsonRpcRequest): Promise<void> {
    const core = this.#core;
    this.stopStandalone();
    const replay: JsonRpcRequest = { ...initialize, id: core.privateId('reinitialize') };
    const answer = await core.privateCall(replay, core.lifetime);
    if ('error' in answer) {
      throw new StreamableHttpError(
        'ERR_SESSION_EXPIRED',
        `The session expired and the replayed initialize failed: ${answer.error.message}`,
        { url: core.url.href, method: 'initialize' },
      );
    }
    this.learnInitialize(answer.result);
    await core.postOther({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /**
   * 2026-07-28 §7e: `initialize` was refused as if by an HTTP+SSE-only server. Starts the deprecated HTTP+SSE
   * transport at the same URL, its messages delivered through this transport; undefined when that fails too.
   */
  async startSseFallback(): Promise<SseClientTransport | undefined> {
    const core = this.#core;
    const sse = new SseClientTransport(core.url, { fetch: this.#options.fetch, headers: core.headers });
    sse.onmessage = (message) => core.deliver(message);
    sse.onerror = (error) => core.report(error);
    sse.onclose = (reason) => core.closeWith(reason);
    try {
      await sse.start();
    } catch (error) {
      core.report(
        new StreamableHttpError(
          'ERR_HTTP_STATUS',
          `initialize was refused and the HTTP+SSE fallback failed too: ${asError(error).message}`,
          { url: core.url.href, method: 'initialize' },
          { cause: error },
        ),
      );
      return undefined;
    }
    return sse;
  }

  /** Ends the session on the server (DELETE, best effort, bounded). */
  async end(): Promise<void> {
    const sessionId = this.sessionId;
    if (sessionId === undefined) return;
    const core = this.#core;
    try {
      const headers = await buildHeaders(core.headers, {
        'mcp-session-id': sessionId,
        [McpHeaders.ProtocolVersion]: this.protocolVersion,
      });
      const response = await core.http(core.url, {
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
    const core = this.#core;
    this.stopStandalone();
    const cancel = new AbortLink();
    this.#standalone = cancel;
    const chain: StreamChain = { era: this, cancel, attempts: 0 };
    let answered!: () => void;
    const ready = new Promise<void>((resolve) => {
      answered = resolve;
    });
    this.connect(chain, false, answered).catch((error: unknown) => {
      answered();
      if (chain.cancel.aborted) return;
      // A 404 here means the session is gone. Requests in flight learn it from their own 404 (and fail with it); with
      // none, or when re-initialising is off and nothing else will notice, close now with the reason.
      if (
        StreamableHttpError.is(error) &&
        error.code === 'ERR_SESSION_EXPIRED' &&
        !this.#options.reinitialize &&
        core.inFlightCount() === 0
      ) {
        this.sessionId = undefined;
        core.closeWith(error);
        return;
      }
      core.report(asError(error));
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, STANDALONE_OPEN_WAIT_MS);
    });
    return Promise.race([ready, waited]).finally(() => clearTimeout(timer));
  }

  stopStandalone(): void {
    this.#standalone?.abort();
    this.#standalone = undefined;
  }

  /** GETs a stream for `chain` (the standalone stream, or a resumption with `Last-Event-ID`) and reads it. */
  async connect(chain: StreamChain, resuming: boolean, answered?: () => void): Promise<void> {
    const core = this.#core;
    const response = await this.#get(chain.cancel, resuming ? chain.lastEventId : undefined);
    answered?.();
    if (response.status === 405 && chain.entry === undefined) {
      response.discard();
      return;
    }
    if (!response.ok || mediaType(response) !== 'text/event-stream' || !response.hasBody) {
      const text = await response.text().catch(() => '');
      throw new StreamableHttpError(
        response.status === 404 && this.sessionId !== undefined ? 'ERR_SESSION_EXPIRED' : 'ERR_HTTP_STATUS',
        `GET ${core.url.href} (${chain.entry === undefined ? 'standalone stream' : `resuming the stream of ${describeMessage(chain.entry.request)}`}) answered HTTP ${response.status} ${mediaType(response)}`,
        {
          status: response.status,
          url: core.url.href,
          httpMethod: 'GET',
          sessionId: this.sessionId,
          body: excerpt(text),
        },
      );
    }
    return core.consume(response, chain);
  }

  /**
   * A stream of `chain` ended too early: a request's stream without an event id cannot be resumed; others are resumed
   * with `Last-Event-ID`.
   */
  async streamEnded(chain: StreamChain, why: string, failure: unknown): Promise<void> {
    if (chain.entry !== undefined && chain.lastEventId === undefined) {
      throw streamEndedError(
        this.#core.url,
        chain.entry.request,
        why,
        failure,
        ' and carried no event id to resume from',
      );
    }
    return this.#resume(chain, why);
  }

  /** A stream of `chain` ended too early: GET it again with `Last-Event-ID`, with bounded attempts and backoff. */
  async #resume(chain: StreamChain, why: string): Promise<void> {
    const core = this.#core;
    const policy = this.#options.policy;
    for (;;) {
      if (chain.attempts >= policy.maxAttempts) {
        const what =
          chain.entry === undefined ? 'standalone stream' : `stream of ${describeMessage(chain.entry.request)}`;
        throw new StreamableHttpError(
          'ERR_STREAM_ENDED',
          `The ${what} ended (${why}) and ${chain.attempts} reconnection attempts failed`,
          { url: core.url.href, sessionId: this.sessionId },
        );
      }
      const delay = reconnectDelay(policy, chain.attempts, chain.retryMs);
      chain.attempts++;
      if (!(await waitToReconnect(delay, chain.cancel)) || core.isClosed()) return;
      try {
        return await this.connect(chain, chain.lastEventId !== undefined);
      } catch (error) {
        if (chain.cancel.aborted || core.isClosed()) return;
        if (!StreamableHttpError.is(error) || error.code !== 'ERR_NETWORK') {
          if (StreamableHttpError.is(error) && error.code === 'ERR_SESSION_EXPIRED') {
            this.sessionId = undefined;
            // After the request of this stream (if any) has failed with this error.
            setTimeout(() => core.closeWith(error), 0);
          }
          throw error;
        }
        why = error.message;
      }
    }
  }

  async #get(signal: AbortSource, lastEventId: string | undefined): Promise<HttpAnswer> {
    const core = this.#core;
    const headers = await buildHeaders(core.headers, {
      accept: 'text/event-stream',
      'mcp-session-id': this.sessionId,
      [McpHeaders.ProtocolVersion]: this.protocolVersion,
      'last-event-id': lastEventId,
    });
    try {
      return await core.http(core.url, { method: 'GET', headers, signal });
    } catch (error) {
      throw new StreamableHttpError(
        'ERR_NETWORK',
        `GET ${core.url.href} failed: ${asError(error).message}`,
        { url: core.url.href, httpMethod: 'GET' },
        { cause: error },
      );
    }
  }
}
