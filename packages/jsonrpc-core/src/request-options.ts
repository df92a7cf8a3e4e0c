// Options of one outgoing request or notification. A leaf module: the peer and the handler contexts both use them.
import type { AbortSource } from './abort-link';
import type { JsonRpcRequest, RequestId } from './messages';

/** Options for one outgoing request. */
export interface RequestOptions {
  /**
   * Aborting it rejects the request with `RequestAbortedError` and sends the protocol's cancellation, if any. An
   * `AbortSignal`, or anything that reads like one (`AbortSource`): a handler's `ctx.cancellation`, an `AbortLink`.
   */
  signal?: AbortSource;
  /** Idle timeout in ms: how long to wait for the response (or the next progress). `0` or `Infinity`: none. */
  timeoutMs?: number;
  /** Restart the idle timeout on every progress notification. Default `true`: progress proves the peer is alive. */
  resetTimeoutOnProgress?: boolean;
  /** Hard cap in ms from sending, whatever the progress. `0` or `Infinity`: none. */
  maxTotalTimeoutMs?: number;
  /** Receives this request's progress notifications. Needs `hooks.attachProgressToken` (and `readProgress`). */
  onProgress?: (progress: unknown) => void;
  /** The inbound request this one is sent on behalf of (the transport may route by it). */
  relatedRequestId?: RequestId;
  /**
   * Called synchronously with the request as it will be sent (its id assigned, its progress token attached), before
   * the transport sees it. For protocols that refer to a request by its id later, e.g. MCP's `subscriptions/listen`,
   * whose notifications carry the listen request's id.
   */
  onRequest?: (request: JsonRpcRequest) => void;
}

/** Options for one outgoing notification. */
export interface NotifyOptions {
  /** The inbound request this notification belongs to (the transport may route by it). */
  relatedRequestId?: RequestId;
}
