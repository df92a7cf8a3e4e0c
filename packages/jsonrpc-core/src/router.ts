import type { NotificationContext, RequestContext } from './context';

/**
 * Answers one request method. The return value (or what its promise resolves to) becomes the `result`; `undefined`
 * becomes `null`, because JSON-RPC requires a `result`. Throw a `JsonRpcError` to send a specific error; anything else
 * thrown becomes -32603 with the error's message.
 */
export type RequestHandler = (params: unknown, ctx: RequestContext) => unknown | Promise<unknown>;

/** Handles one notification method. Errors (thrown or rejected) go to the peer's `onerror`. */
export type NotificationHandler = (params: unknown, ctx: NotificationContext) => void | Promise<void>;

/**
 * A method table: which handler answers which method. One router can serve many peers (one per session), so a
 * session costs a peer and a transport, not a copy of the table.
 *
 * @example
 * const router = new Router();
 * router.setRequestHandler('add', (params) => {
 *   const [a, b] = params as [number, number];
 *   return a + b;
 * });
 * router.setNotificationHandler('log', (params) => console.log(params));
 * const peer = new JsonRpcPeer({ router });
 */
export class Router {
  readonly #requests = new Map<string, RequestHandler>();
  readonly #notifications = new Map<string, NotificationHandler>();
  /** Answers requests whose method has no handler. Without it they get -32601 Method not found. */
  fallbackRequestHandler: RequestHandler | undefined = undefined;
  /** Receives notifications whose method has no handler. Without it they are ignored. */
  fallbackNotificationHandler: NotificationHandler | undefined = undefined;

  /** Registers (or replaces) the handler for a request method. */
  setRequestHandler(method: string, handler: RequestHandler): void {
    this.#requests.set(method, handler);
  }

  /** Removes a request handler; returns whether one was registered. */
  removeRequestHandler(method: string): boolean {
    return this.#requests.delete(method);
  }

  /** Whether a handler is registered for exactly this method (the fallback does not count). */
  hasRequestHandler(method: string): boolean {
    return this.#requests.has(method);
  }

  /** The handler registered for exactly this method. */
  getRequestHandler(method: string): RequestHandler | undefined {
    return this.#requests.get(method);
  }

  /** The handler that will answer this method: its own, else the fallback. */
  resolveRequestHandler(method: string): RequestHandler | undefined {
    return this.#requests.get(method) ?? this.fallbackRequestHandler;
  }

  /** The request methods with a registered handler, in registration order. */
  requestMethods(): string[] {
    return [...this.#requests.keys()];
  }

  /** Registers (or replaces) the handler for a notification method. */
  setNotificationHandler(method: string, handler: NotificationHandler): void {
    this.#notifications.set(method, handler);
  }

  /** Removes a notification handler; returns whether one was registered. */
  removeNotificationHandler(method: string): boolean {
    return this.#notifications.delete(method);
  }

  /** Whether a handler is registered for exactly this notification method. */
  hasNotificationHandler(method: string): boolean {
    return this.#notifications.has(method);
  }

  /** The handler registered for exactly this notification method. */
  getNotificationHandler(method: string): NotificationHandler | undefined {
    return this.#notifications.get(method);
  }

  /** The handler that will receive this notification: its own, else the fallback. */
  resolveNotificationHandler(method: string): NotificationHandler | undefined {
    return this.#notifications.get(method) ?? this.fallbackNotificationHandler;
  }

  /** The notification methods with a registered handler, in registration order. */
  notificationMethods(): string[] {
    return [...this.#notifications.keys()];
  }
}
