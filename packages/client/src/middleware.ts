import {
  ContextVariables,
  type JsonObject,
  type Middleware,
  type RequestContext,
  type RequestId,
  toAbortSignal,
} from '@mcpkit/jsonrpc-core';
import type { CallOptions, Era } from './options';

/**
 * The typed variables of a client request (`ctx.set` / `ctx.get`), shared by every client middleware. Declare yours by
 * augmenting this interface.
 *
 * @example
 * declare module '@mcpkit/client' {
 *   interface ClientContextVariableMap {
 *     span: { end(): void };
 *   }
 * }
 */
// biome-ignore lint/suspicious/noEmptyInterface: an augmentation point, empty until an application declares its variables
export interface ClientContextVariableMap {}

/**
 * One outgoing request as client middleware sees it: each round of an `input_required` loop is its own request
 * (`round` counts them from 0). `method` and `params` may be replaced before `next()` (the params are sent with the
 * era's envelope added afterwards); `next()` resolves to the raw result, before the client reads its `resultType`.
 */
export class ClientRequestContext<V extends object = ClientContextVariableMap> extends ContextVariables<V> {
  readonly direction = 'outbound' as const;
  readonly kind = 'request' as const;
  method: string;
  params: JsonObject | undefined;
  readonly era: Era;
  readonly protocolVersion: string;
  /** 0 for the first request of a call; n for its n-th `input_required` retry. */
  readonly round: number;
  /** The options the call was made with. */
  readonly options: CallOptions;
  #requestId: RequestId | undefined = undefined;

  /** @internal Built by the request pipeline. */
  constructor(
    method: string,
    params: JsonObject | undefined,
    era: Era,
    protocolVersion: string,
    round: number,
    options: CallOptions,
  ) {
    super();
    this.method = method;
    this.params = params;
    this.era = era;
    this.protocolVersion = protocolVersion;
    this.round = round;
    this.options = options;
  }

  /**
   * The call's abort signal, if it has one, as an `AbortSignal` (a call made with another `AbortSource` gets one tied to
   * it; `options.signal` is the source as given).
   */
  get signal(): AbortSignal | undefined {
    const source = this.options.signal;
    return source === undefined ? undefined : toAbortSignal(source);
  }

  /**
   * The JSON-RPC id of this request, once `next()` sent it (`undefined` before, and when a middleware answered without
   * sending). A retry sends again with a new id.
   */
  get requestId(): RequestId | undefined {
    return this.#requestId;
  }

  /** @internal Called by the pipeline as the request goes out. */
  sent(id: RequestId): void {
    this.#requestId = id;
  }
}

/**
 * A message from the server as client middleware sees it: a server→client request (legacy era: sampling, elicitation,
 * roots, ping, or an extension's) or a notification. For a request `next()` resolves to the handler's result; for a
 * notification not calling `next` swallows it.
 */
export class ClientInboundContext<V extends object = ClientContextVariableMap> extends ContextVariables<V> {
  readonly direction = 'inbound' as const;
  readonly kind: 'request' | 'notification';
  readonly method: string;
  readonly params: JsonObject | undefined;
  /** The connection's era and version, once negotiated. */
  readonly era: Era | undefined;
  readonly protocolVersion: string | undefined;
  readonly #request: RequestContext | undefined;
  #rebound: AbortSignal | undefined = undefined;

  /** @internal Built by the client. */
  constructor(
    kind: 'request' | 'notification',
    method: string,
    params: unknown,
    era: Era | undefined,
    protocolVersion: string | undefined,
    request: RequestContext | undefined,
  ) {
    super();
    this.kind = kind;
    this.method = method;
    this.params = params as JsonObject | undefined;
    this.era = era;
    this.protocolVersion = protocolVersion;
    this.#request = request;
  }

  /** The server's request id (requests only). */
  get requestId(): RequestId | undefined {
    return this.#request?.requestId;
  }

  /** Aborted when the server cancels its request or the connection closes (requests only); see `rebind`. */
  get signal(): AbortSignal | undefined {
    return this.#rebound ?? this.#request?.signal;
  }

  /**
   * For extensions that keep the handler of a server→client request running after the request was answered (tasks:
   * a task-augmented `sampling/createMessage` or `elicitation/create` is answered with a task at once): from now on
   * the handler's signal is `channel.signal` (tasks: aborted by `tasks/cancel`), not the request's. Call it before
   * `next()`.
   *
   * @example
   * client.use(async (ctx, next) => {
   *   if (ctx.direction !== 'inbound' || ctx.kind !== 'request' || ctx.params?.task === undefined) return next();
   *   const job = new AbortController();
   *   ctx.rebind({ signal: job.signal });
   *   void next().then(store.complete, store.fail);
   *   return { task: store.created };
   * });
   */
  rebind(channel: { signal?: AbortSignal }): void {
    this.#rebound = channel.signal;
  }
}

/** What a client middleware sees: an outgoing request, or a request or notification from the server. */
export type ClientContext<V extends object = ClientContextVariableMap> =
  | ClientRequestContext<V>
  | ClientInboundContext<V>;

/**
 * A client middleware: `(ctx, next) => result`, around every outgoing request (each `input_required` round included)
 * and every inbound server→client request and notification, on every transport and in both eras. Tell them apart by
 * `ctx.direction` and `ctx.kind`. Return a value to answer without sending (or without the handler), throw to fail,
 * wrap `next()` to time, retry or change the result.
 *
 * @example
 * client.use(async (ctx, next) => {
 *   if (ctx.direction !== 'outbound') return next();
 *   const started = performance.now();
 *   try {
 *     return await next();
 *   } finally {
 *     console.error(ctx.method, `round ${ctx.round}`, (performance.now() - started).toFixed(1), 'ms');
 *   }
 * });
 */
export type ClientMiddleware<V extends object = ClientContextVariableMap> = Middleware<ClientContext<V>, unknown>;

/**
 * What a client extension gets when it is installed: the client `extend` was called on (to send requests, add
 * notification handlers, subscribe, answer input requests, all through its public API).
 */
export interface ClientExtensionContext<C = unknown> {
  readonly client: C;
}

/**
 * An MCP extension on the client side: declared as `capabilities.extensions[id]` (register it before `connect`), its
 * middleware installed, results with one of its `resultTypes` handed to the caller as they are instead of being
 * refused as unknown, then `install` called with the client; what `install` returns is what `extend` returns.
 *
 * @example
 * client.extend({
 *   id: 'io.modelcontextprotocol/tasks',
 *   resultTypes: ['task'],
 *   middleware: async (ctx, next) => next(),
 * });
 *
 * // A packaged extension, with its API from `install`:
 * const tasksClient = client.extend(tasks());
 */
export interface ClientExtension<A = void, C = unknown> {
  /** The extension identifier, such as `io.modelcontextprotocol/tasks`. */
  id: string;
  /** What it declares, as `capabilities.extensions[id]`. Default `{}`. The same name as the server side's. */
  declaration?: Record<string, unknown>;
  /** @deprecated Use `declaration` (the server side's name); `settings` goes in the next minor version. */
  settings?: Record<string, unknown>;
  /** Middleware it installs (after the middleware already added). */
  middleware?: ClientMiddleware | readonly ClientMiddleware[];
  /** `resultType` values this extension owns (for example `task`): such results reach the caller unclassified. */
  resultTypes?: readonly string[];
  /** Called once everything above is installed; its return value is what `extend` returns. */
  install?(context: ClientExtensionContext<C>): A;
}
