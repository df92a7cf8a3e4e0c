import {
  JsonRpcError,
  JsonRpcErrorCode,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type MessageInfo,
  Router,
  type Transport,
} from '@mcpkit/jsonrpc-core';
import {
  type CacheScope,
  type CapabilityPath,
  type ClientRequestMethod,
  type ClientRequests,
  hasCapability,
  honouredSubscriptionFilter,
  type Implementation,
  type InitializeResult,
  invalidEnvelopeError,
  invalidParamsError,
  isLegacyVersion,
  isLoggingLevel,
  isModernVersion,
  MetaKeys,
  methodAvailability,
  methodNotFoundError,
  negotiateLegacyVersion,
  PROTOCOL_VERSIONS,
  RequestMethods,
  readRequestEnvelope,
  requiredCapability,
  type ServerCapabilities,
  type SubscriptionFilter,
  unsupportedProtocolVersionError,
} from '@mcpkit/protocol';
import { type DispatchContext, type Era, ServerRequestContext } from './context';
import { ListenStream } from './listen-stream';
import { type NonceStore, paramsDigest, RequestStateCodec } from './request-state';
import { type ConnectOptions, ServerSession } from './session';

/** A caching hint for cacheable results (2026-07-28). */
export interface CacheHint {
  ttlMs: number;
  cacheScope: CacheScope;
}

/** The methods whose complete results carry `ttlMs` / `cacheScope` in 2026-07-28. */
export type CacheableMethod =
  | 'server/discover'
  | 'tools/list'
  | 'prompts/list'
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read';

const CACHEABLE: ReadonlySet<string> = new Set<CacheableMethod>([
  'server/discover',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
]);

/** The only methods that may answer `input_required` (SEP-2322). */
const MAY_ASK: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);
const MCP_REQUEST_METHODS: ReadonlySet<string> = new Set(Object.values(RequestMethods));
const NEVER_ABORTED = new AbortController().signal;
const NO_INFO: MessageInfo = Object.freeze({});
const DEFAULT_CACHE_HINT: CacheHint = Object.freeze({ ttlMs: 0, cacheScope: 'private' });

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
   * The HMAC key that protects MRTR `requestState` tokens. Default: a random key per process — tokens then do not
   * survive a restart or a hop between instances, so servers behind a load balancer must share one secret.
   */
  requestStateSecret?: string | Uint8Array | CryptoKey;
  /** How long a `requestState` token is valid. Default 10 minutes. */
  requestStateTtlMs?: number;
  /** Where used `requestState` nonces are remembered. Default: bounded, in memory. */
  nonceStore?: NonceStore;
  /**
   * Who a request is from, bound into `requestState` so one principal cannot use another's token. Default: the
   * `clientId` and `subject` of `info.auth`, when present.
   */
  principalOf?: (info: MessageInfo) => string | undefined;
  /** Caching hints for cacheable results, by method; `default` for the rest. Default `{ttlMs: 0, cacheScope: 'private'}`. */
  cacheHints?: Partial<Record<CacheableMethod | 'default', CacheHint>>;
  /** Problems nobody awaits (failed notification writes, session errors). */
  onError?: (error: Error) => void;
}

/** Handles one request method. `params` is the request's params; return the result (or throw a `JsonRpcError`). */
export type ServerRequestHandler<P = unknown, R = unknown> = (params: P, ctx: ServerRequestContext) => R | Promise<R>;

type ParamsOf<M extends ClientRequestMethod> = ClientRequests[M]['params'];
type WireResult<M extends ClientRequestMethod> = ClientRequests[M]['result'] | ClientRequests[M]['interim'];

function defaultPrincipal(info: MessageInfo): string | undefined {
  const auth = info.auth;
  if (auth === undefined) return undefined;
  return `${auth.clientId ?? ''}\u0000${auth.subject ?? ''}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The low-level MCP server: one method table (a jsonrpc-core `Router`) shared by every session, the era rules of
 * every revision applied per request, and the built-in methods (`initialize`, `ping`, `server/discover`,
 * `logging/setLevel`, `resources/subscribe`, `subscriptions/listen`). Register the rest with `setRequestHandler`,
 * or use `McpServer`.
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

  readonly #handlers = new Map<string, ServerRequestHandler<never>>();
  readonly #sessions = new Set<ServerSession>();
  readonly #streams = new Set<ListenStream>();
  readonly #supported: readonly string[];
  readonly #legacyVersions: readonly string[];
  readonly #modernVersions: ReadonlySet<string>;
  readonly #codec: RequestStateCodec;
  readonly #principalOf: (info: MessageInfo) => string | undefined;
  readonly #cacheHints: Partial<Record<string, CacheHint>>;
  #capabilities: ServerCapabilities;
  #loggingDeclared: boolean;
  /** Per version, per method: whether the method exists and its server capability is declared. */
  readonly #gates = new Map<string, Map<string, boolean>>();

  constructor(serverInfo: Implementation, options: ServerOptions = {}) {
    this.serverInfo = serverInfo;
    this.instructions = options.instructions;
    this.onerror = options.onError;
    this.#capabilities = structuredClone(options.capabilities ?? {});
    this.#loggingDeclared = hasCapability(this.#capabilities, ['logging']);
    const versions = options.protocolVersions ?? PROTOCOL_VERSIONS;
    for (const version of versions) {
      if (!isLegacyVersion(version) && !isModernVersion(version)) {
        throw new RangeError(`Server: unknown protocol version '${version}'; known: ${PROTOCOL_VERSIONS.join(', ')}`);
      }
    }
    // Newest first: the order clients read `supportedVersions` in.
    this.#supported = [...versions].sort().reverse();
    this.#legacyVersions = this.#supported.filter(isLegacyVersion);
    this.#modernVersions = new Set(this.#supported.filter(isModernVersion));
    this.#codec = new RequestStateCodec({
      secret: options.requestStateSecret,
      ttlMs: options.requestStateTtlMs,
      nonceStore: options.nonceStore,
    });
    this.#principalOf = options.principalOf ?? defaultPrincipal;
    this.#cacheHints = options.cacheHints ?? {};

    this.router.fallbackRequestHandler = (_params, ctx) =>
      this.dispatch(ctx.message, ctx, ctx.peer instanceof ServerSession ? ctx.peer : undefined);
    this.router.setNotificationHandler('notifications/initialized', (_params, ctx) => {
      if (ctx.peer instanceof ServerSession) ctx.peer.initialized = true;
    });
    this.#installBuiltIns();
  }

  /** The protocol versions this server speaks, newest first. */
  get supportedVersions(): readonly string[] {
    return this.#supported;
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
      merged[key] = isObject(existing) && isObject(value) ? { ...existing, ...value } : value;
    }
    this.#capabilities = merged as ServerCapabilities;
    this.#loggingDeclared = hasCapability(this.#capabilities, ['logging']);
    this.#gates.clear();
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

  /**
   * Connects a transport as a new session. Any number of sessions may be connected at once; they share this server's
   * router and registrations.
   */
  async connect(transport: Transport, options?: ConnectOptions): Promise<ServerSession> {
    const session = new ServerSession(this, options);
    session.onclose = () => this.#forget(session);
    this.#sessions.add(session);
    try {
      await session.connect(transport);
    } catch (error) {
      this.#sessions.delete(session);
      throw error;
    }
    return session;
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
  async handle(
    request: JsonRpcRequest,
    options: {
      info?: MessageInfo;
      signal?: AbortSignal;
      notify?: (notification: {
        jsonrpc: '2.0';
        method: string;
        params?: Record<string, unknown>;
      }) => void | Promise<void>;
      session?: ServerSession;
    } = {},
  ): Promise<JsonRpcResponse | undefined> {
    const signal = options.signal ?? NEVER_ABORTED;
    const notify = options.notify;
    const ctx: DispatchContext = {
      requestId: request.id,
      message: request,
      signal,
      info: options.info ?? NO_INFO,
      notify: async (method, params) => {
        if (notify === undefined || signal.aborted) return;
        await notify(
          params === undefined
            ? { jsonrpc: '2.0', method }
            : { jsonrpc: '2.0', method, params: params as Record<string, unknown> },
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
        error: JsonRpcError.is(error)
          ? error.toJSON()
          : { code: JsonRpcErrorCode.InternalError, message: (error as Error)?.message || 'Internal error' },
      };
    }
    return signal.aborted ? undefined : response;
  }

  /**
   * The era dispatcher: decides the request's era, applies that era's rules (envelope, version, method existence,
   * capability gates), runs the handler and completes the result. Throws `JsonRpcError`s for protocol errors.
   */
  async dispatch(request: JsonRpcRequest, dctx: DispatchContext, session: ServerSession | undefined): Promise<unknown> {
    const params = request.params as Record<string, unknown> | undefined;
    let era: Era;
    if (session?.fixEra && session.era !== undefined) {
      era = session.era;
    } else {
      const meta = params?._meta;
      era = isObject(meta) && meta[MetaKeys.ProtocolVersion] !== undefined ? 'modern' : 'legacy';
    }
    return era === 'modern'
      ? this.#modern(request, params, dctx, session)
      : this.#legacy(request, params, dctx, session);
  }

  async #modern(
    request: JsonRpcRequest,
    params: Record<string, unknown> | undefined,
    dctx: DispatchContext,
    session: ServerSession | undefined,
  ): Promise<unknown> {
    const method = request.method;
    if (method === 'initialize' && session?.era === 'modern' && session.fixEra) {
      throw methodNotFoundError(
        method,
        `This connection speaks ${session.protocolVersion}, which has no initialize; the era is fixed by the first request`,
      );
    }
    const read = readRequestEnvelope(params);
    if (!read.ok) throw invalidEnvelopeError(read.missing, read.invalid);
    const envelope = read.envelope;
    const version = envelope.protocolVersion;
    if (!this.#modernVersions.has(version)) throw unsupportedProtocolVersionError(this.#supported, version);
    if (session?.fixEra && session.era === undefined) {
      session.era = 'modern';
      session.protocolVersion = version;
    }
    const handler = this.#gate(method, version, params);
    const mayAsk = MAY_ASK.has(method);
    const ctx = new ServerRequestContext(
      dctx,
      'modern',
      version,
      envelope.clientCapabilities,
      envelope.clientInfo,
      session,
      envelope.logLevel,
      this.#loggingDeclared,
      mayAsk,
    );
    if (!mayAsk) return this.#complete(method, await handler(params as never, ctx), false);
    const retried = params!.requestState !== undefined;
    const result = await this.#runWithInputs(handler, params!, ctx, dctx);
    return this.#complete(method, result, retried);
  }

  async #legacy(
    request: JsonRpcRequest,
    params: Record<string, unknown> | undefined,
    dctx: DispatchContext,
    session: ServerSession | undefined,
  ): Promise<unknown> {
    const method = request.method;
    if (method === 'initialize') return this.#initialize(params, session);
    const version = session?.protocolVersion;
    if (version === undefined || session?.era !== 'legacy') {
      if (method === 'ping' && this.#legacyVersions.length > 0) return {};
      if (this.#modernVersions.size > 0) {
        const read = readRequestEnvelope(params);
        throw invalidEnvelopeError(read.ok ? [] : read.missing, read.ok ? [] : read.invalid);
      }
      throw new JsonRpcError(JsonRpcErrorCode.InvalidRequest, `'${method}' before initialize: send initialize first`, {
        method,
      });
    }
    const handler = this.#gate(method, version, params);
    const ctx = new ServerRequestContext(
      dctx,
      'legacy',
      version,
      session.clientCapabilities ?? {},
      session.clientInfo,
      session,
      session.logLevel,
      this.#loggingDeclared,
      false,
    );
    return handler(params as never, ctx);
  }

  /** The handler for `method` in `version`, or -32601 when the method is absent there or its capability undeclared. */
  #gate(method: string, version: string, params: Record<string, unknown> | undefined): ServerRequestHandler<never> {
    const handler = this.#handlers.get(method);
    if (handler === undefined) throw methodNotFoundError(method);
    if (!MCP_REQUEST_METHODS.has(method)) return handler; // an application's own method
    // Only task augmentation (2025-11-25 tools/call with params.task) makes a server-side gate depend on params.
    const cacheable = params?.task === undefined;
    let gates = this.#gates.get(version);
    if (gates === undefined) {
      gates = new Map();
      this.#gates.set(version, gates);
    }
    let open = cacheable ? gates.get(method) : undefined;
    if (open === undefined) {
      const availability = methodAvailability(method, version);
      if (!availability.available || availability.kind !== 'request' || availability.direction === 'serverToClient') {
        open = false;
      } else {
        const required = requiredCapability(method, version, params) ?? [];
        open = required.every((requirement) => requirement.side !== 'server' || this.declares(requirement.path));
      }
      if (cacheable) gates.set(method, open);
    }
    if (!open) {
      const availability = methodAvailability(method, version);
      throw methodNotFoundError(
        method,
        availability.available
          ? `The server does not declare the capability '${method}' needs in ${version}`
          : availability.reason,
      );
    }
    return handler;
  }

  #initialize(params: Record<string, unknown> | undefined, session: ServerSession | undefined): InitializeResult {
    if (session?.era === 'modern' && session.fixEra) {
      throw methodNotFoundError(
        'initialize',
        `This connection speaks ${session.protocolVersion}, which has no initialize; the era is fixed by the first request`,
      );
    }
    const requested = params?.protocolVersion;
    if (typeof requested !== 'string' || !isObject(params?.capabilities)) {
      throw invalidParamsError(
        'initialize needs params.protocolVersion (a string) and params.capabilities (an object)',
      );
    }
    const version = negotiateLegacyVersion(requested, this.#legacyVersions);
    if (version === undefined) throw unsupportedProtocolVersionError(this.#supported, requested);
    if (session !== undefined) {
      session.era = 'legacy';
      session.protocolVersion = version;
      session.clientCapabilities = params.capabilities as never;
      session.clientInfo = isObject(params.clientInfo) ? (params.clientInfo as never) : undefined;
    }
    const result: InitializeResult = {
      protocolVersion: version,
      capabilities: this.#capabilities,
      serverInfo: this.serverInfo,
    };
    if (this.instructions !== undefined) result.instructions = this.instructions;
    return result;
  }

  /**
   * Runs a handler that may ask the client for input (modern MRTR): answers from the verified `requestState` and
   * `inputResponses` replay earlier asks; the first unanswered ask turns the result into `input_required`.
   */
  async #runWithInputs(
    handler: ServerRequestHandler<never>,
    params: Record<string, unknown>,
    ctx: ServerRequestContext,
    dctx: DispatchContext,
  ): Promise<unknown> {
    const method = ctx.method;
    let answers: Record<string, unknown> = {};
    if (params.requestState !== undefined) {
      const principal = this.#principalOf(dctx.info);
      const state = await this.#codec.verify(params.requestState, { method, params, principal });
      answers = { ...state.r };
      const responses = params.inputResponses;
      if (isObject(responses)) {
        // Only the keys this token asked for; others are ignored, as the spec advises.
        for (const key of state.a) if (Object.hasOwn(responses, key)) answers[key] = responses[key];
      }
      ctx.setAnswers(answers);
    }
    return new Promise<unknown>((resolve, reject) => {
      ctx.onInputNeeded((pending) => {
        paramsDigest(params)
          .then((digest) =>
            this.#codec.sign({ m: method, d: digest, p: this.#principalOf(dctx.info), r: answers, a: pending.keys }),
          )
          .then((requestState) => {
            ctx.abandon(new Error(`'${method}' needs input from the client; this run of the handler was set aside`));
            resolve({ resultType: 'input_required', inputRequests: pending.inputs, requestState });
          }, reject);
      });
      try {
        Promise.resolve(handler(params as never, ctx)).then(resolve, reject);
      } catch (error) {
        reject(error);
      }
    });
  }

  /** Completes a modern result: `resultType`, serverInfo, and cache hints on cacheable complete results. */
  #complete(method: string, result: unknown, retried: boolean): unknown {
    if (!isObject(result)) return result;
    const out: Record<string, unknown> = { ...result };
    if (out.resultType === undefined) out.resultType = 'complete';
    const meta = result._meta;
    out._meta = isObject(meta)
      ? { ...meta, [MetaKeys.ServerInfo]: this.serverInfo }
      : { [MetaKeys.ServerInfo]: this.serverInfo };
    if (out.resultType === 'complete' && CACHEABLE.has(method)) {
      if (retried) {
        // Results of MRTR retries must not be cached.
        out.ttlMs = 0;
        out.cacheScope = 'private';
      } else {
        const hint = this.#cacheHints[method] ?? this.#cacheHints.default ?? DEFAULT_CACHE_HINT;
        if (out.ttlMs === undefined) out.ttlMs = hint.ttlMs;
        if (out.cacheScope === undefined) out.cacheScope = hint.cacheScope;
      }
    }
    return out;
  }

  #installBuiltIns(): void {
    this.setRequestHandler('ping', () => ({}));
    this.setRequestHandler('server/discover', () => {
      const result: Record<string, unknown> = {
        supportedVersions: [...this.#supported],
        capabilities: this.#capabilities,
      };
      if (this.instructions !== undefined) result.instructions = this.instructions;
      return result as never;
    });
    this.setRequestHandler('logging/setLevel', (params, ctx) => {
      const level = (params as { level?: unknown } | undefined)?.level;
      if (!isLoggingLevel(level)) throw invalidParamsError(`Unknown logging level ${JSON.stringify(level)}`);
      if (ctx.session !== undefined) ctx.session.logLevel = level;
      return {};
    });
    this.setRequestHandler('resources/subscribe', (params, ctx) => {
      const uri = (params as { uri?: unknown } | undefined)?.uri;
      if (typeof uri !== 'string') throw invalidParamsError('resources/subscribe needs params.uri (a string)');
      ctx.session?.resourceSubscriptions.add(uri);
      return {};
    });
    this.setRequestHandler('resources/unsubscribe', (params, ctx) => {
      const uri = (params as { uri?: unknown } | undefined)?.uri;
      if (typeof uri !== 'string') throw invalidParamsError('resources/unsubscribe needs params.uri (a string)');
      ctx.session?.resourceSubscriptions.delete(uri);
      return {};
    });
    this.setRequestHandler('subscriptions/listen', async (params, ctx) => {
      const requested = (params as { notifications?: unknown } | undefined)?.notifications;
      if (!isObject(requested)) {
        throw invalidParamsError('subscriptions/listen needs params.notifications (a subscription filter object)');
      }
      const honoured = honouredSubscriptionFilter(requested as SubscriptionFilter, this.#capabilities);
      const id = ctx.requestId;
      // The acknowledgement is the first message of the stream; nothing for it is sent before.
      await ctx.notify('notifications/subscriptions/acknowledged', {
        _meta: { [MetaKeys.SubscriptionId]: id },
        notifications: honoured,
      });
      const signal = ctx.signal;
      return new Promise((resolve, reject) => {
        const stream = new ListenStream(
          id,
          honoured,
          ctx.session,
          (method, notificationParams) => ctx.notify(method, notificationParams),
          (result) => {
            this.#streams.delete(stream);
            resolve(result as never);
          },
        );
        // Cancelled (notifications/cancelled, stream closed, connection gone): no response goes out, but the handler
        // must still finish so the peer forgets it.
        const cancel = () => {
          this.#streams.delete(stream);
          reject(signal.reason);
        };
        if (signal.aborted) return cancel();
        this.#streams.add(stream);
        signal.addEventListener('abort', cancel, { once: true });
      });
    });
  }

  /**
   * Tells clients a list changed: legacy sessions (when the server declares `<kind>.listChanged`) get
   * `notifications/<kind>/list_changed`; modern listen streams that asked for it get it with their subscription id.
   */
  sendListChanged(kind: 'tools' | 'prompts' | 'resources'): void {
    const method = `notifications/${kind}/list_changed`;
    if (this.declares([kind, 'listChanged'])) {
      for (const session of this.#sessions) {
        if (session.era === 'legacy' && session.protocolVersion !== undefined) {
          session.notify(method).catch((error) => this.#report(error));
        }
      }
    }
    const key = `${kind}ListChanged` as 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged';
    for (const stream of this.#streams) {
      if (stream.filter[key] === true) stream.send(method, {}).catch((error) => this.#report(error));
    }
  }

  /**
   * Tells subscribers that a resource changed: legacy sessions that `resources/subscribe`d to `uri`, and modern listen
   * streams whose `resourceSubscriptions` include it.
   */
  notifyResourceUpdated(uri: string): void {
    for (const session of this.#sessions) {
      if (session.era === 'legacy' && session.resourceSubscriptions.has(uri)) {
        session.notify('notifications/resources/updated', { uri }).catch((error) => this.#report(error));
      }
    }
    for (const stream of this.#streams) {
      if (stream.filter.resourceSubscriptions?.includes(uri)) {
        stream.send('notifications/resources/updated', { uri }).catch((error) => this.#report(error));
      }
    }
  }

  /** Ends every open listen stream gracefully (each listen request gets its result). */
  closeSubscriptions(): void {
    for (const stream of [...this.#streams]) stream.end();
  }

  #forget(session: ServerSession): void {
    this.#sessions.delete(session);
    for (const stream of this.#streams) if (stream.session === session) this.#streams.delete(stream);
  }

  #report(error: unknown): void {
    try {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // A throwing error handler must not break notification fan-out.
    }
  }
}
