import {
  type JsonObject,
  type JsonRpcParams,
  JsonRpcPeer,
  MiddlewareChain,
  type Transport,
} from '@mcpkit/jsonrpc-core';
import {
  type CallToolRequestParams,
  type CallToolResult,
  type ClientCapabilities,
  type CompleteRequestParams,
  type CompleteResult,
  createMcpPeerHooks,
  type DiscoverResult,
  type GetPromptRequestParams,
  type GetPromptResult,
  type Implementation,
  type InferJsonSchema,
  type InputRequests,
  type InputResponses,
  type ListPromptsRequestParams,
  type ListPromptsResult,
  type ListResourcesRequestParams,
  type ListResourcesResult,
  type ListResourceTemplatesRequestParams,
  type ListResourceTemplatesResult,
  type ListToolsRequestParams,
  type ListToolsResult,
  type LoggingLevel,
  type Prompt,
  type ReadResourceRequestParams,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type ServerCapabilities,
  type Tool,
} from '@mcpkit/protocol';
import { CancellationPolicy } from './cancellation';
import type { LeanClientInternals } from './client-internals';
import type { Connection } from './eras/client-era';
import { LegacyEra } from './eras/legacy-era';
import { ModernEra } from './eras/modern-era';
import { McpClientError } from './errors';
import { addExtension } from './extensions';
import {
  type ClientFeatures,
  type ClientNotificationHandler,
  type ClientRequestHandler,
  InboundDispatch,
  installOwnHandlers,
} from './inbound';
import { fulfilInputRequests, resolveClientCapabilities } from './input-requests';
import { listPage } from './list-page';
import { cursorParams, type ListItem, type ListKind, walkPages } from './lists';
import type { ClientContext, ClientExtension, ClientMiddleware } from './middleware';
import { negotiate } from './negotiation';
import type {
  CallOptions,
  CallToolOptions,
  ConnectOptions,
  Era,
  InputHandlers,
  LeanClientOptions,
  RequestCallOptions,
  TypedCallToolResult,
} from './options';
import { checkStructuredContent, type JsonSchemaValidator } from './output-schema';
import { type CallBehaviour, RequestPipeline } from './requests';
import type { ResponseCache } from './response-cache';
import { dropInvalidTools } from './tool-filter';
import { tellTransportVersion } from './versioned-transport';
import { Warnings } from './warnings';

const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** The pipeline behaviour of tools/call and prompts/get: one object for every call. */
const MAY_NEED_INPUT: CallBehaviour = Object.freeze({ mayNeedInput: true });
const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 600_000;
const DEFAULT_MAX_INPUT_ROUNDS = 10;

/** Set by `LeanClient`'s static block (which may read its private fields); see {@link leanClientInternals}. */
let internalsOf: (client: LeanClient) => LeanClientInternals;

/**
 * The lean MCP client: both eras, every request (`listAll*` walks pages), cancellation, progress, input handlers
 * (legacy server→client requests and 2026-07-28 `input_required` rounds), middleware and extensions, and its bundle
 * carries none of what `Client` adds on top: subscriptions (`subscribe`), kept lists (`lists`, refreshed on change),
 * a default response cache (pass `cache` to cache) and a JSON Schema validator. `callTool` checks `structuredContent`
 * against an `outputSchema` with the `jsonSchema` validator you pass; without one, a result that needs that check
 * fails with `ERR_NO_JSON_SCHEMA_VALIDATOR` (it is never skipped silently).
 *
 * @example
 * ```ts
 * import { LeanClient } from '@mcpkit/client';
 * const client = new LeanClient({ name: 'my-app', version: '1.0.0' });
 * await client.connect(transport);
 * const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } }); // a tool without outputSchema
 * ```
 */
export class LeanClient {
  /** What this client says it is (`clientInfo`). */
  readonly info: Implementation;
  /** What this client declares (`clientCapabilities`). */
  readonly capabilities: ClientCapabilities;

  readonly #options: LeanClientOptions;
  readonly #jsonSchema: JsonSchemaValidator | undefined;
  readonly #handlers: InputHandlers;
  readonly #timeoutMs: number;
  readonly #maxTotalMs: number;
  readonly #cache: ResponseCache | undefined;
  readonly #authContext: () => string;
  readonly #requests: RequestPipeline;
  readonly #cancellation = new CancellationPolicy();
  /** The definition of each tool as last listed (`callTool` checks `structuredContent` against its outputSchema). */
  readonly #tools = new Map<string, Tool>();
  /** What `Client` installs on top (kept lists, subscriptions); empty in a `LeanClient`. */
  readonly #features: ClientFeatures = {};
  readonly #warnings: Warnings;
  readonly #middleware = new MiddlewareChain<ClientContext, unknown>({
    requireResult: (ctx) => ctx.kind === 'request',
    ownError: (error) => error,
  });
  /** What the server sends: the client's own handlers, yours, and the middleware around them (one for every peer). */
  readonly #inbound: InboundDispatch;
  readonly #extensions = new Map<string, ClientExtension<unknown, never>>();
  readonly #extensionResultTypes = new Set<string>();
  /** One object per era; negotiation opens each session with one of them. */
  readonly #eras: { readonly legacy: LegacyEra; readonly modern: ModernEra };

  #peer: JsonRpcPeer | undefined;
  /** Set once negotiation settled, until the connection closes; one object, so a request allocates none. */
  #live: Connection | undefined;

  constructor(info: Implementation, options: LeanClientOptions = {}) {
    const handlers = options.handlers ?? {};
    const enforce = options.enforceServerCapabilities !== false;
    const authContextKey = options.authContextKey;
    this.info = info;
    this.capabilities = resolveClientCapabilities(handlers, options.capabilities);
    this.#options = options;
    this.#jsonSchema = options.jsonSchema;
    this.#handlers = handlers;
    this.#timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#maxTotalMs = options.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS;
    this.#cache = options.cache || undefined;
    this.#warnings = new Warnings(options.onWarning);
    this.#authContext = () => (typeof authContextKey === 'function' ? authContextKey() : authContextKey) ?? '';
    this.#requests = new RequestPipeline(
      {
        capabilities: this.capabilities,
        handlers,
        enforce,
        timeoutMs: this.#timeoutMs,
        maxTotalTimeoutMs: this.#maxTotalMs,
        maxInputRounds: options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
        cache: this.#cache,
        authContext: this.#authContext,
        middleware: this.#middleware,
        extensionResultTypes: this.#extensionResultTypes,
      },
      (method) => this.#connection(method),
    );
    const call = (method: string, params: object | undefined, callOptions?: CallOptions) =>
      this.#requests.call(method, params, callOptions);
    const eraHost = { info, capabilities: this.capabilities, call };
    this.#eras = { legacy: new LegacyEra(eraHost), modern: new ModernEra(eraHost) };
    this.#inbound = new InboundDispatch(this.#middleware, () => this.#live?.session);
    installOwnHandlers(this.#inbound.own, {
      handlers,
      capabilities: this.capabilities,
      session: () => this.#live?.session,
      cache: this.#cache,
      features: this.#features,
      onLogMessage: options.onLogMessage,
    });
  }

  // ---- state ----

  /** True once `connect()` has finished, until the connection closes. */
  get connected(): boolean {
    return this.#live !== undefined && this.#peer?.connected === true;
  }

  /** The era of the connection, once connected. */
  get era(): Era | undefined {
    return this.#live?.session.era.name;
  }

  /** The protocol version in use, once connected. */
  get protocolVersion(): string | undefined {
    return this.#live?.session.version;
  }

  /** What the server declared (`initialize` or `server/discover`). */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#live?.session.serverCapabilities;
  }

  /** The server's `serverInfo` (legacy: from `initialize`; modern: from the discover result's `_meta`). */
  get serverInfo(): Implementation | undefined {
    return this.#live?.session.serverInfo;
  }

  /** The server's `instructions`, if any. */
  get instructions(): string | undefined {
    return this.#live?.session.instructions;
  }

  // ---- connecting ----

  /**
   * Connects over `transport` and settles the era and version. With `era: 'auto'` (the default) and no pinned version
   * it sends `server/discover` with the 2026-07-28 envelope: a `DiscoverResult` or a recognised 2026 error (-32020,
   * -32021, -32022) means a modern server (after -32022 it retries once with a mutually supported version; it never
   * falls back); any other error, or no answer within `probeTimeoutMs` of the server's first message (a server that
   * has said nothing yet gets `timeoutMs`), means a legacy server, which gets `initialize` and
   * `notifications/initialized`.
   *
   * @example
   * ```ts
   * await client.connect(transport, { probeTimeoutMs: 2_000 });
   * console.log(client.era, client.protocolVersion); // 'modern' '2026-07-28'
   * ```
   */
  async connect(transport: Transport, options: ConnectOptions = {}): Promise<void> {
    if (this.#peer?.connected) {
      throw new McpClientError('ERR_ALREADY_CONNECTED', 'Client.connect: already connected; close() first', {});
    }
    const peer = new JsonRpcPeer({
      router: this.#inbound.router,
      hooks: createMcpPeerHooks({ sendCancellation: (request) => this.#cancellation.mayCancel(request.id) }),
      defaultTimeoutMs: this.#timeoutMs,
      maxTotalTimeoutMs: this.#maxTotalMs,
      onError: this.#options.onError,
      onClose: () => this.#connectionClosed(peer),
    });
    this.#peer = peer;
    this.#live = undefined;
    await peer.connect(transport);
    try {
      const session = await negotiate(
        {
          peer,
          info: this.info,
          capabilities: this.capabilities,
          eras: this.#eras,
          defaultTimeoutMs: this.#timeoutMs,
          cancellation: this.#cancellation,
          onDiscovered: (result) =>
            this.#cache?.set('server/discover', '', this.#authContext(), result, result.ttlMs, result.cacheScope),
          tellVersion: (version) => tellTransportVersion(transport, version),
        },
        options,
      );
      this.#live = { peer, session };
    } catch (error) {
      await peer.close();
      throw error;
    }
  }

  /**
   * Stops the timeouts of every request in flight (`connect()`'s probe and `initialize` too) until the returned function
   * is called, then adds the time held to their deadlines: waiting for the user (an OAuth sign-in) must neither fail a
   * request nor change the era. Holds nest; releasing twice is harmless.
   * @example
   * const release = client.holdTimeouts(); await waitForSignIn(); release();
   */
  holdTimeouts(): () => void {
    return this.#peer?.holdTimeouts() ?? (() => {});
  }

  /**
   * Ends every subscription and closes the connection. Idempotent. `reason` (a keep-alive that got no answer, say) is
   * named in the `ConnectionClosedError` of every request still pending, and kept as its `cause`.
   */
  async close(reason?: Error): Promise<void> {
    this.#features.subscriptions?.endAll('client');
    await this.#peer?.close(reason);
  }

  // ---- typed requests ----

  /**
   * `server/discover` (2026-07-28): the server's versions, capabilities and instructions; cached per its `ttlMs`. The
   * connection's view of the server's capabilities is updated from a fresh answer.
   */
  async discover(options?: CallOptions): Promise<DiscoverResult> {
    const result = await this.#requests.call<DiscoverResult>('server/discover', {}, options, { cacheKey: '' });
    if (this.#live !== undefined) this.#live.session.era.refresh(this.#live.session, result);
    return result;
  }

  /** `ping` (2024-11-05 … 2025-11-25; removed in 2026-07-28, where it throws `CapabilityError`). */
  async ping(options?: CallOptions): Promise<void> {
    await this.#requests.call('ping', undefined, options);
  }

  /**
   * One page of `tools/list`. Tools whose `x-mcp-header` declarations are invalid are dropped (with a warning), as
   * 2026-07-28 requires. The definitions are remembered for `callTool`'s `outputSchema` check.
   */
  async listTools(params: ListToolsRequestParams = {}, options?: CallOptions): Promise<ListToolsResult> {
    const result = await this.#requests.call<ListToolsResult>('tools/list', params, options, {
      cacheKey: params.cursor ?? '',
      transform: (raw) =>
        dropInvalidTools(raw as unknown as ListToolsResult, (tool, reason) =>
          this.#warnings.once(`x-mcp-header:${tool}:${reason}`, `Dropped tool "${tool}" from tools/list: ${reason}`, {
            tool,
            reason,
          }),
        ) as unknown as JsonObject,
    });
    for (const tool of result.tools) this.#tools.set(tool.name, tool);
    return result;
  }

  /** Every tool, walking `nextCursor` pages (bounded; a repeated cursor fails). */
  listAllTools(options?: CallOptions): Promise<Tool[]> {
    return this.#walk('tools', options);
  }

  /**
   * `tools/call`. Answers `input_required` rounds with the configured handlers; checks `structuredContent` against
   * `options.outputSchema` when given, else against the `outputSchema` the tool was listed with (throws
   * `ERR_INVALID_STRUCTURED_CONTENT`). `structuredContent` is typed from `options.outputSchema` (a JSON Schema written
   * inline or declared `as const`), or from the type argument: `callTool<{ celsius: number[] }>(…)`.
   *
   * @example
   * ```ts
   * const result = await client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } }, {
   *   onProgress: ({ progress, total }) => console.log(progress, total),
   *   signal: AbortSignal.timeout(30_000),
   * });
   * const typed = await client.callTool(
   *   { name: 'forecast', arguments: { city: 'Paris' } },
   *   { outputSchema: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] } },
   * );
   * typed.structuredContent?.celsius; // number
   * ```
   */
  callTool<const O extends Readonly<Record<string, unknown>>>(
    params: CallToolRequestParams,
    options: CallToolOptions<O> & { outputSchema: O },
  ): Promise<TypedCallToolResult<InferJsonSchema<O>>>;
  callTool<S = Record<string, unknown>>(
    params: CallToolRequestParams,
    options?: CallToolOptions,
  ): Promise<TypedCallToolResult<S>>;
  callTool(
    params: CallToolRequestParams,
    options?: CallToolOptions<Readonly<Record<string, unknown>> | undefined>,
  ): Promise<CallToolResult> {
    return this.#requests.call<CallToolResult>('tools/call', params, options, MAY_NEED_INPUT).then((result) => {
      const schema = options?.outputSchema ?? this.#tools.get(params.name)?.outputSchema;
      if (schema !== undefined)
        checkStructuredContent(params.name, schema as Tool['outputSchema'] & object, result, this.#jsonSchema);
      return result;
    });
  }

  /** One page of `resources/list`. */
  listResources(params: ListResourcesRequestParams = {}, options?: CallOptions): Promise<ListResourcesResult> {
    return listPage(this.#requests, 'resources', params, options);
  }

  /** Every resource, walking pages. */
  listAllResources(options?: CallOptions): Promise<Resource[]> {
    return this.#walk('resources', options);
  }

  /** One page of `resources/templates/list`. */
  listResourceTemplates(
    params: ListResourceTemplatesRequestParams = {},
    options?: CallOptions,
  ): Promise<ListResourceTemplatesResult> {
    return listPage(this.#requests, 'resourceTemplates', params, options);
  }

  /** Every resource template, walking pages. */
  listAllResourceTemplates(options?: CallOptions): Promise<ResourceTemplate[]> {
    return this.#walk('resourceTemplates', options);
  }

  /** `resources/read`; may go through `input_required` rounds (2026-07-28); cached per `ttlMs` / `cacheScope`. */
  readResource(params: ReadResourceRequestParams, options?: CallOptions): Promise<ReadResourceResult> {
    return this.#requests.call('resources/read', params, options, { cacheKey: params.uri, mayNeedInput: true });
  }

  /** One page of `prompts/list`. */
  listPrompts(params: ListPromptsRequestParams = {}, options?: CallOptions): Promise<ListPromptsResult> {
    return listPage(this.#requests, 'prompts', params, options);
  }

  /** Every prompt, walking pages. */
  listAllPrompts(options?: CallOptions): Promise<Prompt[]> {
    return this.#walk('prompts', options);
  }

  /** `prompts/get`; may go through `input_required` rounds (2026-07-28). */
  getPrompt(params: GetPromptRequestParams, options?: CallOptions): Promise<GetPromptResult> {
    return this.#requests.call('prompts/get', params, options, MAY_NEED_INPUT);
  }

  /** `completion/complete`: suggestions for a prompt argument or a resource-template variable. */
  complete(params: CompleteRequestParams, options?: CallOptions): Promise<CompleteResult> {
    return this.#requests.call('completion/complete', params, options);
  }

  /**
   * The server log level. Legacy: sends `logging/setLevel`. 2026-07-28 has no such request: the level becomes the
   * default `logLevel` of this client's requests (override per call with `options.logLevel`).
   */
  async setLoggingLevel(level: LoggingLevel, options?: CallOptions): Promise<void> {
    await this.#connection('logging/setLevel').session.era.setLogLevel(level, options);
  }

  // ---- the extension seam ----

  /**
   * Adds a middleware around every outgoing request (each `input_required` round included) and every request and
   * notification from the server, on every transport and in both eras. The first added is outermost; one added while
   * connected applies to what starts afterwards. Returns a function that removes it.
   *
   * @example
   * ```ts
   * client.use(async (ctx, next) => {
   *   if (ctx.direction === 'outbound') ctx.params = { ...ctx.params, _meta: { ...ctx.params?._meta, traceparent } };
   *   return next();
   * });
   * ```
   */
  use(middleware: ClientMiddleware): () => void {
    return this.#middleware.add(middleware);
  }

  /**
   * Sends any request through the client's pipeline (envelope, middleware, `input_required` rounds for the methods
   * that may ask) and resolves to its result. Spec methods are checked against the negotiated revision and the
   * server's capabilities like the typed methods; other methods (an extension's, your own) are sent as they are.
   * With `resultSchema` (any Standard Schema: zod, valibot, arktype) the result is validated and typed.
   *
   * @example
   * ```ts
   * const alerts = await client.request('com.example/alerts/list', { region: 'eu' }, { resultSchema: AlertsSchema });
   * ```
   */
  request<R = Record<string, unknown>>(
    method: string,
    params?: Record<string, unknown>,
    options?: RequestCallOptions<R>,
  ): Promise<R> {
    return this.#requests.request<R>(method, params, options);
  }

  /**
   * Sends a notification to the server.
   *
   * @example
   * ```ts
   * await client.notify('notifications/roots/list_changed');
   * ```
   */
  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.#connection(method).peer.notify(method, params as JsonRpcParams | undefined);
  }

  /**
   * Receives a notification method from the server (an extension's, or one the client does not handle itself),
   * through the client's middleware. Replaces an earlier handler of yours for the method.
   */
  setNotificationHandler(method: string, handler: ClientNotificationHandler): void {
    this.#inbound.userNotifications.set(method, handler);
  }

  /**
   * Answers a server→client request method of your own or an extension's, through the client's middleware. The spec's
   * (`sampling/createMessage`, `elicitation/create`, `roots/list`, `ping`) are answered by the client itself: give
   * `handlers` to the constructor for those.
   */
  setRequestHandler(method: string, handler: ClientRequestHandler): void {
    this.#inbound.setRequestHandler(method, handler);
  }

  /**
   * Registers an extension: declared as `capabilities.extensions[id]` (register before `connect`: a legacy
   * `initialize` sends the capabilities once), its middleware installed, its `resultTypes` handed to callers as they
   * are, then its `install` called; returns what `install` returns. Refused when the id is taken.
   *
   * @example
   * const tasksClient = client.extend(tasks());
   */
  extend<A = void>(extension: ClientExtension<A, this>): A {
    addExtension(extension, this.#extensions, this.#extensionResultTypes, this.capabilities, this.#middleware);
    return extension.install === undefined ? (undefined as A) : extension.install({ client: this });
  }

  /** The extensions registered, by id. */
  get extensions(): ReadonlyMap<string, ClientExtension<unknown, never>> {
    return this.#extensions;
  }

  /**
   * Tells the server that the client's roots changed. Legacy: sends `notifications/roots/list_changed` (the server asks
   * `roots/list` again). 2026-07-28 has no such notification (a server asks for roots inside each request, so its next
   * ask gets the new list): nothing is sent and this resolves `false`. Needs a `roots` handler (which declares
   * `roots: {listChanged: true}`) or `capabilities.roots.listChanged`, else it throws `CapabilityError`, sending nothing.
   *
   * @example
   * ```ts
   * let roots = [{ uri: 'file:///home/me/project', name: 'project' }];
   * const client = new Client(info, { handlers: { roots: () => ({ roots }) } });
   * await client.connect(transport);
   * roots = [...roots, { uri: 'file:///home/me/notes', name: 'notes' }];
   * await client.notifyRootsListChanged(); // true: sent (legacy); false: nothing to send (2026-07-28)
   * ```
   */
  async notifyRootsListChanged(): Promise<boolean> {
    const connection = this.#connection('notifications/roots/list_changed');
    return connection.session.era.notifyRootsChanged(connection);
  }

  /**
   * Answers input requests (elicitation, sampling, roots) with the client's `handlers` (or `options.handlers`, a
   * proxy's for its caller), concurrently, each checked against the declared capabilities, as for an `input_required`
   * result: for input requests that arrive elsewhere (a task's on `tasks/get`). One failing aborts the others.
   *
   * @example
   * ```ts
   * const inputResponses = await client.answerInputRequests(task.inputRequests, { forMethod: 'tools/call' });
   * await client.request('tasks/update', { taskId: task.taskId, inputResponses });
   * ```
   */
  answerInputRequests(
    inputRequests: InputRequests,
    options: { forMethod?: string; signal?: AbortSignal; handlers?: InputHandlers } = {},
  ): Promise<InputResponses> {
    const version = this.#connection('input requests').session.version;
    return fulfilInputRequests(
      inputRequests,
      options.handlers ?? this.#handlers,
      this.capabilities,
      version,
      options.forMethod ?? 'tools/call',
      options.signal,
    );
  }

  // ---- internals ----

  /** The live connection, or `ERR_NOT_CONNECTED` naming what could not be sent. */
  #connection(method: string): Connection {
    const live = this.#live;
    if (live === undefined || !live.peer.connected) {
      throw new McpClientError('ERR_NOT_CONNECTED', `Cannot send ${method}: the client is not connected`, { method });
    }
    return live;
  }

  /** Walks every page of `kind`; a complete tool list replaces every remembered definition. */
  async #walk<K extends ListKind>(kind: K, options: CallOptions | undefined): Promise<ListItem<K>[]> {
    const items = await walkPages(kind, (cursor) =>
      kind === 'tools'
        ? this.listTools(cursorParams(cursor), options)
        : listPage(this.#requests, kind as Exclude<ListKind, 'tools'>, cursorParams(cursor), options),
    );
    if (kind === 'tools') {
      this.#tools.clear();
      for (const tool of items as Tool[]) this.#tools.set(tool.name, tool);
    }
    this.#features.lists?.kept(kind, items);
    return items;
  }

  #connectionClosed(peer: JsonRpcPeer): void {
    if (this.#peer !== peer) return;
    this.#live = undefined;
    this.#features.subscriptions?.endAll('connection');
  }

  static {
    internalsOf = (client) => ({
      features: client.#features,
      own: client.#inbound.own,
      cancellation: client.#cancellation,
      timeoutMs: client.#timeoutMs,
      warnings: client.#warnings,
      call: (method, params, options) => client.#requests.call(method, params, options),
      walk: (kind, options) => client.#walk(kind, options),
      connection: (method) => client.#connection(method),
    });
  }
}

/** The internals of `client`, for `Client` (not exported from the package). */
export function leanClientInternals(client: LeanClient): LeanClientInternals {
  return internalsOf(client);
}
