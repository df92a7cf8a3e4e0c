// What the server sends a client: its requests (legacy server→client requests, an extension's) and notifications.
// One dispatch router serves every connection's peer; its fallbacks run the client's middleware, then the client's
// own handlers (`own`), then the application's (`setRequestHandler` / `setNotificationHandler`).
import {
  JsonRpcError,
  type MiddlewareChain,
  type NotificationContext,
  type RequestContext,
  Router,
} from '@mcpkit/jsonrpc-core';
import type { ClientCapabilities, LoggingMessageNotificationParams } from '@mcpkit/protocol';
import type { SessionState } from './eras/client-era';
import { McpClientError } from './errors';
import type { ListKeeper } from './list-keeper';
import { LIST_METHOD, LISTS_CHANGED_BY } from './lists';
import { type ClientContext, ClientInboundContext } from './middleware';
import type { InputHandlers, LogMessageContext } from './options';
import type { ResponseCache } from './response-cache';
import { answerServerRequests } from './server-requests';
import type { Subscriptions } from './subscriptions';

/** Handles a server→client request method (legacy era, or an extension's). */
export type ClientRequestHandler = (params: unknown, ctx: ClientInboundContext) => unknown | Promise<unknown>;
/** Handles a notification from the server. */
export type ClientNotificationHandler = (params: unknown, ctx: ClientInboundContext) => void | Promise<void>;

/** `ctx` with the signal a middleware rebound it to (`ClientInboundContext.rebind`), or `ctx` itself. */
function reboundContext(ctx: RequestContext, inbound: ClientInboundContext): RequestContext {
  const signal = inbound.signal;
  if (signal === undefined || signal === ctx.signal) return ctx;
  return {
    requestId: ctx.requestId,
    method: ctx.method,
    message: ctx.message,
    signal,
    cancellation: signal,
    info: ctx.info,
    peer: ctx.peer,
    notify: (method, params) => ctx.notify(method, params),
    request: (method, params, options) => ctx.request(method, params, options),
  };
}

/** The dispatch of everything the server sends, shared by every connection of one client. */
export class InboundDispatch {
  /** The client's own handlers (the spec's server→client requests, change notifications, log messages). */
  readonly own = new Router();
  /** The router every connection's peer answers from. */
  readonly router = new Router();
  /** Handlers registered with `setRequestHandler` / `setNotificationHandler`. */
  readonly userRequests = new Map<string, ClientRequestHandler>();
  readonly userNotifications = new Map<string, ClientNotificationHandler>();
  readonly #middleware: MiddlewareChain<ClientContext, unknown>;
  readonly #session: () => SessionState | undefined;

  /** Answers `method` with `handler`, unless the client answers it itself (the spec's server→client requests). */
  setRequestHandler(method: string, handler: ClientRequestHandler): void {
    if (this.own.hasRequestHandler(method)) {
      throw new McpClientError(
        'ERR_RESERVED_METHOD',
        `Client.setRequestHandler: the client answers '${method}' itself; pass \`handlers\` to new Client() instead`,
        { method },
      );
    }
    this.userRequests.set(method, handler);
  }

  constructor(middleware: MiddlewareChain<ClientContext, unknown>, session: () => SessionState | undefined) {
    this.#middleware = middleware;
    this.#session = session;
    this.router.fallbackRequestHandler = (params, ctx) => this.#answerServer(params, ctx);
    this.router.fallbackNotificationHandler = (params, ctx) => this.#receiveNotification(params, ctx);
  }

  #inboundContext(
    kind: 'request' | 'notification',
    params: unknown,
    ctx: RequestContext | NotificationContext,
  ): ClientInboundContext {
    const session = this.#session();
    return new ClientInboundContext(
      kind,
      ctx.method,
      params,
      session?.era.name,
      session?.version,
      kind === 'request' ? (ctx as RequestContext) : undefined,
    );
  }

  /** A server→client request: through the middleware to its handler (-32601 when there is none). */
  #answerServer(params: unknown, ctx: RequestContext): unknown {
    const own = this.own.getRequestHandler(ctx.method);
    const user = this.userRequests.get(ctx.method);
    if (this.#middleware.size === 0 && user === undefined) {
      if (own === undefined) throw JsonRpcError.methodNotFound(ctx.method);
      return own(params, ctx);
    }
    const inbound = this.#inboundContext('request', params, ctx);
    const run = () => {
      if (own !== undefined) return own(params, reboundContext(ctx, inbound));
      if (user !== undefined) return user(params, inbound);
      throw JsonRpcError.methodNotFound(ctx.method);
    };
    return this.#middleware.size === 0 ? run() : this.#middleware.run(inbound, run);
  }

  /** A notification from the server: through the middleware to the client's own handler, then yours. */
  #receiveNotification(params: unknown, ctx: NotificationContext): void | Promise<void> {
    const own = this.own.getNotificationHandler(ctx.method);
    const user = this.userNotifications.get(ctx.method);
    if (this.#middleware.size === 0 && user === undefined) return own?.(params, ctx);
    const inbound = this.#inboundContext('notification', params, ctx);
    const run = async () => {
      await own?.(params, ctx);
      await user?.(params, inbound);
    };
    return (this.#middleware.size === 0 ? run() : this.#middleware.run(inbound, run)).then(() => undefined);
  }
}

/** The notifications that change what the client keeps (cached results, lists) and that subscriptions receive. */
const CHANGE_NOTIFICATIONS = [...Object.keys(LISTS_CHANGED_BY), 'notifications/resources/updated'];

/**
 * What `Client` adds to `LeanClient`, installed after the client is built (`LeanClient` has none): its kept lists and
 * its subscriptions. The client's own change handlers read this object when a notification arrives.
 */
export interface ClientFeatures {
  lists?: ListKeeper;
  subscriptions?: Subscriptions;
}

/** What the client's own handlers of server messages act on. */
export interface OwnHandlerTargets {
  handlers: InputHandlers;
  capabilities: ClientCapabilities;
  session: () => SessionState | undefined;
  cache: ResponseCache | undefined;
  features: ClientFeatures;
  onLogMessage: ((params: LoggingMessageNotificationParams, context: LogMessageContext) => void) | undefined;
}

/**
 * Registers the client's own answers to the server (registered once, for every connection): the spec's server→client
 * requests, and the change notifications (a list changed or a resource was updated: drop what is stale, refetch kept
 * lists, tell subscribers) and log messages.
 */
export function installOwnHandlers(own: Router, targets: OwnHandlerTargets): void {
  const { cache, features } = targets;
  answerServerRequests(own, targets);
  for (const method of CHANGE_NOTIFICATIONS) {
    own.setNotificationHandler(method, (params) => {
      if (method === 'notifications/resources/updated') {
        const uri = (params as { uri?: unknown } | undefined)?.uri;
        if (typeof uri === 'string') cache?.invalidate('resources/read', uri);
      }
      const kinds = LISTS_CHANGED_BY[method] ?? [];
      for (const kind of kinds) cache?.invalidate(LIST_METHOD[kind]);
      features.lists?.changed(kinds);
      features.subscriptions?.deliver(method, params);
    });
  }
  own.setNotificationHandler('notifications/message', (params, ctx) => {
    targets.onLogMessage?.(params as LoggingMessageNotificationParams, { relatedRequestId: ctx.info.relatedRequestId });
  });
}
