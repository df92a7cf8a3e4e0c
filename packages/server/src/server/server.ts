import {
  type AbortSource,
  isJsonObject,
  JsonRpcError,
  JsonRpcErrorCode,
  type JsonRpcNotification,
  type JsonRpcParams,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type MessageInfo,
  MiddlewareChain,
  PeerSettings,
  Router,
  type Transport,
  toAbortSignal,
  toError,
  toErrorObject,
} from '@mcpkit/jsonrpc-core';
import {
  type CapabilityPath,
  type ClientRequestMethod,
  type ClientRequests,
  type Era,
  envelopeVersion,
  hasCapability,
  type Implementation,
  mcpPeerHooks,
  type ServerCapabilities,
} from '@mcpkit/protocol';
import type { ServerBroadcast } from '../cluster/message-bus';
import type { EraHost, EraStrategy } from '../eras/era-host';
import { type CacheableMethod, type CacheHint, EraRules } from '../eras/era-rules';
import { LegacyEra } from '../eras/legacy-era';
import { ModernEra } from '../eras/modern-era';
import type { InputRounds } from '../input/input-rounds';
import type { ListenStream } from '../listen/listen-stream';
import { forMethod, type NamePattern } from '../middleware/filters';
import type { OutboundHook, OutboundMessage, ServerContext, ServerMiddleware } from '../middleware/types';
import type { DispatchContext, ServerRequestContext } from '../session/context';
import { ServerNotificationContext } from '../session/notification-context';
import { type ConnectOptions, type NegotiatedSession, ServerSession, sendOutbound } from '../session/session';
import { installBuiltIns } from './built-ins';
import { checkExtension, extensionLayers, type ServerExtension } from './extensions';
import type { HandleOptions } from './handle-options';
import type { ServerNotificationHandler, ServerRequestHandler } from './handlers';

// Made on first use, not at import: workerd (Cloudflare Workers) refuses to create an AbortController at module scope.
let never: AbortSignal | undefined;

function neverAborted(): AbortSignal {
  never ??= new AbortController().signal;
  return never;
}
const NO_INFO: MessageInfo = Object.freeze({});

/** Options for `Server`. */
export interface ServerOptions {
  /** Capabilities to declare (McpServer adds those implied by what is registered). */
  capabilities?: ServerCapabilities;
  /** Instructions for the client's model (`initialize` / `server/discover`). */
  instructions?: string;
  /**
   * Protocol versions this server speaks, of either era. Default: every version `@mcpkit/protocol` knows. Leave out
   * the legacy ones for a modern-only server (it then answers `initialize` with -32022 listing what it supports), or
   * the modern ones for a legacy-only server.
   */
  protocolVersions?: readonly string[];
  /**
   * How handlers ask the client for input, in both eras (legacy: server→client requests; 2026-07-28: Multi Round-Trip
   * Requests with a signed `requestState`). Default: none — a handler's `ctx.elicit` / `createMessage` / `listRoots` /
   * `ask` then fails the request with -32603 `ERR_INPUT_ROUNDS_OFF`, naming this option. `McpServer` always has one.
   *
   * @example
   * new McpToolServer(info, { inputRounds: new InputRounds({ requestStateSecret: process.env.MCP_STATE_SECRET }) });
   */
  inputRounds?: InputRounds;
  /** Caching hints for cacheable results, by method; `default` for the rest. Default `{ttlMs: 0, cacheScope: 'private'}`. */
  cacheHints?: Partial<Record<CacheableMethod | 'default', CacheHint>>;
  /** Problems nobody awaits (failed notification writes, session errors, a middleware that threw). */
  onError?: (error: Error) => void;
  /**
   * The message of the -32603 error a caller gets when a middleware throws something other than a `JsonRpcError`
   * (the error itself goes to `onError`, once; its message never reaches the client). Default `'Internal error'`.
   */
  internalErrorMessage?: string;
}

/** Options for `Server.handleNotification`. */
export interface HandleNotificationOptions {
  /** What the transport knows about the notification (auth, HTTP request data). */
  info?: MessageInfo;
  /** The session it arrived on; leave it out on stateless transports. */
  session?: ServerSession;
}

type ParamsOf<M extends ClientRequestMethod> = ClientRequests[M]['params'];
type WireResult<M extends ClientRequestMethod> = ClientRequests[M]['result'] | ClientRequests[M]['interim'];

/** Sends a notification of a stateless request through the transport's `notify`, unless the request was aborted. */
async function sendHandled(
  notify:
    | ((notification: { jsonrpc: '2.0'; method: string; params?: Record<string, unknown> }) => void | Promise<void>)
    | undefined,
  signal: AbortSource,
  method: string,
  params: JsonRpcParams | undefined,
): Promise<void> {
  if (notify === undefined || signal.aborted) return;
  await notify(
    params === undefined
      ? { jsonrpc: '2.0', method }
      : { jsonrpc: '2.0', method, params: params as Record<string, unknown> },
  );
}

/** The session a jsonrpc-core peer is, when it is one of a server's. */
function sessionOf(peer: unknown): ServerSession | undefined {
  return peer instanceof ServerSession ? peer : undefined;
}

/**
 * The low-level MCP server: one method table (a jsonrpc-core `Router`) shared by every session, the era rules of
 * every revision applied per request, and the built-in methods (`initialize`, `ping`, `server/discover`,
 * `logging/setLevel`, `subscriptions/listen`). Register the rest with `setRequestHandler`, or use `McpServer`;
 * resource subscriptions come with `installResourceSubscriptions(server)`.
 *
 * @example
 * const server = new Server({ name: 'echo', version: '1.0.0' }, { capabilities: { tools: {} } });
 * server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }));
 * server.setRequestHandler('tools/call', (params) => ({ content: [{ type: 'text', text: JSON.stringify(params.arguments) }] }));
 * const session = await server.connect(transport);
 */
export class Server {
  readonly serverInfo: Implementation;
  /** The one router every session's peer answers from. */
  readonly router = new Router();
  instructions: string | undefined;
  onerror: ((error: Error) => void) | undefined;
  /** @internal Set by `installResourceSubscriptions`: tells this process's subscribers that a resource changed. */
  resourceUpdates: ((uri: string) => void) | undefined = undefined;
  /** @internal Set by `shareBroadcasts`: list changes and resource updates go to every instance through it. */
  broadcastRelay: ((broadcast: ServerBroadcast) => void) | undefined = undefined;

  readonly #handlers = new Map<string, ServerRequestHandler<never>>();
  readonly #notificationHandlers = new Map<string, ServerNotificationHandler>();
  readonly #middleware: MiddlewareChain<ServerContext, unknown>;
  readonly #outbound: MiddlewareChain<OutboundMessage, unknown>;
  readonly #extensions = new Map<string, ServerExtension<unknown, this>>();
  readonly #sessions = new Set<ServerSession>();
  readonly #streams = new Set<ListenStream>();
  readonly #rules: EraRules;
  readonly #peerSettings = new Map<number | undefined, PeerSettings>();
  /** Each era's behaviour (reading a request, running it, telling its listeners about changes): see `eras/`. */
  readonly #legacy: LegacyEra;
  readonly #modern: ModernEra;
  readonly #eras: Readonly<Record<Era, EraStrategy>>;
  #capabilities: ServerCapabilities;
  #loggingDeclared: boolean;

  constructor(serverInfo: Implementation, options: ServerOptions = {}) {
    this.serverInfo = serverInfo;
    this.instructions = options.instructions;
    this.onerror = options.onError;
    this.#capabilities = structuredClone(options.capabilities ?? {});
    this.#loggingDeclared = hasCapability(this.#capabilities, ['logging']);
    const declares = (path: CapabilityPath) => this.declares(path);
    this.#rules = new EraRules({
      serverInfo,
      protocolVersions: options.protocolVersions,
      cacheHints: options.cacheHints,
      declares,
    });
    const host: EraHost = {
      rules: this.#rules,
      serverInfo,
      instructions: this.instructions,
      capabilities: () => this.#capabilities,
      loggingDeclared: () => this.#loggingDeclared,
      handler: (method) => this.#handlers.get(method),
      inputRounds: options.inputRounds,
      hasMiddleware: () => this.#middleware.size > 0,
      run: (ctx, dctx, handler) => this.#run(ctx, dctx, handler),
      sessions: this.#sessions,
      streams: this.#streams,
      declares,
      report: (error) => this.#report(error),
    };
    this.#legacy = new LegacyEra(host);
    this.#modern = new ModernEra(host);
    this.#eras = { legacy: this.#legacy, modern: this.#modern };

    const internalErrorMessage = options.internalErrorMessage ?? 'Internal error';
    this.#middleware = new MiddlewareChain<ServerContext, unknown>({
      requireResult: (ctx) => ctx.kind === 'request',
      ownError: (error) => {
        if (JsonRpcError.is(error)) return error;
        this.#report(error);
        return new JsonRpcError(JsonRpcErrorCode.InternalError, internalErrorMessage);
      },
    });
    this.#outbound = new MiddlewareChain<OutboundMessage, unknown>({
      requireResult: (message) => message.kind === 'request',
      ownError: (error) => error,
    });

    this.router.fallbackRequestHandler = (_params, ctx) => this.dispatch(ctx.message, ctx, sessionOf(ctx.peer));
    this.router.fallbackNotificationHandler = (_params, ctx) =>
      this.handleNotification(ctx.message, { info: ctx.info, session: sessionOf(ctx.peer) });
    this.#notificationHandlers.set('notifications/initialized', (_params, ctx) => {
      if (ctx.session !== undefined) ctx.session.initialized = true;
    });
    installBuiltIns(this, this.#streams);
  }

  /** The protocol versions this server speaks, newest first. */
  get supportedVersions(): readonly string[] {
    return this.#rules.supported;
  }

  /** The capabilities declared now. */
  get capabilities(): ServerCapabilities {
    return this.#capabilities;
  }

  /** The sessions currently connected. */
  get sessions(): ReadonlySet<ServerSession> {
    return this.#sessions;
  }

  /** The open `subscriptions/listen` streams (modern era). */
  get listenStreams(): ReadonlySet<ListenStream> {
    return this.#streams;
  }

  /** Whether the server declares the capability at `path`. */
  declares(path: CapabilityPath): boolean {
    return hasCapability(this.#capabilities, path);
  }

  /**
   * Adds capabilities (merged two levels deep). Sessions that already initialized (legacy) are not told: declare
   * what you will need before clients connect.
   */
  registerCapabilities(capabilities: ServerCapabilities): void {
    const merged: Record<string, unknown> = { ...this.#capabilities };
    for (const [key, value] of Object.entries(capabilities)) {
      const existing = merged[key];
      merged[key] = isJsonObject(existing) && isJsonObject(value) ? { ...existing, ...value } : value;
    }
    this.#capabilities = merged as ServerCapabilities;
    this.#loggingDeclared = hasCapability(this.#capabilities, ['logging']);
    this.#rules.capabilitiesChanged();
  }

  /**
   * Registers (or replaces) the handler of a request method, for every session and both eras. The dispatcher has
   * already checked the era rules: the method exists in the request's revision and its capability is declared.
   */
  setRequestHandler<M extends ClientRequestMethod>(
    method: M,
    handler: ServerRequestHandler<ParamsOf<M>, WireResult<M>>,
  ): void;
  setRequestHandler(method: string, handler: ServerRequestHandler<never>): void;
  setRequestHandler(method: string, handler: ServerRequestHandler<never>): void {
    this.#handlers.set(method, handler);
  }

  /** Removes a request handler. */
  removeRequestHandler(method: string): boolean {
    return this.#handlers.delete(method);
  }

  /** Whether a request handler is registered for `method`. */
  hasRequestHandler(method: string): boolean {
    return this.#handlers.has(method);
  }

  /** Registers (or replaces) the handler of a notification method, for every session and both eras. */
  setNotificationHandler(method: string, handler: ServerNotificationHandler): void {
    this.#notificationHandlers.set(method, handler);
  }

  /** Removes a notification handler. */
  removeNotificationHandler(method: string): boolean {
    return this.#notificationHandlers.delete(method);
  }

  /**
   * Adds a middleware around every inbound request and notification, on every path (stdio and WebSocket sessions,
   * HTTP sessions, stateless HTTP) and in both eras; with a pattern, only for the methods it matches (`'tools/*'`).
   * It runs after the envelope, era and capability checks, before the handler; the first added is outermost. A
   * middleware added while clients are connected applies to the requests that start afterwards. Returns a function
   * that removes it.
   *
   * @example
   * server.use(async (ctx, next) => {
   *   if (ctx.kind === 'request' && ctx.auth === undefined) throw new JsonRpcError(-32001, 'Sign in first');
   *   return next();
   * });
   * server.use('tools/*', async (ctx, next) => {
   *   const started = Date.now();
   *   try { return await next(); } finally { console.error(ctx.method, Date.now() - started, 'ms'); }
   * });
   */
  use(middleware: ServerMiddleware): () => void;
  use(pattern: NamePattern, middleware: ServerMiddleware): () => void;
  use(first: ServerMiddleware | NamePattern, second?: ServerMiddleware): () => void {
    return this.#middleware.add(
      second === undefined ? (first as ServerMiddleware) : forMethod(first as NamePattern, second),
    );
  }

  /**
   * Adds a hook around every outbound notification and server→client request, on every path (for logging and
   * tracing). Returns a function that removes it.
   *
   * @example
   * server.useOutbound(async (message, next) => {
   *   if (message.kind === 'request') message.params = { ...message.params, _meta: { traceparent } };
   *   return next();
   * });
   */
  useOutbound(hook: OutboundHook): () => void {
    return this.#outbound.add(hook);
  }

  /** @internal The outbound hooks, or `undefined` when there are none (the session's send path checks it). */
  get outboundHooks(): MiddlewareChain<OutboundMessage, unknown> | undefined {
    return this.#outbound.size === 0 ? undefined : this.#outbound;
  }

  /**
   * Registers an extension (SEP-2133): advertises it as `capabilities.extensions[id]`, routes its methods on every
   * path and in both eras, installs its middleware (scoped ones see only the methods they name), then calls its
   * `install` and returns what that returns. Refused, with nothing installed, when the id is malformed or taken, or a
   * method clashes with an MCP core method or a registered handler.
   *
   * @example
   * server.extend({
   *   id: 'com.example/weather-alerts',
   *   declaration: { regions: ['eu'] },
   *   methods: { 'com.example/alerts/list': () => ({ alerts: [] }) },
   * });
   */
  extend<A = void>(extension: ServerExtension<A, this>): A {
    checkExtension(extension, this.#extensions, this.#handlers, this.#notificationHandlers);
    this.#extensions.set(extension.id, extension);
    for (const [method, handler] of Object.entries(extension.methods ?? {})) this.#handlers.set(method, handler);
    for (const [method, handler] of Object.entries(extension.notifications ?? {})) {
      this.#notificationHandlers.set(method, handler as ServerNotificationHandler);
    }
    for (const layer of extensionLayers(extension.middleware)) this.#middleware.add(layer);
    this.registerCapabilities({ extensions: { [extension.id]: extension.declaration ?? {} } } as ServerCapabilities);
    return extension.install === undefined ? (undefined as A) : extension.install({ server: this, host: this });
  }

  /** The extensions registered, by id. */
  get extensions(): ReadonlyMap<string, ServerExtension<unknown, this>> {
    return this.#extensions;
  }

  /**
   * Delivers one inbound notification: through the middleware to its handler. Sessions call it for every
   * notification they receive; stateless transports call it with the request's `info`.
   */
  handleNotification(notification: JsonRpcNotification, options: HandleNotificationOptions = {}): Promise<void> {
    const handler = this.#notificationHandlers.get(notification.method);
    const layers = this.#middleware.size;
    if (handler === undefined && layers === 0) return Promise.resolve();
    const session = options.session;
    let era = session?.era;
    let version = session?.protocolVersion;
    if (era === undefined) {
      // A notification on its own: the version its envelope names (read by protocol's one reader) decides its era.
      const declared = envelopeVersion(notification.params);
      if (typeof declared === 'string') {
        era = 'modern';
        version = declared;
      }
    }
    const ctx = new ServerNotificationContext(notification, options.info ?? NO_INFO, session, era, version);
    const deliver = () => (handler === undefined ? undefined : handler(notification.params, ctx));
    // Without middleware the handler runs now, in the executor: what it throws rejects.
    const delivered =
      layers === 0 ? new Promise<unknown>((resolve) => resolve(deliver())) : this.#middleware.run(ctx, deliver);
    return delivered.then(() => undefined);
  }

  /**
   * Runs `handler` inside the middleware, or straight away when there is none (or the request is internal). Tells the
   * transport the request was accepted (`info.onAccepted`) as the handler starts: a refusal before that point may
   * still become an HTTP status.
   */
  #run(ctx: ServerRequestContext, dctx: DispatchContext, handler: () => unknown): unknown {
    const accepted = ctx.info.onAccepted;
    if (this.#middleware.size === 0 || dctx.internal === true) {
      accepted?.();
      return handler();
    }
    return this.#middleware.run(
      ctx,
      accepted === undefined
        ? handler
        : () => {
            accepted();
            return handler();
          },
    );
  }

  /**
   * Connects a transport as a new session. Any number of sessions may be connected at once; they share this server's
   * router and registrations.
   */
  async connect(transport: Transport, options?: ConnectOptions): Promise<ServerSession> {
    const session = new ServerSession(this, options);
    this.#sessions.add(session);
    try {
      await session.connect(transport);
    } catch (error) {
      this.#sessions.delete(session);
      throw error;
    }
    return session;
  }

  /**
   * A session with no connection, opened in the legacy era with what was negotiated earlier: a stand-in the era rules
   * accept for requests run through `handle(request, { session })` (a stateless legacy request's, a task resumed after
   * its connection is gone). It is not among `sessions` and gets no broadcasts; sending on it fails.
   *
   * @example
   * const session = server.openSession({ protocolVersion: '2025-11-25', clientCapabilities: {} });
   * const response = await server.handle(request, { session });
   */
  openSession(negotiated: NegotiatedSession, options?: ConnectOptions): ServerSession {
    const session = new ServerSession(this, options);
    this.#legacy.open(session, negotiated);
    return session;
  }

  /**
   * Opens a connected session in the legacy era with what it negotiated before (a session restored from a shared
   * store on another instance, or after a restart), as if its `initialize` had run here. The legacy era object writes
   * the session's era: nothing else does.
   *
   * @example
   * const session = await server.connect(transport);
   * server.restoreSession(session, { protocolVersion: record.protocolVersion, clientCapabilities: record.capabilities });
   */
  restoreSession(session: ServerSession, negotiated: NegotiatedSession): void {
    this.#legacy.open(session, negotiated);
  }

  /** Closes every session (listen streams end without a response). */
  async close(): Promise<void> {
    await Promise.all([...this.#sessions].map((session) => session.close()));
    this.#streams.clear();
  }

  /**
   * Runs one request through the era rules without a long-lived connection (stateless HTTP): returns the response,
   * or `undefined` when `signal` aborted first (nothing must be sent then). Request-related notifications go to
   * `notify`.
   *
   * @example
   * const response = await server.handle(body, { info: { auth }, signal: request.signal, notify: (n) => stream.write(n) });
   */
  async handle(request: JsonRpcRequest, options: HandleOptions = {}): Promise<JsonRpcResponse | undefined> {
    const signal = options.signal ?? neverAborted();
    const notify = options.notify;
    // An AbortSignal only when something reads one (an AbortLink from the transport makes it then).
    let abortSignal = signal instanceof AbortSignal ? signal : undefined;
    const ctx: DispatchContext = {
      requestId: request.id,
      message: request,
      get signal() {
        abortSignal ??= toAbortSignal(signal);
        return abortSignal;
      },
      cancellation: signal,
      info: options.info ?? NO_INFO,
      era: options.era,
      // One closure per request, as before the outbound hooks: a request that sends nothing pays for nothing more.
      notify: async (method, params) => {
        const hooks = this.outboundHooks;
        if (hooks === undefined) return sendHandled(notify, signal, method, params);
        await sendOutbound(hooks, 'notification', method, params, options.session, request.id, (name, value) =>
          sendHandled(notify, signal, name, value),
        );
      },
    };
    let response: JsonRpcResponse;
    try {
      const result = await this.dispatch(request, ctx, options.session);
      response = { jsonrpc: '2.0', id: request.id, result: result === undefined ? null : result };
    } catch (error) {
      response = {
        jsonrpc: '2.0',
        id: request.id,
        error: toErrorObject(error),
      };
    }
    return signal.aborted ? undefined : response;
  }

  /**
   * The era dispatcher: decides the request's era, applies that era's rules (envelope, version, method existence,
   * capability gates), runs the handler and completes the result. Throws `JsonRpcError`s for protocol errors.
   */
  dispatch(request: JsonRpcRequest, dctx: DispatchContext, session: ServerSession | undefined): Promise<unknown> {
    const params = request.params as Record<string, unknown> | undefined;
    // Not an async function (every request passes here): the era's answer is the promise, and what the era rules or
    // the era's checks throw at once is turned into a rejection here, in one place, for both eras.
    try {
      const era = this.#eras[this.#rules.eraOf(params, session, dctx.era)];
      return Promise.resolve(era.handle(request.method, params, dctx, session));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Tells clients a list changed: legacy sessions (when the server declares `<kind>.listChanged`) get
   * `notifications/<kind>/list_changed`; modern listen streams that asked for it get it with their subscription id.
   * With a cluster bus (see `shareBroadcasts`), every instance tells its own clients.
   */
  sendListChanged(kind: 'tools' | 'prompts' | 'resources'): void {
    if (this.broadcastRelay !== undefined) this.broadcastRelay({ type: 'list_changed', list: kind });
    else this.deliverListChanged(kind);
  }

  /** @internal What `sendListChanged` does on each instance: tells this process's clients. */
  deliverListChanged(kind: 'tools' | 'prompts' | 'resources'): void {
    this.#legacy.listChanged(kind);
    this.#modern.listChanged(kind);
  }

  /**
   * Tells subscribers that a resource changed: legacy sessions that `resources/subscribe`d to `uri`, and modern listen
   * streams whose `resourceSubscriptions` include it. With a cluster bus, every instance tells its own subscribers.
   * Subscriptions are installed by `McpServer`'s resources, or by `installResourceSubscriptions(server)`; without
   * them there are no subscribers and this does nothing.
   */
  notifyResourceUpdated(uri: string): void {
    if (this.broadcastRelay !== undefined) this.broadcastRelay({ type: 'resource_updated', uri });
    else this.deliverResourceUpdated(uri);
  }

  /** @internal What `notifyResourceUpdated` does on each instance: tells this process's subscribers. */
  deliverResourceUpdated(uri: string): void {
    this.resourceUpdates?.(uri);
  }

  /** Ends every open listen stream gracefully (each listen request gets its result). */
  closeSubscriptions(): void {
    for (const stream of [...this.#streams]) stream.end();
  }

  /** @internal The peer settings every session with this request timeout shares (see `SessionHost`). */
  peerSettings(requestTimeoutMs: number | undefined): PeerSettings {
    let settings = this.#peerSettings.get(requestTimeoutMs);
    if (settings === undefined) {
      settings = new PeerSettings({ router: this.router, hooks: mcpPeerHooks, defaultTimeoutMs: requestTimeoutMs });
      this.#peerSettings.set(requestTimeoutMs, settings);
    }
    return settings;
  }

  /** @internal Called by a session once its connection closed. */
  forgetSession(session: ServerSession): void {
    this.#sessions.delete(session);
    for (const stream of this.#streams) if (stream.session === session) this.#streams.delete(stream);
  }

  #report(error: unknown): void {
    try {
      this.onerror?.(toError(error));
    } catch {
      // A throwing error handler must not break notification fan-out.
    }
  }
}

export type { ServerNotificationHandler, ServerRequestHandler };
