import type { JsonRpcParams, Middleware, RequestId } from '@mcpkit/jsonrpc-core';
import type { ServerRequestContext } from '../context';
import type { ServerNotificationContext } from '../notification-context';
import type { ServerSession } from '../session';
import type { ContextVariableMap } from './variables';

/** What a server middleware sees: an inbound request or an inbound notification (tell them apart by `ctx.kind`). */
export type ServerContext<V extends object = ContextVariableMap> =
  | ServerRequestContext<V>
  | ServerNotificationContext<V>;

/**
 * A server middleware: `(ctx, next) => result`, run for every inbound request and notification on every path
 * (stdio, WebSocket, HTTP sessions, stateless HTTP, both eras), after the envelope, era and capability checks and
 * before the handler. Return a value (or throw a `JsonRpcError`) to answer without the handler; wrap `next()` to time,
 * retry or change the result. For notifications the result is ignored and not calling `next` swallows it.
 *
 * `V` declares the variables this middleware sets or reads (`ctx.set` / `ctx.get`); see `ContextVariableMap`.
 *
 * @example
 * const timing: ServerMiddleware = async (ctx, next) => {
 *   const started = performance.now();
 *   try {
 *     return await next();
 *   } finally {
 *     console.error(ctx.method, (performance.now() - started).toFixed(1), 'ms');
 *   }
 * };
 * server.use(timing);
 */
export type ServerMiddleware<V extends object = ContextVariableMap> = Middleware<ServerContext<V>, unknown>;

/** A message the server is about to send: a notification, or a server→client request (legacy era). */
export interface OutboundMessage {
  readonly kind: 'notification' | 'request';
  /** May be replaced by a hook before it calls `next`. */
  method: string;
  /** May be replaced by a hook before it calls `next` (for example with trace context in `_meta`). */
  params: JsonRpcParams | undefined;
  /** The session it goes to; `undefined` for a stateless request's notifications. */
  readonly session: ServerSession | undefined;
  /** The inbound request it belongs to (progress, logs, asks), if any. */
  readonly relatedRequestId: RequestId | undefined;
}

/**
 * Around every outbound notification and server→client request (for logging and tracing). Call `next()` to send;
 * change `message.params` first to send something else (e.g. trace context in `params._meta`). For a request, `next`
 * resolves to the client's result. Not calling `next` drops a notification.
 *
 * @example
 * server.useOutbound(async (message, next) => {
 *   console.error('→', message.method);
 *   return next();
 * });
 */
export type OutboundHook = Middleware<OutboundMessage, unknown>;
