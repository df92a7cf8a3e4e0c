import { AbortLink, type AbortSource, ONCE } from './abort-link';
import type { JsonRpcNotification, JsonRpcParams, JsonRpcRequest, RequestId } from './messages';
import type { NotifyOptions, RequestOptions } from './request-options';
import type { MessageInfo } from './transport';

/**
 * The peer a handler's context belongs to, as far as handlers use it: `JsonRpcPeer` (and so an MCP session) is one.
 * An interface rather than the class so this module does not import the peer, which creates the contexts. Narrow it
 * with `instanceof` to reach the rest (`ctx.peer instanceof ServerSession`).
 */
export interface ContextPeer {
  /** Whether the peer has a live transport. */
  readonly connected: boolean;
  /** Sends a request and resolves with its result. */
  request<R = unknown>(method: string, params?: JsonRpcParams, options?: RequestOptions): Promise<R>;
  /** Sends a notification. */
  notify(method: string, params?: JsonRpcParams, options?: NotifyOptions): Promise<void>;
  /** Closes the peer's transports. */
  close(): Promise<void>;
}

/** The `info` a handler sees when the transport gave none. Frozen and shared, so `ctx.info.auth` always works. */
export const NO_MESSAGE_INFO: MessageInfo = Object.freeze({});

/**
 * What a request handler knows about the request it is answering.
 *
 * @example
 * router.setRequestHandler('work', async (params, ctx) => {
 *   for (let step = 1; step <= 3; step++) {
 *     ctx.signal.throwIfAborted();
 *     await ctx.notify('progress', { step });
 *   }
 *   return { by: ctx.info.auth?.clientId };
 * });
 */
export interface RequestContext {
  readonly requestId: RequestId;
  readonly method: string;
  /** The request message as received. (Named `message` because `request()` sends one.) */
  readonly message: JsonRpcRequest;
  /**
   * Aborted when the request is cancelled by the peer, when the transport can no longer deliver the response
   * (`info.signal`), or when the connection closes. No response is sent once it is aborted.
   */
  readonly signal: AbortSignal;
  /**
   * The same cancellation as `signal`, as a plain {@link AbortSource}: reading it makes no `AbortSignal`. Pass it as
   * the `signal` of a request sent on this one's behalf (a proxy forwarding it), or listen to it with
   * `addEventListener('abort', …)`, where making an `AbortSignal` per request would cost more than the request.
   */
  readonly cancellation: AbortSource;
  /** What the transport knows about the message (auth, HTTP request data). An empty object when nothing. */
  readonly info: MessageInfo;
  /** The peer that received the request. */
  readonly peer: ContextPeer;
  /** Sends a notification tied to this request (`relatedRequestId`), e.g. progress. */
  notify(method: string, params?: JsonRpcParams): Promise<void>;
  /**
   * Sends a request tied to this request (`relatedRequestId`). Unless `options.signal` is given, it is aborted along
   * with this request.
   */
  request<R = unknown>(method: string, params?: JsonRpcParams, options?: RequestOptions): Promise<R>;
}

/** What a notification handler knows about the notification. */
export interface NotificationContext {
  readonly method: string;
  /** The notification message as received. */
  readonly message: JsonRpcNotification;
  readonly info: MessageInfo;
  readonly peer: ContextPeer;
}

/**
 * The peer's `RequestContext`. The AbortController is created only when a handler first reads `signal`: most
 * handlers never do, and the server hot path creates one of these per request.
 *
 * @internal
 */
export class InboundRequestContext implements RequestContext {
  readonly peer: ContextPeer;
  readonly message: JsonRpcRequest;
  readonly info: MessageInfo;
  #link: AbortLink | undefined = undefined;
  #aborted = false;
  #reason: unknown = undefined;
  #unlink: (() => void) | undefined = undefined;

  constructor(peer: ContextPeer, request: JsonRpcRequest, info: MessageInfo) {
    this.peer = peer;
    this.message = request;
    this.info = info;
  }

  get requestId(): RequestId {
    return this.message.id;
  }

  get method(): string {
    return this.message.method;
  }

  get signal(): AbortSignal {
    return this.#linked().signal;
  }

  get cancellation(): AbortSource {
    return this.#linked();
  }

  /** The request's abort link, made on first use and tied to the transport's signal (which may outlive the request). */
  #linked(): AbortLink {
    let link = this.#link;
    if (link === undefined) {
      link = new AbortLink();
      this.#link = link;
      const transportSignal = this.info.signal;
      if (this.#aborted) {
        link.abort(this.#reason);
      } else if (transportSignal !== undefined) {
        if (transportSignal.aborted) {
          this.abort(transportSignal.reason);
        } else {
          const onAbort = () => this.abort(transportSignal.reason);
          transportSignal.addEventListener('abort', onAbort, ONCE);
          this.#unlink = () => transportSignal.removeEventListener('abort', onAbort);
        }
      }
    }
    return link;
  }

  /** True once aborted, or when the transport's signal is aborted (even if `signal` was never read). */
  get aborted(): boolean {
    return this.#aborted || this.info.signal?.aborted === true;
  }

  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.dispose();
    this.#link?.abort(reason);
  }

  /** Stops listening to the transport's signal (which may outlive the request). */
  dispose(): void {
    const unlink = this.#unlink;
    if (unlink === undefined) return;
    this.#unlink = undefined;
    unlink();
  }

  notify(method: string, params?: JsonRpcParams): Promise<void> {
    return this.peer.notify(method, params, { relatedRequestId: this.message.id });
  }

  request<R = unknown>(method: string, params?: JsonRpcParams, options?: RequestOptions): Promise<R> {
    return this.peer.request<R>(method, params, {
      ...options,
      signal: options?.signal ?? this.cancellation,
      relatedRequestId: this.message.id,
    });
  }
}
