import type { JsonRpcParams, JsonRpcRequest, RequestId } from './messages';

/** A progress token: the peer uses the request's id. */
export type ProgressToken = string | number;

/** A progress notification, as read by `PeerHooks.readProgress`. */
export interface ProgressUpdate {
  token: ProgressToken;
  /** Passed to the request's `onProgress` as is. */
  progress: unknown;
}

/** An inbound cancellation, as read by `PeerHooks.readCancellation`. */
export interface CancellationRequest {
  requestId: RequestId;
  reason?: unknown;
}

/** A notification to send: method and params (`jsonrpc` is added by the peer). */
export interface OutboundNotification {
  method: string;
  params?: JsonRpcParams;
}

/**
 * The protocol seams: where a protocol carries progress tokens and cancellations. jsonrpc-core hard-codes none of
 * this; `@mcpkit/protocol` provides `mcpPeerHooks`. Every hook is optional; without one the feature is off
 * (`onProgress` without `attachProgressToken` is an error).
 *
 * @example
 * // Roughly what MCP's hooks look like:
 * const hooks: PeerHooks = {
 *   attachProgressToken: (params, token) => {
 *     const object = (params ?? {}) as Record<string, unknown>;
 *     return { ...object, _meta: { ...(object._meta as object | undefined), progressToken: token } };
 *   },
 *   readProgress: (method, params) => {
 *     if (method !== 'notifications/progress') return undefined;
 *     const { progressToken, ...progress } = params as { progressToken: string | number };
 *     return { token: progressToken, progress };
 *   },
 *   cancellationNotification: (request, reason) =>
 *     request.method === 'initialize'
 *       ? undefined
 *       : { method: 'notifications/cancelled', params: { requestId: request.id, reason: String(reason) } },
 *   readCancellation: (method, params) => {
 *     if (method !== 'notifications/cancelled') return undefined;
 *     const { requestId, reason } = params as { requestId: string | number; reason?: string };
 *     return { requestId, reason };
 *   },
 * };
 */
export interface PeerHooks {
  /** Returns the params with `token` attached, for a request sent with `onProgress`. Must not mutate `params`. */
  attachProgressToken?(params: JsonRpcParams | undefined, token: ProgressToken): JsonRpcParams;
  /** Reads a progress notification; `undefined` when this notification is not one. Called for every notification. */
  readProgress?(method: string, params: unknown): ProgressUpdate | undefined;
  /**
   * The notification that tells the peer to stop working on `request` (after a timeout or an abort), or `undefined`
   * to send none (for methods that must not be cancelled, such as MCP `initialize`). `reason` is the abort reason or
   * the `RequestTimeoutError`.
   */
  cancellationNotification?(request: JsonRpcRequest, reason: unknown): OutboundNotification | undefined;
  /** Reads a cancellation notification; `undefined` when this notification is not one. */
  readCancellation?(method: string, params: unknown): CancellationRequest | undefined;
}
