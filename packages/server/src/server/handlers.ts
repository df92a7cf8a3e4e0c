// The handler types of the server's method table: a leaf, so the modules that register handlers need not import the
// server.
import type { ServerRequestContext } from '../session/context';
import type { ServerNotificationContext } from '../session/notification-context';

/** Handles one request method. `params` is the request's params; return the result (or throw a `JsonRpcError`). */
export type ServerRequestHandler<P = unknown, R = unknown> = (params: P, ctx: ServerRequestContext) => R | Promise<R>;

/** Handles one notification method (an extension's, or one you add with `setNotificationHandler`). */
export type ServerNotificationHandler = (params: unknown, ctx: ServerNotificationContext) => void | Promise<void>;
