import {
  ConnectionClosedError,
  JsonRpcError,
  JsonRpcPeer,
  type RequestContext,
  type RequestId,
  type RequestOptions,
  type Transport,
} from '@mcpkit/jsonrpc-core';
import {
  assertCapability,
  buildRequestMeta,
  type CallToolRequestParams,
  type CallToolResult,
  CapabilityError,
  type ClientCapabilities,
  type CompleteRequestParams,
  type CompleteResult,
  checkNegotiatedLegacyVersion,
  createMcpPeerHooks,
  type DiscoverResult,
  type GetPromptRequestParams,
  type GetPromptResult,
  hasCapability,
  type Implementation,
  type InitializeResult,
  type InputRequiredResult,
  isModernEraErrorCode,
  isModernVersion,
  isSupportedVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  type ListPromptsRequestParams,
  type ListPromptsResult,
  type ListResourcesRequestParams,
  type ListResourcesResult,
  type ListResourceTemplatesRequestParams,
  type ListResourceTemplatesResult,
  type ListToolsRequestParams,
  type ListToolsResult,
  type LoggingLevel,
  type LoggingMessageNotificationParams,
  MODERN_PROTOCOL_VERSIONS,
  methodAvailability,
  type Prompt,
  type ReadResourceRequestParams,
  type ReadResourceResult,
  type RequestMeta,
  type Resource,
  type ResourceTemplate,
  readServerInfo,
  readSubscriptionId,
  readUnsupportedProtocolVersionData,
  type ServerCapabilities,
  type SubscriptionFilter,
  selectModernVersion,
  type Tool,
} from '@mcpkit/protocol';
import { McpClientError } from './errors';
import { answerInputRequest, fulfilInputRequests } from './input-requests';
import type { CallOptions, ClientOptions, ConnectOptions, Era, InputHandlers } from './options';
import { checkStructuredContent } from './output-schema';
import { ResponseCache } from './response-cache';
import {
  filterWants,
  type SubscribeFilter,
  type Subscription,
  type SubscriptionEnd,
  type SubscriptionNotification,
} from './subscription';
import { dropInvalidTools } from './tool-filter';

const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_TOTAL_TIMEOUT_MS = 600_000;
const DEFAULT_PROBE_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_INPUT_ROUNDS = 10;
const MAX_PAGES = 10_000;

/** What the client knows about the server once connected. */
interface ConnectionState {
  era: Era;
  version: string;
  serverCapabilities: ServerCapabilities;
  serverInfo: Implementation | undefined;
  instructions: string | undefined;
  /** Modern: whether aborting a request sends `notifications/cancelled`. */
  modernCancellation: boolean;
}

/** The lists a client can walk and keep, keyed by kind. */
interface Lists {
  tools?: Tool[];
  prompts?: Prompt[];
  resources?: Resource[];
  resourceTemplates?: ResourceTemplate[];
}

/** One of the lists {@link Client} keeps. */
export type ListKind = keyof Lists;

type Params = Record<string, unknown>;

interface CallBehaviour {
  /** Cache key of a cacheable request (modern era only), or undefined when the method is not cacheable. */
  cacheKey?: string;
  /** The method may answer `input_required` (tools/call, prompts/get, resources/read). */
  mayNeedInput?: boolean;
  /** Applied to a complete result before it is cached and returned. */
  transform?: (result: Params) => Params;
}

interface ModernStream {
  readonly id: RequestId;
  readonly controller: AbortController;
  readonly onNotification: (notification: SubscriptionNotification) => void;
  acknowledged: ((honoured: SubscriptionFilter) => void) | undefined;
  end: (end: SubscriptionEnd) => void;
}

interface LegacySubscription {
  readonly filter: SubscribeFilter;
  readonly onNotification: (notification: SubscriptionNotification) => void;
  readonly end: (end: SubscriptionEnd) => void;
}

const LIST_METHOD: Record<ListKind, string> = {
  tools: 'tools/list',
  prompts: 'prompts/list',
  resources: 'resources/list',
  resourceTemplates: 'resources/templates/list',
};

function isObject(value: unknown): value is Params {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isDiscoverResult(value: unknown): value is DiscoverResult {
  return (
    isObject(value) &&
    Array.isArray(value.supportedVersions) &&
    value.supportedVersions.every((version) => typeof version === 'string') &&
    isObject(value.capabilities) &&
    (value.resultType === undefined || value.resultType === 'complete')
  );
}

/**
 * An MCP client that speaks both eras: 2026-07-28 (stateless, `_meta` envelope on every request, `server/discover`,
 * input requests inside results) and 2024-11-05 … 2025-11-25 (`initialize` handshake, server→client requests).
 *
 * @example
 * ```ts
 * const client = new Client({ name: 'my-app', version: '1.0.0' }, {
 *   handlers: { elicitation: async (params) => ({ action: 'accept', content: { answer: 'yes' } }) },
 * });
 * await client.connect(transport); // probes server/discover, falls back to initialize
 * const { tools } = await client.listTools();
 * const result = await client.callTool({ name: tools[0]!.name, arguments: {} });
 * await client.close();
 * ```
 */
export class Client {
  /** What this client says it is (`clientInfo`). */
  readonly info: Implementation;
  /** What this client declares (`clientCapabilities`). */
  readonly capabilities: ClientCapabilities;

  readonly #handlers: InputHandlers;
  readonly #enforce: boolean;
  readonly #timeoutMs: number;
  readonly #maxTotalMs: number;
  readonly #maxRounds: number;
  readonly #cache: ResponseCache | undefined;
  readonly #authContextKey: ClientOptions['authContextKey'];
  readonly #refreshLists: boolean;
  readonly #options: ClientOptions;

  #peer: JsonRpcPeer | undefined;
  #state: ConnectionState | undefined;
  #nextId = 0;
  #lastId: RequestId = 0;
  /** Requests whose abort or timeout must not send `notifications/cancelled` (the probe, server-ended listens). */
  readonly #noCancel = new Set<RequestId>();
  #logLevel: LoggingLevel | undefined;
  readonly #toolDefinitions = new Map<string, Tool>();
  readonly #lists: Lists = {};
  readonly #streams = new Map<RequestId, ModernStream>();
  readonly #legacySubscriptions = new Set<LegacySubscription>();
  readonly #resourceRefs = new Map<string, number>();
  readonly #warned = new Set<string>();

  constructor(info: Implementation, options: ClientOptions = {}) {
    this.info = info;
    this.#options = options;
    this.#handlers = options.handlers ?? {};
    this.capabilities = options.capabilities ?? capabilitiesFromHandlers(this.#handlers);
    for (const [capability, handler] of [
      ['sampling', 'sampling'],
      ['elicitation', 'elicitation'],
      ['roots', 'roots'],
    ] as const) {
      if (this.capabilities[capability] !== undefined && this.#handlers[handler] === undefined) {
        throw new TypeError(
          `new Client: capabilities declare "${capability}" but handlers.${handler} is missing; add the handler or drop the capability`,
        );
      }
    }
    this.#enforce = options.enforceServerCapabilities !== false;
    this.#timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.#maxTotalMs = options.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS;
    this.#maxRounds = options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
    this.#cache = options.cache === false ? undefined : (options.cache ?? new ResponseCache());
    this.#authContextKey = options.authContextKey;
    this.#refreshLists = options.refreshListsOnChange !== false;
  }

  // ---- state ----

  /** True once `connect()` has finished, until the connection closes. */
  get connected(): boolean {
    return this.#state !== undefined && this.#peer?.connected === true;
  }

  /** The era of the connection, once connected. */
  get era(): Era | undefined {
    return this.#state?.era;
  }

  /** The protocol version in use, once connected. */
  get protocolVersion(): string | undefined {
    return this.#state?.version;
  }

  /** What the server declared (`initialize` or `server/discover`). */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#state?.serverCapabilities;
  }

  /** The server's `serverInfo` (legacy: from `initialize`; modern: from the discover result's `_meta`). */
  get serverInfo(): Implementation | undefined {
    return this.#state?.serverInfo;
  }

  /** The server's `instructions`, if any. */
  get instructions(): string | undefined {
    return this.#state?.instructions;
  }

  /**
   * The last complete list of each kind fetched with `listAll*` (kept fresh on list-changed notifications when
   * `refreshListsOnChange` is on).
   */
  get lists(): Readonly<Lists> {
    return this.#lists;
  }

  // ---- connecting ----

  /**
   * Connects over `transport` and settles the era and version. With `era: 'auto'` (the default) and no pinned version
   * it sends `server/discover` with the 2026-07-28 envelope: a `DiscoverResult` or a recognised 2026 error (-32020,
   * -32021, -32022) means a modern server (after -32022 it retries once with a mutually supported version; it never
   * falls back); any other error, or no answer within `probeTimeoutMs`, means a legacy server, which gets
   * `initialize` and `notifications/initialized`.
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
    const modernCancellation = options.modernCancellationNotifications !== false;
    const peer = new JsonRpcPeer({
      hooks: createMcpPeerHooks({ sendCancellation: (request) => this.#mayCancel(request.id) }),
      idGenerator: () => {
        this.#lastId = ++this.#nextId;
        return this.#lastId;
      },
      defaultTimeoutMs: this.#timeoutMs,
      maxTotalTimeoutMs: this.#maxTotalMs,
      onError: this.#options.onError,
      onClose: () => this.#connectionClosed(peer),
    });
    this.#registerHandlers(peer);
    this.#peer = peer;
    this.#state = undefined;
    await peer.connect(transport);
    try {
      const state = await this.#negotiate(peer, options);
      state.modernCancellation = modernCancellation;
      this.#state = state;
    } catch (error) {
      await peer.close();
      throw error;
    }
  }

  /** Ends every subscription and closes the connection. Idempotent. */
  async close(): Promise<void> {
    for (const stream of [...this.#streams.values()]) {
      this.#streams.delete(stream.id);
      stream.controller.abort(new Error('Client closed'));
      stream.end({ by: 'client' });
    }
    for (const subscription of this.#legacySubscriptions) subscription.end({ by: 'client' });
    this.#legacySubscriptions.clear();
    this.#resourceRefs.clear();
    await this.#peer?.close();
  }

  async #negotiate(peer: JsonRpcPeer, options: ConnectOptions): Promise<ConnectionState> {
    const era = options.era ?? 'auto';
    const pinned = options.protocolVersion;
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const signal = options.signal;
    if (pinned !== undefined) {
      if (!isSupportedVersion(pinned)) {
        throw new McpClientError(
          'ERR_VERSION_NEGOTIATION',
          `Client.connect: unknown protocol version '${pinned}'; known: ${[...LEGACY_PROTOCOL_VERSIONS, ...MODERN_PROTOCOL_VERSIONS].join(', ')}`,
          { requested: pinned },
        );
      }
      const pinnedEra: Era = isModernVersion(pinned) ? 'modern' : 'legacy';
      if (era !== 'auto' && era !== pinnedEra) {
        throw new McpClientError(
          'ERR_VERSION_NEGOTIATION',
          `Client.connect: protocolVersion '${pinned}' belongs to the ${pinnedEra} era, but era '${era}' was requested`,
          { requested: pinned, era },
        );
      }
      return pinnedEra === 'modern'
        ? this.#discoverModern(peer, pinned, { timeoutMs, signal, pinned: true })
        : this.#initialize(peer, pinned, { timeoutMs, signal, allowModernSwitch: false });
    }
    const modernVersion = MODERN_PROTOCOL_VERSIONS[MODERN_PROTOCOL_VERSIONS.length - 1]!;
    if (era === 'legacy') {
      return this.#initialize(peer, LATEST_LEGACY_PROTOCOL_VERSION, { timeoutMs, signal, allowModernSwitch: false });
    }
    if (era === 'modern') return this.#discoverModern(peer, modernVersion, { timeoutMs, signal, pinned: false });
    try {
      return await this.#discoverModern(peer, modernVersion, {
        timeoutMs: options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
        signal,
        pinned: false,
        probe: true,
      });
    } catch (error) {
      if (!this.#isLegacyProbeAnswer(error, signal)) throw error;
    }
    return this.#initialize(peer, LATEST_LEGACY_PROTOCOL_VERSION, { timeoutMs, signal, allowModernSwitch: true });
  }

  /** Whether a failed probe means "legacy server": anything but a recognised 2026 error, a closed connection or an abort. */
  #isLegacyProbeAnswer(error: unknown, signal: AbortSignal | undefined): boolean {
    if (signal?.aborted || McpClientError.is(error) || ConnectionClosedError.is(error)) return false;
    if (JsonRpcError.is(error)) return !isModernEraErrorCode(error.code);
    // A timeout, or a result that is not a DiscoverResult (reported as ProbeAnsweredOtherwise).
    return true;
  }

  async #discoverModern(
    peer: JsonRpcPeer,
    version: string,
    options: { timeoutMs: number; signal: AbortSignal | undefined; pinned: boolean; probe?: boolean },
  ): Promise<ConnectionState> {
    let current = version;
    for (let attempt = 0; ; attempt++) {
      let result: unknown;
      try {
        const params = { _meta: this.#envelope(current, undefined, undefined) };
        const { id, promise } = this.#issue(peer, 'server/discover', params, {
          timeoutMs: options.timeoutMs,
          signal: options.signal,
        });
        // The probe may reach a legacy server that never knew the request: do not follow it with a cancellation.
        if (options.probe) this.#noCancel.add(id);
        try {
          result = await promise;
        } finally {
          this.#noCancel.delete(id);
        }
      } catch (error) {
        const unsupported = JsonRpcError.is(error) ? readUnsupportedProtocolVersionData(error) : undefined;
        if (unsupported === undefined) throw error;
        const next = options.pinned ? undefined : selectModernVersion(unsupported.supported);
        if (next === undefined || attempt > 0) {
          throw new McpClientError(
            'ERR_VERSION_NEGOTIATION',
            `The server does not support protocol version '${current}' and shares no 2026-07-28-era version with this client; it supports: ${unsupported.supported.join(', ') || 'nothing listed'}`,
            { requested: current, supported: unsupported.supported, client: [...MODERN_PROTOCOL_VERSIONS] },
            { cause: error },
          );
        }
        current = next;
        continue;
      }
      if (!isDiscoverResult(result)) {
        // Only the probe may meet a non-modern server; an explicit modern connection reports the bad answer.
        if (options.probe) throw new ProbeAnsweredOtherwise();
        throw new McpClientError(
          'ERR_INVALID_RESULT',
          'server/discover answered with something that is not a DiscoverResult',
          {
            result,
          },
        );
      }
      if (!result.supportedVersions.includes(current)) {
        const next = options.pinned ? undefined : selectModernVersion(result.supportedVersions);
        if (next === undefined) {
          throw new McpClientError(
            'ERR_VERSION_NEGOTIATION',
            `The server supports ${result.supportedVersions.join(', ') || 'no versions'}, none of which this client speaks as requested ('${current}')`,
            { requested: current, supported: result.supportedVersions },
          );
        }
        current = next;
      }
      this.#cache?.set('server/discover', '', this.#authContext(), result, result.ttlMs, result.cacheScope);
      return {
        era: 'modern',
        version: current,
        serverCapabilities: result.capabilities,
        serverInfo: readServerInfo(result),
        instructions: result.instructions,
        modernCancellation: true,
      };
    }
  }

  async #initialize(
    peer: JsonRpcPeer,
    version: string,
    options: { timeoutMs: number; signal: AbortSignal | undefined; allowModernSwitch: boolean },
  ): Promise<ConnectionState> {
    let result: InitializeResult;
    try {
      result = await peer.request<InitializeResult>(
        'initialize',
        { protocolVersion: version, capabilities: this.capabilities, clientInfo: this.info },
        { timeoutMs: options.timeoutMs, signal: options.signal },
      );
    } catch (error) {
      // A modern-only server lists its versions in its answer to initialize: if a slow start made the probe time
      // out, this is where we learn the server is modern after all.
      const unsupported = JsonRpcError.is(error) ? readUnsupportedProtocolVersionData(error) : undefined;
      const modern = unsupported && options.allowModernSwitch ? selectModernVersion(unsupported.supported) : undefined;
      if (modern === undefined) throw error;
      return this.#discoverModern(peer, modern, {
        timeoutMs: options.timeoutMs,
        signal: options.signal,
        pinned: false,
      });
    }
    const check = checkNegotiatedLegacyVersion(result?.protocolVersion);
    if (!check.ok) {
      throw new McpClientError('ERR_VERSION_NEGOTIATION', check.reason, {
        received: check.received,
        supported: check.supported,
      });
    }
    await peer.notify('notifications/initialized');
    return {
      era: 'legacy',
      version: check.version,
      serverCapabilities: isObject(result.capabilities) ? result.capabilities : {},
      serverInfo: result.serverInfo,
      instructions: result.instructions,
      modernCancellation: true,
    };
  }

  // ---- typed requests ----

  /**
   * `server/discover` (2026-07-28): the server's versions, capabilities and instructions; cached per its `ttlMs`. The
   * connection's view of the server's capabilities is updated from a fresh answer.
   */
  async discover(options?: CallOptions): Promise<DiscoverResult> {
    const result = await this.#call<DiscoverResult>('server/discover', {}, options, { cacheKey: '' });
    const state = this.#state;
    if (state !== undefined && isDiscoverResult(result)) {
      state.serverCapabilities = result.capabilities;
      state.instructions = result.instructions;
      state.serverInfo = readServerInfo(result) ?? state.serverInfo;
    }
    return result;
  }

  /** `ping` (2024-11-05 … 2025-11-25; removed in 2026-07-28, where it throws `CapabilityError`). */
  async ping(options?: CallOptions): Promise<void> {
    await this.#call('ping', undefined, options);
  }

  /**
   * One page of `tools/list`. Tools whose `x-mcp-header` declarations are invalid are dropped (with a warning), as
   * 2026-07-28 requires. The definitions are remembered for `callTool`'s `outputSchema` check.
   */
  async listTools(params: ListToolsRequestParams = {}, options?: CallOptions): Promise<ListToolsResult> {
    const result = await this.#call<ListToolsResult>('tools/list', params, options, {
      cacheKey: params.cursor ?? '',
      transform: (raw) => this.#filterTools(raw as unknown as ListToolsResult) as unknown as Params,
    });
    for (const tool of result.tools) this.#toolDefinitions.set(tool.name, tool);
    return result;
  }

  /** Every tool, walking `nextCursor` pages (bounded; a repeated cursor fails). */
  async listAllTools(options?: CallOptions): Promise<Tool[]> {
    const tools = await this.#walk<Tool, 'tools'>(
      'tools',
      (cursor) => this.listTools(cursorParams(cursor), options),
      'tools',
    );
    this.#toolDefinitions.clear();
    for (const tool of tools) this.#toolDefinitions.set(tool.name, tool);
    return tools;
  }

  /**
   * `tools/call`. Answers `input_required` rounds with the configured handlers; when the tool was listed with an
   * `outputSchema`, checks `structuredContent` against it (throws `ERR_INVALID_STRUCTURED_CONTENT`).
   *
   * @example
   * ```ts
   * const result = await client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } }, {
   *   onProgress: ({ progress, total }) => console.log(progress, total),
   *   signal: AbortSignal.timeout(30_000),
   * });
   * ```
   */
  async callTool(params: CallToolRequestParams, options?: CallOptions): Promise<CallToolResult> {
    const result = await this.#call<CallToolResult>('tools/call', params as object, options, {
      mayNeedInput: true,
    });
    const schema = this.#toolDefinitions.get(params.name)?.outputSchema;
    if (schema !== undefined) checkStructuredContent(params.name, schema, result);
    return result;
  }

  /** One page of `resources/list`. */
  listResources(params: ListResourcesRequestParams = {}, options?: CallOptions): Promise<ListResourcesResult> {
    return this.#call('resources/list', params, options, { cacheKey: params.cursor ?? '' });
  }

  /** Every resource, walking pages. */
  listAllResources(options?: CallOptions): Promise<Resource[]> {
    return this.#walk<Resource, 'resources'>(
      'resources',
      (cursor) => this.listResources(cursorParams(cursor), options),
      'resources',
    );
  }

  /** One page of `resources/templates/list`. */
  listResourceTemplates(
    params: ListResourceTemplatesRequestParams = {},
    options?: CallOptions,
  ): Promise<ListResourceTemplatesResult> {
    return this.#call('resources/templates/list', params, options, { cacheKey: params.cursor ?? '' });
  }

  /** Every resource template, walking pages. */
  listAllResourceTemplates(options?: CallOptions): Promise<ResourceTemplate[]> {
    return this.#walk<ResourceTemplate, 'resourceTemplates'>(
      'resourceTemplates',
      (cursor) => this.listResourceTemplates(cursorParams(cursor), options),
      'resourceTemplates',
    );
  }

  /** `resources/read`; may go through `input_required` rounds (2026-07-28); cached per `ttlMs` / `cacheScope`. */
  readResource(params: ReadResourceRequestParams, options?: CallOptions): Promise<ReadResourceResult> {
    return this.#call('resources/read', params as object, options, {
      cacheKey: params.uri,
      mayNeedInput: true,
    });
  }

  /** One page of `prompts/list`. */
  listPrompts(params: ListPromptsRequestParams = {}, options?: CallOptions): Promise<ListPromptsResult> {
    return this.#call('prompts/list', params, options, { cacheKey: params.cursor ?? '' });
  }

  /** Every prompt, walking pages. */
  listAllPrompts(options?: CallOptions): Promise<Prompt[]> {
    return this.#walk<Prompt, 'prompts'>(
      'prompts',
      (cursor) => this.listPrompts(cursorParams(cursor), options),
      'prompts',
    );
  }

  /** `prompts/get`; may go through `input_required` rounds (2026-07-28). */
  getPrompt(params: GetPromptRequestParams, options?: CallOptions): Promise<GetPromptResult> {
    return this.#call('prompts/get', params as object, options, { mayNeedInput: true });
  }

  /** `completion/complete`: suggestions for a prompt argument or a resource-template variable. */
  complete(params: CompleteRequestParams, options?: CallOptions): Promise<CompleteResult> {
    return this.#call('completion/complete', params as object, options);
  }

  /**
   * The server log level. Legacy: sends `logging/setLevel`. 2026-07-28 has no such request: the level becomes the
   * default `logLevel` of this client's requests (override per call with `options.logLevel`).
   */
  async setLoggingLevel(level: LoggingLevel, options?: CallOptions): Promise<void> {
    const state = this.#requireState('logging/setLevel');
    if (state.era === 'modern') {
      this.#logLevel = level;
      return;
    }
    await this.#call('logging/setLevel', { level }, options);
  }

  // ---- subscriptions ----

  /**
   * Subscribes to list changes and resource updates, in either era: 2026-07-28 opens one `subscriptions/listen`
   * stream and resolves once the server acknowledged it (`honoured` is what it agreed to); older revisions send
   * `resources/subscribe` per URI and listen for list-changed notifications the server declared. Lists fetched with
   * `listAll*` are refreshed on list-changed notifications either way.
   *
   * @example
   * ```ts
   * const subscription = await client.subscribe({ toolsListChanged: true, resources: ['file:///log.txt'] }, (n) => {
   *   if (n.method === 'notifications/resources/updated') console.log('changed:', n.params.uri);
   * });
   * await subscription.close();
   * ```
   */
  async subscribe(
    filter: SubscribeFilter,
    onNotification: (notification: SubscriptionNotification) => void,
    options: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<Subscription> {
    const state = this.#requireState('subscriptions/listen');
    return state.era === 'modern'
      ? this.#subscribeModern(state, filter, onNotification, options)
      : this.#subscribeLegacy(state, filter, onNotification, options);
  }

  async #subscribeModern(
    state: ConnectionState,
    filter: SubscribeFilter,
    onNotification: (notification: SubscriptionNotification) => void,
    options: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<Subscription> {
    const peer = this.#peer!;
    const notifications: SubscriptionFilter = {};
    if (filter.toolsListChanged) notifications.toolsListChanged = true;
    if (filter.promptsListChanged) notifications.promptsListChanged = true;
    if (filter.resourcesListChanged) notifications.resourcesListChanged = true;
    if (filter.resources && filter.resources.length > 0) notifications.resourceSubscriptions = [...filter.resources];
    const controller = new AbortController();
    const { id, promise } = this.#issue(
      peer,
      'subscriptions/listen',
      { notifications, _meta: this.#envelope(state.version, undefined, undefined) },
      // A listen stream lives until one side ends it.
      { signal: controller.signal, timeoutMs: 0, maxTotalTimeoutMs: 0 },
    );
    let resolveEnded!: (end: SubscriptionEnd) => void;
    const ended = new Promise<SubscriptionEnd>((resolve) => {
      resolveEnded = resolve;
    });
    let honouredFilter: SubscribeFilter = {};
    const acknowledged = new Promise<SubscriptionFilter>((resolve, reject) => {
      const stream: ModernStream = {
        id,
        controller,
        onNotification,
        acknowledged: resolve,
        end: (end) => {
          if (this.#streams.get(id) === stream) this.#streams.delete(id);
          if (stream.acknowledged !== undefined) {
            stream.acknowledged = undefined;
            reject(
              end.error ??
                new McpClientError(
                  'ERR_SUBSCRIPTION',
                  `The subscriptions/listen stream ended (${end.by}) before it was acknowledged`,
                  {
                    subscriptionId: id,
                  },
                ),
            );
          }
          resolveEnded(end);
        },
      };
      this.#streams.set(id, stream);
      promise.then(
        () => stream.end({ by: 'server' }),
        (error: unknown) => {
          if (controller.signal.aborted) return; // ended by close(), already reported
          stream.end({ by: 'connection', error: error instanceof Error ? error : new Error(String(error)) });
        },
      );
    });
    const timeoutMs = options.timeoutMs ?? this.#timeoutMs;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            const stream = this.#streams.get(id);
            if (stream?.acknowledged === undefined) return;
            controller.abort(new Error('not acknowledged in time'));
            stream.end({
              by: 'connection',
              error: new McpClientError(
                'ERR_SUBSCRIPTION',
                `The server did not acknowledge subscriptions/listen (id ${String(id)}) within ${timeoutMs} ms`,
                { subscriptionId: id, timeoutMs },
              ),
            });
          }, timeoutMs)
        : undefined;
    const onAbort = () => {
      controller.abort(options.signal?.reason);
      this.#streams.get(id)?.end({
        by: 'client',
        error: new McpClientError('ERR_SUBSCRIPTION', 'Subscribing was aborted', { subscriptionId: id }),
      });
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const honoured = await acknowledged;
      honouredFilter = {
        ...(honoured.toolsListChanged ? { toolsListChanged: true } : {}),
        ...(honoured.promptsListChanged ? { promptsListChanged: true } : {}),
        ...(honoured.resourcesListChanged ? { resourcesListChanged: true } : {}),
        ...(honoured.resourceSubscriptions ? { resources: [...honoured.resourceSubscriptions] } : {}),
      };
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    }
    return {
      honoured: honouredFilter,
      id,
      ended,
      close: async () => {
        const stream = this.#streams.get(id);
        if (stream === undefined) return;
        this.#streams.delete(id);
        // Aborting makes the peer send notifications/cancelled {requestId: id} where the transport needs it.
        controller.abort(new Error('Subscription closed by the client'));
        stream.end({ by: 'client' });
      },
    };
  }

  async #subscribeLegacy(
    state: ConnectionState,
    filter: SubscribeFilter,
    onNotification: (notification: SubscriptionNotification) => void,
    options: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<Subscription> {
    const caps = state.serverCapabilities;
    const declared = (path: string[]) => !this.#enforce || hasCapability(caps, path);
    const honoured: SubscribeFilter = {};
    if (filter.toolsListChanged && declared(['tools', 'listChanged'])) honoured.toolsListChanged = true;
    if (filter.promptsListChanged && declared(['prompts', 'listChanged'])) honoured.promptsListChanged = true;
    if (filter.resourcesListChanged && declared(['resources', 'listChanged'])) honoured.resourcesListChanged = true;
    const uris = [...new Set(filter.resources ?? [])];
    if (uris.length > 0) {
      if (this.#enforce) assertCapability('resources/subscribe', state.version, { server: caps });
      const fresh = uris.filter((uri) => (this.#resourceRefs.get(uri) ?? 0) === 0);
      const subscribed: string[] = [];
      try {
        await Promise.all(
          fresh.map(async (uri) => {
            await this.#call('resources/subscribe', { uri }, { signal: options.signal, timeoutMs: options.timeoutMs });
            subscribed.push(uri);
          }),
        );
      } catch (error) {
        await Promise.allSettled(subscribed.map((uri) => this.#call('resources/unsubscribe', { uri })));
        throw error;
      }
      for (const uri of uris) this.#resourceRefs.set(uri, (this.#resourceRefs.get(uri) ?? 0) + 1);
      honoured.resources = uris;
    }
    let resolveEnded!: (end: SubscriptionEnd) => void;
    const ended = new Promise<SubscriptionEnd>((resolve) => {
      resolveEnded = resolve;
    });
    const subscription: LegacySubscription = { filter: honoured, onNotification, end: resolveEnded };
    this.#legacySubscriptions.add(subscription);
    let closed = false;
    return {
      honoured,
      id: undefined,
      ended,
      close: async () => {
        if (closed) return;
        closed = true;
        this.#legacySubscriptions.delete(subscription);
        const release: string[] = [];
        for (const uri of honoured.resources ?? []) {
          const count = (this.#resourceRefs.get(uri) ?? 0) - 1;
          if (count > 0) this.#resourceRefs.set(uri, count);
          else {
            this.#resourceRefs.delete(uri);
            release.push(uri);
          }
        }
        resolveEnded({ by: 'client' });
        if (this.connected) await Promise.all(release.map((uri) => this.#call('resources/unsubscribe', { uri })));
      },
    };
  }

  // ---- the request pipeline ----

  async #call<R>(
    method: string,
    input: object | undefined,
    options: CallOptions = {},
    behaviour: CallBehaviour = {},
  ): Promise<R> {
    const params = input as Params | undefined;
    const state = this.#requireState(method);
    this.#check(method, state, params);
    const carriesInput =
      params !== undefined && (params.inputResponses !== undefined || params.requestState !== undefined);
    const cacheable = behaviour.cacheKey !== undefined && state.era === 'modern' && this.#cache !== undefined;
    if (cacheable && !carriesInput && options.cache !== false) {
      const cached = this.#cache!.get(method, behaviour.cacheKey!, this.#authContext());
      if (cached !== undefined) return cached as R;
    }
    let result = await this.#send(method, params, options, state);
    let rounds = 0;
    while (this.#resultKind(method, state, result, behaviour) === 'input_required') {
      rounds++;
      if (rounds > this.#maxRounds) {
        throw new McpClientError(
          'ERR_INPUT_ROUNDS_EXCEEDED',
          `${method}: the server still asked for input after ${this.#maxRounds} rounds (maxInputRounds)`,
          { method, rounds: this.#maxRounds },
        );
      }
      const interim = result as unknown as InputRequiredResult;
      const retry: Params = { ...params };
      delete retry.inputResponses;
      delete retry.requestState;
      if (interim.inputRequests !== undefined) {
        retry.inputResponses = await fulfilInputRequests(
          interim.inputRequests,
          this.#handlers,
          this.capabilities,
          state.version,
          method,
          options.signal,
        );
      }
      // Echoed verbatim (never parsed), and only when the server sent one.
      if (interim.requestState !== undefined) retry.requestState = interim.requestState;
      result = await this.#send(method, retry, options, state);
    }
    const complete = behaviour.transform ? behaviour.transform(result) : result;
    // Results of retries carrying inputResponses / requestState must not be cached (SEP-2322).
    if (cacheable && rounds === 0 && !carriesInput) {
      this.#cache!.set(
        method,
        behaviour.cacheKey!,
        this.#authContext(),
        complete,
        complete.ttlMs as number | undefined,
        complete.cacheScope as 'public' | 'private' | undefined,
      );
    }
    return complete as R;
  }

  /** Classifies a result by `resultType`: absent or `complete` is final; `input_required` only where allowed. */
  #resultKind(
    method: string,
    state: ConnectionState,
    result: Params,
    behaviour: CallBehaviour,
  ): 'complete' | 'input_required' {
    const type = result.resultType;
    if (type === undefined || type === 'complete') return 'complete';
    if (type === 'input_required') {
      if (state.era === 'modern' && behaviour.mayNeedInput === true) {
        const interim = result as unknown as InputRequiredResult;
        if (
          (interim.inputRequests === undefined || isObject(interim.inputRequests)) &&
          (interim.requestState === undefined || typeof interim.requestState === 'string') &&
          (interim.inputRequests !== undefined || interim.requestState !== undefined)
        ) {
          return 'input_required';
        }
        throw new McpClientError(
          'ERR_INVALID_RESULT',
          `${method}: an input_required result needs inputRequests (an object) or requestState (a string)`,
          { method, result },
        );
      }
      throw new McpClientError(
        'ERR_INVALID_RESULT',
        `${method} answered input_required, which only tools/call, prompts/get and resources/read may do in 2026-07-28`,
        { method, resultType: type, version: state.version },
      );
    }
    throw new McpClientError(
      'ERR_INVALID_RESULT',
      `${method} answered with an unknown resultType ${JSON.stringify(type)}`,
      {
        method,
        resultType: type,
      },
    );
  }

  /** Sends one request of the connection's era; in 2026-07-28, retries once after -32022 with a mutual version. */
  async #send(
    method: string,
    params: Params | undefined,
    options: CallOptions,
    state: ConnectionState,
  ): Promise<Params> {
    const peer = this.#peer!;
    const peerOptions: RequestOptions = {
      signal: options.signal,
      timeoutMs: options.timeoutMs ?? this.#timeoutMs,
      maxTotalTimeoutMs: options.maxTotalTimeoutMs ?? this.#maxTotalMs,
      resetTimeoutOnProgress: options.resetTimeoutOnProgress,
      onProgress: options.onProgress as ((progress: unknown) => void) | undefined,
    };
    for (let attempt = 0; ; attempt++) {
      let wire: Params | undefined;
      if (state.era === 'modern') {
        wire = { ...params, _meta: this.#envelope(state.version, params?._meta as RequestMeta | undefined, options) };
      } else {
        const meta =
          options.meta === undefined
            ? params?._meta
            : { ...(params?._meta as RequestMeta | undefined), ...options.meta };
        wire = meta === undefined ? params : { ...params, _meta: meta };
      }
      try {
        const result = await this.#issue(peer, method, wire, peerOptions).promise;
        if (!isObject(result)) {
          throw new McpClientError('ERR_INVALID_RESULT', `${method} answered with a result that is not an object`, {
            method,
            result,
          });
        }
        return result;
      } catch (error) {
        const unsupported =
          state.era === 'modern' && attempt === 0 && JsonRpcError.is(error)
            ? readUnsupportedProtocolVersionData(error)
            : undefined;
        const next = unsupported ? selectModernVersion(unsupported.supported) : undefined;
        if (next === undefined || next === state.version) throw error;
        state.version = next;
      }
    }
  }

  /** Sends a request and returns its id with the pending result (ids are ours: the peer asks our generator). */
  #issue(
    peer: JsonRpcPeer,
    method: string,
    params: Params | undefined,
    options: RequestOptions,
  ): { id: RequestId; promise: Promise<unknown> } {
    const before = this.#nextId;
    const promise = peer.request(method, params, options);
    // The peer draws the id synchronously, before any await; no id drawn means it rejected before sending.
    const id = this.#nextId === before ? Number.NaN : this.#lastId;
    return { id, promise };
  }

  #envelope(version: string, meta: RequestMeta | undefined, options: CallOptions | undefined): RequestMeta {
    const extra = options?.meta === undefined ? meta : { ...meta, ...options.meta };
    return buildRequestMeta({
      protocolVersion: version,
      clientCapabilities: this.capabilities,
      clientInfo: this.info,
      logLevel: options?.logLevel ?? this.#logLevel,
      extra,
    });
  }

  #check(method: string, state: ConnectionState, params: Params | undefined): void {
    const availability = methodAvailability(method, state.version);
    if (!availability.available || availability.kind !== 'request') {
      const reason = availability.available ? `'${method}' is not a request in ${state.version}` : availability.reason;
      throw new CapabilityError('ERR_METHOD_NOT_AVAILABLE', `${reason}.`, {
        method,
        version: state.version,
        missing: [],
      });
    }
    if (this.#enforce) assertCapability(method, state.version, { server: state.serverCapabilities }, params);
  }

  #requireState(method: string): ConnectionState {
    const state = this.#state;
    if (state === undefined || this.#peer?.connected !== true) {
      throw new McpClientError('ERR_NOT_CONNECTED', `Cannot send ${method}: the client is not connected`, { method });
    }
    return state;
  }

  #authContext(): string {
    const key = this.#authContextKey;
    return (typeof key === 'function' ? key() : key) ?? '';
  }

  #mayCancel(id: RequestId): boolean {
    if (this.#noCancel.has(id)) return false;
    const state = this.#state;
    return state === undefined || state.era === 'legacy' || state.modernCancellation;
  }

  #warn(key: string, message: string, data?: Record<string, unknown>): void {
    if (this.#warned.has(key)) return;
    this.#warned.add(key);
    const onWarning = this.#options.onWarning;
    if (onWarning) onWarning(message, data);
    else console.warn(`[@mcpkit/client] ${message}`);
  }

  #filterTools(result: ListToolsResult): ListToolsResult {
    return dropInvalidTools(result, (tool, reason) =>
      this.#warn(`x-mcp-header:${tool}:${reason}`, `Dropped tool "${tool}" from tools/list: ${reason}`, {
        tool,
        reason,
      }),
    );
  }

  async #walk<T, K extends ListKind>(
    kind: K,
    page: (cursor: string | undefined) => Promise<object>,
    field: string,
  ): Promise<T[]> {
    const items: T[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let pages = 0; ; pages++) {
      if (pages >= MAX_PAGES) {
        throw new McpClientError('ERR_PAGINATION', `${LIST_METHOD[kind]}: more than ${MAX_PAGES} pages`, {
          method: LIST_METHOD[kind],
        });
      }
      const result = (await page(cursor)) as Params;
      const list = result[field];
      if (Array.isArray(list)) for (const item of list) items.push(item as T);
      const next = result.nextCursor;
      if (typeof next !== 'string') break;
      if (seen.has(next)) {
        throw new McpClientError(
          'ERR_PAGINATION',
          `${LIST_METHOD[kind]}: the server repeated cursor ${JSON.stringify(next)}`,
          {
            method: LIST_METHOD[kind],
            cursor: next,
          },
        );
      }
      seen.add(next);
      cursor = next;
    }
    (this.#lists as Record<string, unknown>)[kind] = items;
    return items;
  }

  // ---- inbound ----

  #registerHandlers(peer: JsonRpcPeer): void {
    for (const method of ['sampling/createMessage', 'elicitation/create', 'roots/list']) {
      peer.setRequestHandler(method, (params, ctx) => this.#answerServerRequest(method, params, ctx));
    }
    peer.setRequestHandler('ping', () => {
      if (this.#state?.era === 'modern') throw JsonRpcError.methodNotFound('ping');
      return {};
    });
    for (const method of [
      'notifications/tools/list_changed',
      'notifications/prompts/list_changed',
      'notifications/resources/list_changed',
      'notifications/resources/updated',
    ]) {
      peer.setNotificationHandler(method, (params) => this.#onChange(method, params));
    }
    peer.setNotificationHandler('notifications/subscriptions/acknowledged', (params) => {
      const id = readSubscriptionId(params);
      const stream = id === undefined ? undefined : this.#streams.get(id);
      const acknowledged = stream?.acknowledged;
      if (stream === undefined || acknowledged === undefined) return;
      stream.acknowledged = undefined;
      const notifications = (params as { notifications?: unknown } | undefined)?.notifications;
      acknowledged(isObject(notifications) ? (notifications as SubscriptionFilter) : {});
    });
    peer.setNotificationHandler('notifications/cancelled', (params) => {
      // 2026-07-28 on stdio: the server tears a listen stream down by cancelling its request id.
      const requestId = (params as { requestId?: unknown } | undefined)?.requestId;
      const stream =
        typeof requestId === 'string' || typeof requestId === 'number' ? this.#streams.get(requestId) : undefined;
      if (stream === undefined) return;
      this.#streams.delete(stream.id);
      this.#noCancel.add(stream.id);
      stream.controller.abort(new Error('Subscription cancelled by the server'));
      this.#noCancel.delete(stream.id);
      stream.end({ by: 'server' });
    });
    peer.setNotificationHandler('notifications/message', (params) => {
      this.#options.onLogMessage?.(params as LoggingMessageNotificationParams);
    });
  }

  async #answerServerRequest(method: string, params: unknown, ctx: RequestContext): Promise<unknown> {
    const state = this.#state;
    // 2026-07-28 has no server→client requests: input travels inside results.
    if (state?.era === 'modern') throw JsonRpcError.methodNotFound(method);
    const version = state?.version ?? LATEST_LEGACY_PROTOCOL_VERSION;
    try {
      return await answerInputRequest(
        this.#handlers,
        this.capabilities,
        version,
        { method, params },
        {
          signal: ctx.signal,
          era: 'legacy',
          requestId: ctx.requestId,
        },
      );
    } catch (error) {
      if (
        McpClientError.is(error) &&
        (error.code === 'ERR_NO_INPUT_HANDLER' || error.code === 'ERR_UNDECLARED_INPUT_REQUEST')
      ) {
        throw new JsonRpcError(-32601, `Method not found: ${method}`, { method, reason: error.message });
      }
      throw error;
    }
  }

  #onChange(method: string, params: unknown): void {
    const cache = this.#cache;
    const refresh: ListKind[] = [];
    if (method === 'notifications/tools/list_changed') refresh.push('tools');
    else if (method === 'notifications/prompts/list_changed') refresh.push('prompts');
    else if (method === 'notifications/resources/list_changed') refresh.push('resources', 'resourceTemplates');
    else if (method === 'notifications/resources/updated') {
      const uri = (params as { uri?: unknown } | undefined)?.uri;
      if (typeof uri === 'string') cache?.invalidate('resources/read', uri);
    }
    for (const kind of refresh) {
      cache?.invalidate(LIST_METHOD[kind]);
      if (this.#refreshLists && this.#lists[kind] !== undefined) void this.#refresh(kind);
    }
    const notification = { method, params } as SubscriptionNotification;
    const subscriptionId = readSubscriptionId(params);
    if (subscriptionId !== undefined) {
      const stream = this.#streams.get(subscriptionId);
      if (stream !== undefined) this.#deliver(stream.onNotification, notification);
      return;
    }
    for (const subscription of this.#legacySubscriptions) {
      if (filterWants(subscription.filter, method, params)) this.#deliver(subscription.onNotification, notification);
    }
  }

  #deliver(callback: (notification: SubscriptionNotification) => void, notification: SubscriptionNotification): void {
    try {
      callback(notification);
    } catch (error) {
      this.#options.onError?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  async #refresh(kind: ListKind): Promise<void> {
    const fresh: CallOptions = { cache: false };
    try {
      const items =
        kind === 'tools'
          ? await this.listAllTools(fresh)
          : kind === 'prompts'
            ? await this.listAllPrompts(fresh)
            : kind === 'resources'
              ? await this.listAllResources(fresh)
              : await this.listAllResourceTemplates(fresh);
      this.#options.onListRefreshed?.(kind, items);
    } catch (error) {
      this.#warn(
        `refresh:${kind}:${Date.now()}`,
        `Could not refresh ${kind} after a list-changed notification: ${error instanceof Error ? error.message : String(error)}`,
        { kind },
      );
    }
  }

  #connectionClosed(peer: JsonRpcPeer): void {
    if (this.#peer !== peer) return;
    this.#state = undefined;
    for (const stream of [...this.#streams.values()]) {
      this.#streams.delete(stream.id);
      stream.end({
        by: 'connection',
        error: new ConnectionClosedError('The connection closed', { method: 'subscriptions/listen' }),
      });
    }
    for (const subscription of this.#legacySubscriptions) subscription.end({ by: 'connection' });
    this.#legacySubscriptions.clear();
    this.#resourceRefs.clear();
  }
}

/** Thrown inside the probe when the server answered `server/discover` with something else than a DiscoverResult. */
class ProbeAnsweredOtherwise extends Error {
  override name = 'ProbeAnsweredOtherwise';
}

function capabilitiesFromHandlers(handlers: InputHandlers): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  if (handlers.sampling) capabilities.sampling = {};
  if (handlers.elicitation) capabilities.elicitation = { form: {} };
  if (handlers.roots) capabilities.roots = {};
  return capabilities;
}

function cursorParams(cursor: string | undefined): { cursor?: string } {
  return cursor === undefined ? {} : { cursor };
}
