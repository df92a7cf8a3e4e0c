import { AbortLink, ONCE } from './abort-link';
import { type ConnectionOwnerEntries, Connection as PeerConnection } from './connection';
import {
  type ContextPeer,
  InboundRequestContext,
  NO_MESSAGE_INFO,
  type NotificationContext,
  type RequestContext,
} from './context';
import { Deadlines, now } from './deadlines';
import { InvalidMessageError, JsonRpcError, RequestAbortedError } from './errors';
import type { PeerHooks } from './hooks';
import {
  abortedError,
  cancelledByPeerError,
  closedWhileHandlingError,
  closedWhilePendingError,
  describeId,
  dueRequests,
  findRunning,
  isPromiseLike,
  notConnectedError,
  type PendingRequest,
  releasePending,
  requestSendOptions,
  shiftDeadlines,
  takeRunning,
  timeoutError,
  timeoutValue,
  toError,
  toErrorObject,
  trackRunning,
  transmit,
  unknownResponseError,
  untrackRunning,
} from './in-flight';
import type { JsonRpcNotification, JsonRpcParams, JsonRpcRequest, JsonRpcResponse, RequestId } from './messages';
import { classifyMessage, KIND_NOTIFICATION, KIND_REQUEST, KIND_RESPONSE } from './parse';
import { type JsonRpcPeerOptions, PeerSettings } from './peer-settings';
import type { NotifyOptions, RequestOptions } from './request-options';
import type { NotificationHandler, RequestHandler, Router } from './router';
import type { MessageInfo, Transport } from './transport';

const NO_REQUEST_OPTIONS: RequestOptions = Object.freeze({});
const NO_NOTIFY_OPTIONS: NotifyOptions = Object.freeze({});

type Connection = PeerConnection<JsonRpcPeer>;

/**
 * Turns one transport into a JSON-RPC peer: sends requests and correlates their responses (with timeouts, abort
 * signals and progress), answers inbound requests concurrently from a `Router`, and shuts down cleanly.
 *
 * Both ends of a connection are peers; "client" and "server" are roles above this layer.
 *
 * @example
 * const [left, right] = createLinkedTransports();
 * const server = new JsonRpcPeer();
 * server.setRequestHandler('add', (params) => {
 *   const [a, b] = params as [number, number];
 *   return a + b;
 * });
 * const client = new JsonRpcPeer();
 * await Promise.all([server.connect(right), client.connect(left)]);
 * console.log(await client.request<number>('add', [2, 3], { timeoutMs: 5_000 })); // 5
 * await client.close();
 */
export class JsonRpcPeer implements ContextPeer {
  /** Called with problems that have no caller to reject: unanswerable input, late responses, failed writes. */
  onerror: ((error: Error) => void) | undefined;
  /** Called once each time the connection closes (locally or by the transport). */
  onclose: (() => void) | undefined;

  // Idle sessions are many (one per HTTP client), so a peer allocates nothing it does not use yet: the pending map
  // on the first request sent, no closures of its own.
  readonly #settings: PeerSettings;
  #lastId = 0;
  #pending: Map<RequestId, PendingRequest> | undefined = undefined;
  #connection: Connection | undefined = undefined;
  /** One timer for the deadlines of every request in flight (created on the first request with a timeout). */
  #timer: Deadlines | undefined = undefined;
  /** Open `holdTimeouts()` holds, and since when (`now()` time) the first of them holds. */
  #holds = 0;
  #heldSince = 0;
  /** What a failed send of a request fails it with: made on first use, then shared by every request. */
  #pendingFailer: ((entry: PendingRequest, error: unknown) => void) | undefined = undefined;
  /** What a failed send of a response reports with (`transmit`'s subject is the peer): one for every peer. */
  static readonly #reportFailure = (peer: JsonRpcPeer, error: unknown): void => peer.#report(error);

  static {
    PeerConnection.owner = {
      receive: (peer, connection, message, info) => peer.#receive(connection, message, info),
      closed: (peer, connection, reason) => peer.#handleTransportClose(connection, reason),
      report: (peer, error) => peer.#report(error),
    } satisfies ConnectionOwnerEntries<JsonRpcPeer> as ConnectionOwnerEntries<never>;
  }

  constructor(options: JsonRpcPeerOptions = {}) {
    this.#settings = options.settings ?? new PeerSettings(options);
    this.onerror = options.onError;
    this.onclose = options.onClose;
  }

  /** The method table this peer answers from (possibly shared with other peers). */
  get router(): Router {
    return this.#settings.router;
  }

  /** The protocol seams in use. */
  get hooks(): PeerHooks {
    return this.#settings.hooks;
  }

  /** The current transport (also after it closed, until the next `connect`). */
  get transport(): Transport | undefined {
    return this.#connection?.transport;
  }

  /** True between a successful `connect()` and the close of that connection. */
  get connected(): boolean {
    const connection = this.#connection;
    return connection !== undefined && !connection.closed;
  }

  /** Outgoing requests awaiting a response. */
  get pendingRequestCount(): number {
    return this.#pending?.size ?? 0;
  }

  /** Inbound requests whose handlers are still running. */
  get runningHandlerCount(): number {
    const connection = this.#connection;
    if (connection === undefined) return 0;
    return connection.one !== undefined ? 1 : (connection.running?.size ?? 0);
  }

  /**
   * Takes over the transport's `onmessage`/`onclose`/`onerror` slots and starts it. A closed peer may connect again;
   * a connected one may not.
   */
  async connect(transport: Transport): Promise<void> {
    const current = this.#connection;
    if (current !== undefined && !current.closed) {
      throw new Error('JsonRpcPeer.connect: this peer is already connected; close() it before connecting again');
    }
    const connection = new PeerConnection<JsonRpcPeer>(this, transport);
    this.#connection = connection;
    if (typeof transport.attachReceiver === 'function') {
      transport.attachReceiver(connection);
    } else {
      transport.onmessage = (message, info) => this.#receive(connection, message, info);
      transport.onclose = (reason) => this.#handleTransportClose(connection, reason);
      transport.onerror = (error) => this.#report(error);
    }
    try {
      await transport.start();
    } catch (error) {
      this.#teardown(connection);
      throw error;
    }
  }

  /**
   * Closes the connection: every pending request rejects at once with `ConnectionClosedError`, every running handler's
   * signal aborts, every timer is cleared; then the transport is closed and `onclose` runs. Idempotent.
   *
   * `reason` says why (a keep-alive that got no answer, a policy): it is named in the message of every
   * `ConnectionClosedError` and kept as its `cause`, as when the transport closes with a reason.
   *
   * @example
   * await peer.close(new Error('no answer to 3 pings in 90 s'));
   */
  close(reason?: Error): Promise<void> {
    const connection = this.#connection;
    if (connection === undefined) return Promise.resolve();
    if (connection.closing === undefined) connection.closing = this.#closeConnection(connection, reason);
    return connection.closing;
  }

  /**
   * Calls `listener` once, at the first message the other side sends on the current connection (at once if it has),
   * and returns a remover: a probe can tell a peer still starting (silent so far) from one up but not answering.
   */
  onFirstMessage(listener: () => void): () => void {
    const connection = this.#connection;
    return connection === undefined || connection.closed ? () => {} : connection.onFirstMessage(listener);
  }

  /**
   * Stops every request timeout until the returned function is called, then moves the deadlines of the requests
   * still pending later by the time held. Holds nest. For time that is no one's fault on the wire (a user signing in).
   *
   * @example
   * const release = peer.holdTimeouts(); await waitForTheUser(); release();
   */
  holdTimeouts(): () => void {
    if (this.#holds++ === 0) this.#heldSince = now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.#holds > 0 || this.#pending === undefined) return;
      const next = shiftDeadlines(this.#pending.values(), now() - this.#heldSince);
      if (next !== Infinity) this.#deadlines.arm(next);
    };
  }

  /** Registers a request handler on this peer's router (shared routers: for every peer using it). */
  setRequestHandler(method: string, handler: RequestHandler): void {
    this.router.setRequestHandler(method, handler);
  }

  /** Removes a request handler from this peer's router. */
  removeRequestHandler(method: string): boolean {
    return this.router.removeRequestHandler(method);
  }

  /** Registers a notification handler on this peer's router. */
  setNotificationHandler(method: string, handler: NotificationHandler): void {
    this.router.setNotificationHandler(method, handler);
  }

  /** Removes a notification handler from this peer's router. */
  removeNotificationHandler(method: string): boolean {
    return this.router.removeNotificationHandler(method);
  }

  /**
   * Sends a request and resolves to its result. Rejects with `JsonRpcError` when the peer answers with an error, and
   * with a local error otherwise: `RequestTimeoutError`, `RequestAbortedError`, `ConnectionClosedError`, or whatever
   * the transport's `send` failed with.
   *
   * @example
   * const result = await peer.request<{ content: unknown[] }>('tools/call', { name: 'slow' }, {
   *   timeoutMs: 10_000,
   *   maxTotalTimeoutMs: 120_000,
   *   onProgress: (progress) => console.log(progress),
   *   signal: AbortSignal.timeout(60_000),
   * });
   */
  request<R = unknown>(method: string, params?: JsonRpcParams, options?: RequestOptions): Promise<R> {
    return this.#sendRequest(method, params, options ?? NO_REQUEST_OPTIONS) as Promise<R>;
  }

  /**
   * Sends a notification. Resolves once the transport accepted it.
   *
   * @example
   * await peer.notify('notifications/initialized');
   */
  notify(method: string, params?: JsonRpcParams, options?: NotifyOptions): Promise<void> {
    return this.#sendNotification(method, params, options ?? NO_NOTIFY_OPTIONS);
  }

  /** The router's handler for the method. */
  #dispatch(request: JsonRpcRequest, ctx: RequestContext): unknown {
    const handler = this.router.resolveRequestHandler(request.method);
    if (handler === undefined) throw JsonRpcError.methodNotFound(request.method);
    return handler(request.params, ctx);
  }

  // ---- outgoing ----

  #sendRequest(method: string, params: JsonRpcParams | undefined, options: RequestOptions): Promise<unknown> {
    // Everything runs in the executor: what throws there (a closed peer, a bad option, a failing hook) rejects.
    return new Promise<unknown>((resolve, reject) => {
      const connection = this.#connection;
      if (connection === undefined || connection.closed) throw notConnectedError('request', method);
      const signal = options.signal;
      if (signal?.aborted) {
        throw new RequestAbortedError(`Request '${method}' was aborted before it was sent`, {
          method,
          reason: signal.reason,
        });
      }
      const settings = this.#settings;
      const timeoutMs =
        options.timeoutMs === undefined ? settings.defaultTimeoutMs : timeoutValue(options.timeoutMs, 'timeoutMs');
      const maxTotalMs =
        options.maxTotalTimeoutMs === undefined
          ? settings.maxTotalTimeoutMs
          : timeoutValue(options.maxTotalTimeoutMs, 'maxTotalTimeoutMs');
      const id = settings.idGenerator === undefined ? ++this.#lastId : settings.idGenerator();
      if (this.#pending?.has(id)) {
        throw new Error(`JsonRpcPeer: idGenerator returned ${describeId(id)}, which a pending request already uses`);
      }
      if (options.onProgress !== undefined) {
        const attach = this.hooks.attachProgressToken;
        if (attach === undefined) {
          throw new TypeError(
            `Request '${method}': onProgress needs hooks.attachProgressToken; jsonrpc-core does not know where your protocol carries progress tokens`,
          );
        }
        params = attach(params, id);
      }
      const request: JsonRpcRequest =
        params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
      const sentAt = timeoutMs > 0 || maxTotalMs > 0 ? now() : 0;
      const entry: PendingRequest = {
        request,
        relatedRequestId: options.relatedRequestId,
        resolve,
        reject,
        onProgress: options.onProgress,
        resetOnProgress: options.resetTimeoutOnProgress !== false,
        timeoutMs,
        maxTotalMs,
        idleDeadline: timeoutMs > 0 ? sentAt + timeoutMs : Infinity,
        totalDeadline: maxTotalMs > 0 ? sentAt + maxTotalMs : Infinity,
        signal: undefined,
        onAbort: undefined,
        cancel: connection.transport.cancelsBySignal?.(request) === true ? new AbortLink() : undefined,
      };
      if (this.#pending === undefined) this.#pending = new Map();
      this.#pending.set(request.id, entry);
      if (options.onRequest !== undefined) {
        try {
          options.onRequest(request);
        } catch (error) {
          this.#forget(entry);
          reject(error);
          return;
        }
      }
      const deadline = Math.min(entry.idleDeadline, entry.totalDeadline);
      if (deadline !== Infinity) this.#deadlines.arm(deadline);
      if (signal !== undefined) {
        const onAbort = () => this.#abortPending(entry, signal.reason);
        entry.signal = signal;
        entry.onAbort = onAbort;
        signal.addEventListener('abort', onAbort, ONCE);
      }
      const sendOptions = requestSendOptions(options.relatedRequestId, entry.cancel);
      transmit(connection.transport, request, sendOptions, this.#failPendingOnError, entry);
    });
  }

  #sendNotification(method: string, params: JsonRpcParams | undefined, options: NotifyOptions): Promise<void> {
    const connection = this.#connection;
    if (connection === undefined || connection.closed) return Promise.reject(notConnectedError('notification', method));
    const notification: JsonRpcNotification =
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    try {
      const sent = connection.transport.send(notification, options === NO_NOTIFY_OPTIONS ? undefined : options);
      return isPromiseLike(sent) ? Promise.resolve(sent) : Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Removes a pending request and its abort listener. False when it was already settled. */
  #forget(entry: PendingRequest): boolean {
    const id = entry.request.id;
    const pending = this.#pending;
    if (pending?.get(id) !== entry) return false;
    pending.delete(id);
    if (pending.size === 0) this.#timer?.idle();
    releasePending(entry);
    return true;
  }

  get #deadlines(): Deadlines {
    if (this.#timer === undefined) this.#timer = new Deadlines((time) => this.#expire(time));
    return this.#timer;
  }

  /** The deadline timer fired: time out what is due, and arm it for the next deadline. */
  #expire(time: number): void {
    const pending = this.#pending;
    // While held, nothing times out; the release moves the deadlines and arms the timer again.
    if (pending === undefined || pending.size === 0 || this.#holds > 0) return;
    const { due, next } = dueRequests(pending.values(), time);
    if (next !== Infinity) this.#deadlines.arm(next);
    for (const entry of due) {
      const total = entry.totalDeadline <= time;
      this.#timeOut(entry, total ? entry.maxTotalMs : entry.timeoutMs, total);
    }
  }

  get #failPendingOnError(): (entry: PendingRequest, error: unknown) => void {
    this.#pendingFailer ??= (entry, error) => this.#failPending(entry, error);
    return this.#pendingFailer;
  }

  #failPending(entry: PendingRequest, error: unknown): void {
    if (this.#forget(entry)) entry.reject(error);
  }

  #timeOut(entry: PendingRequest, timeoutMs: number, maxTotal: boolean): void {
    if (!this.#forget(entry)) return;
    const error = timeoutError(entry, timeoutMs, maxTotal);
    entry.reject(error);
    this.#sendCancellation(entry, error);
  }

  #abortPending(entry: PendingRequest, reason: unknown): void {
    if (!this.#forget(entry)) return;
    entry.reject(abortedError(entry, reason));
    this.#sendCancellation(entry, reason);
  }

  /** Tells the other side to stop working on `entry`: the transport's way when it has one, else the protocol's. */
  #sendCancellation(entry: PendingRequest, reason: unknown): void {
    if (entry.cancel !== undefined) {
      entry.cancel.abort(reason);
      return;
    }
    const build = this.hooks.cancellationNotification;
    const connection = this.#connection;
    if (build === undefined || connection === undefined || connection.closed) return;
    try {
      const cancellation = build(entry.request, reason);
      if (cancellation === undefined) return;
      const options =
        entry.relatedRequestId === undefined ? NO_NOTIFY_OPTIONS : { relatedRequestId: entry.relatedRequestId };
      this.#sendNotification(cancellation.method, cancellation.params, options).then(undefined, (error) =>
        this.#report(error),
      );
    } catch (error) {
      this.#report(error);
    }
  }

  // ---- incoming ----

  #receive(connection: Connection, message: unknown, info: MessageInfo | undefined): void {
    if (connection.closed) return;
    if (!connection.heard) connection.heardFirstMessage();
    try {
      const kind = classifyMessage(message);
      if (kind === KIND_REQUEST) {
        this.#handleRequest(connection, message as JsonRpcRequest, info ?? NO_MESSAGE_INFO);
      } else if (kind === KIND_NOTIFICATION) {
        this.#handleNotification(connection, message as JsonRpcNotification, info ?? NO_MESSAGE_INFO);
      } else if (kind === KIND_RESPONSE) {
        this.#settleResponse(message as JsonRpcResponse);
      } else if (kind.id !== null && (message as { method?: unknown }).method !== undefined) {
        // It looked like a request and has an id: answer it, as JSON-RPC asks.
        transmit(connection.transport, kind, { relatedRequestId: kind.id }, JsonRpcPeer.#reportFailure, this);
      } else {
        this.#report(
          new InvalidMessageError(`Received an invalid JSON-RPC message: ${kind.error.message}`, {
            received: message,
            error: kind.error,
          }),
        );
      }
    } catch (error) {
      this.#report(error);
    }
  }

  #handleRequest(connection: Connection, request: JsonRpcRequest, info: MessageInfo): void {
    const ctx = new InboundRequestContext(this, request, info);
    const id = request.id;
    trackRunning(connection, ctx);
    // Every request passes here: a .then on the handler's answer, not an async frame. A throw answers at once.
    let handled: unknown;
    try {
      handled = this.#dispatch(request, ctx);
    } catch (error) {
      this.#respond(connection, ctx, { jsonrpc: '2.0', id, error: toErrorObject(error) });
      return;
    }
    Promise.resolve(handled).then(
      (result) => this.#respond(connection, ctx, { jsonrpc: '2.0', id, result: result === undefined ? null : result }),
      (error: unknown) => this.#respond(connection, ctx, { jsonrpc: '2.0', id, error: toErrorObject(error) }),
    );
  }

  #respond(connection: Connection, ctx: InboundRequestContext, response: JsonRpcResponse): void {
    untrackRunning(connection, ctx);
    ctx.dispose();
    // Cancelled, undeliverable (transport signal) or closed: the peer must not get a response.
    if (ctx.aborted || connection.closed) return;
    transmit(connection.transport, response, { relatedRequestId: ctx.requestId }, JsonRpcPeer.#reportFailure, this);
  }

  #handleNotification(connection: Connection, notification: JsonRpcNotification, info: MessageInfo): void {
    const { method, params } = notification;
    const hooks = this.hooks;
    const pending = this.#pending;
    if (hooks.readProgress !== undefined && pending !== undefined && pending.size > 0) {
      const update = hooks.readProgress(method, params);
      const entry = update === undefined ? undefined : pending.get(update.token);
      if (entry?.onProgress !== undefined) {
        // The deadline moves later; the timer, armed for an earlier one, finds it not due and re-arms.
        if (entry.resetOnProgress && entry.timeoutMs > 0) entry.idleDeadline = now() + entry.timeoutMs;
        try {
          entry.onProgress(update!.progress);
        } catch (error) {
          this.#report(error);
        }
        return;
      }
    }
    if (hooks.readCancellation !== undefined) {
      const cancellation = hooks.readCancellation(method, params);
      const target = cancellation === undefined ? undefined : findRunning(connection, cancellation.requestId);
      if (target !== undefined) {
        target.abort(cancelledByPeerError(target, cancellation!.reason));
      }
    }
    const handler = this.router.resolveNotificationHandler(method);
    if (handler === undefined) return;
    const ctx: NotificationContext = { method, message: notification, info, peer: this };
    try {
      const handled = handler(params, ctx);
      if (isPromiseLike(handled)) handled.then(undefined, (error) => this.#report(error));
    } catch (error) {
      this.#report(error);
    }
  }

  #settleResponse(response: JsonRpcResponse): void {
    const id = response.id;
    const entry = id === null || id === undefined ? undefined : this.#pending?.get(id);
    if (entry === undefined) {
      if ('error' in response && (id === null || id === undefined)) {
        // The peer could not tell which message it rejects (e.g. it could not parse one of ours).
        this.#report(JsonRpcError.fromObject(response.error));
      } else {
        this.#report(unknownResponseError(id as RequestId));
      }
      return;
    }
    this.#forget(entry);
    if ('error' in response && response.error !== undefined) {
      entry.reject(JsonRpcError.fromObject(response.error));
    } else {
      entry.resolve((response as { result: unknown }).result);
    }
  }

  // ---- shutdown ----

  async #closeConnection(connection: Connection, reason?: Error): Promise<void> {
    this.#teardown(connection, reason);
    try {
      await connection.transport.close();
    } finally {
      this.#emitClose(connection);
    }
  }

  #handleTransportClose(connection: Connection, reason: Error | undefined): void {
    this.#teardown(connection, reason);
    this.#emitClose(connection);
  }

  #teardown(connection: Connection, reason?: Error): void {
    if (connection.closed) return;
    connection.closed = true;
    if (this.#pending !== undefined && this.#pending.size > 0) {
      const pending = [...this.#pending.values()];
      this.#pending.clear();
      this.#timer?.stop();
      for (const entry of pending) {
        releasePending(entry);
        entry.reject(closedWhilePendingError(entry, reason));
      }
    }
    if (connection.one !== undefined || connection.running !== undefined) {
      for (const ctx of takeRunning(connection)) ctx.abort(closedWhileHandlingError(ctx, reason));
    }
  }

  /**
   * Runs once each time the connection closes, before `onclose`: the place for a subclass's own bookkeeping, so
   * `onclose` stays free for its users and no per-peer closure is needed.
   */
  protected connectionClosed(): void {}

  #emitClose(connection: Connection): void {
    if (connection.closeEmitted) return;
    connection.closeEmitted = true;
    try {
      this.connectionClosed();
    } catch (error) {
      this.#report(error);
    }
    try {
      this.onclose?.();
    } catch (error) {
      this.#report(error);
    }
  }

  #report(error: unknown): void {
    const onerror = this.onerror;
    if (onerror === undefined) return;
    try {
      // Called on the peer, so one shared handler can serve many peers (a server's sessions) without a closure each.
      onerror.call(this, toError(error));
    } catch {
      // A throwing error handler must not break message processing.
    }
  }
}
