import type { Middleware } from '@mcpkit/jsonrpc-core';
import type { ServerRequestContext } from '../session/context';
import type { ServerNotificationContext } from '../session/notification-context';
import type { OutboundHook, OutboundMessage } from '../session/session';
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

export type { OutboundHook, OutboundMessage };
