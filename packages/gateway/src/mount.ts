import { Client, type ClientOptions, type ConnectOptions, type InputHandlers } from '@mcpkit/client';
import { JsonRpcError, JsonRpcErrorCode, type Transport } from '@mcpkit/jsonrpc-core';
import type {
  CallToolResult,
  GetPromptResult,
  Implementation,
  LoggingMessageNotificationParams,
  Prompt,
  ReadResourceResult,
  Resource,
  ServerCapabilities,
  Tool,
  ResourceTemplate as WireResourceTemplate,
} from '@mcpkit/protocol';
import {
  type McpServer,
  RegistrationError,
  ResourceTemplate,
  type ServerMiddleware,
  type ServerRequestContext,
} from '@mcpkit/server';
import { resultForDownstream, upstreamCapabilities, upstreamLogLevel } from './era-translation';
import { type ItemFilter, passes } from './filter';
import { GatewayError } from './gateway-error';
import { MountNames } from './names';
import { passThroughSchema } from './pass-through-schema';
import { WatchedTransport } from './watched-transport';

/**
 * An upstream the gateway opens and owns: it calls `transport()` for every (re)connection, connects its own `Client`
 * and closes it with the mount. Each upstream authenticates with what its transport carries (for HTTP, a `fetch` from
 * `@mcpkit/client/auth`); nothing of the downstream's credentials is ever forwarded.
 *
 * @example
 * const upstream: UpstreamConnection = {
 *   transport: () => new StreamableHttpClientTransport(new URL('http://127.0.0.1:3000/mcp')),
 * };
 */
export interface UpstreamConnection {
  /** Opens a fresh transport to the upstream (called again on every reconnection). */
  transport: () => Transport | Promise<Transport>;
  /** How the client connects (`era`, `protocolVersion`, probe timeout). Default: probe, then fall back. */
  connect?: ConnectOptions;
}

/** How a mount reconnects an upstream it owns after a failure. */
export interface ReconnectPolicy {
  /** Delay before the first retry. Default 250 ms; it doubles after each failure. */
  initialDelayMs?: number;
  /** The longest delay between retries. Default 30 000 ms. */
  maxDelayMs?: number;
  /** Give up after this many failed attempts in a row. Default: never. */
  maxAttempts?: number;
}

/** Options of `gateway.mount(namespace, upstream, options)`. */
export interface MountOptions {
  /** Between the namespace and an upstream name. Default: the gateway's (`_`). */
  separator?: string;
  /** The prefix of this mount's resource URIs. Default `<namespace>+` (lower case, `_` → `-`); '' when unnamespaced. */
  uriPrefix?: string;
  /** Which upstream tools to expose (rules see upstream names). */
  tools?: ItemFilter;
  /** Which upstream prompts to expose. */
  prompts?: ItemFilter;
  /** Which upstream resources and resource templates to expose (rules see upstream URIs / URI templates). */
  resources?: ItemFilter;
  /** Downstream names chosen instead of `<namespace><separator><name>`, by upstream name. */
  rename?: { tools?: Record<string, string>; prompts?: Record<string, string> };
  /** Middleware that runs only for requests this mount answers (after the server's own). */
  use?: ServerMiddleware | readonly ServerMiddleware[];
  /** How an owned upstream reconnects; `false` to stay down. Default: backoff from 250 ms to 30 s, forever. */
  reconnect?: ReconnectPolicy | false;
  /** Options of the `Client` the gateway builds for an owned upstream (timeouts, warnings). */
  client?: Omit<ClientOptions, 'handlers' | 'capabilities' | 'onLogMessage' | 'cache'>;
  /** `clientInfo` the gateway presents upstream. Default `{ name: 'mcpkit-gateway', version: '0.0.0' }`. */
  clientInfo?: Implementation;
  /**
   * Extensions to cross, by id, each with the request methods it adds (e.g.
   * `{ 'io.modelcontextprotocol/skills': ['skills/list', 'skills/get', 'resources/directory/read'] }`). One the upstream
   * declares is advertised by the server with the upstream's declaration, and its methods are forwarded as they are
   * (names and URIs inside them are not rewritten: mount such an upstream unnamespaced). Default none.
   */
  extensions?: Record<string, readonly string[]>;
}

/** Where a mount stands: `connecting` (first attempt), `up`, `down` (reconnecting, or given up), `closed`. */
export type MountStatus = 'connecting' | 'up' | 'down' | 'closed';

/** What a mount reports to the gateway that owns it. */
export interface MountHost {
  readonly server: McpServer;
  /** Advertises an extension an upstream declares and routes its methods (once per id for the whole gateway). */
  crossExtension(id: string, declaration: Record<string, unknown>, methods: readonly string[], mount: Mount): void;
  /** Claims a downstream name for this mount; throws `ERR_NAME_COLLISION` naming both owners. */
  claim(kind: 'tool' | 'prompt', name: string, owner: Mount): void;
  release(kind: 'tool' | 'prompt', name: string): void;
  warn(message: string, data: Record<string, unknown>): void;
}

type Kind = 'tools' | 'prompts' | 'resources';

interface Exposed<H> {
  upstream: string;
  /** The upstream definition, as JSON: a change of it re-registers the item. */
  signature: string;
  handle: H;
}

interface Removable {
  remove(): void;
}

/** A promise with its resolver (Node 20 has no `Promise.withResolvers`). */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** The requests during which a server may ask its client (the spec's, and the ones 2026-07-28 lets answer input_required). */
const ASKING_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

const DEFAULT_CLIENT_INFO: Implementation = { name: 'mcpkit-gateway', version: '0.0.0' };

/** `_meta` keys that belong to one hop (the envelope, progress): the gateway sets its own upstream. */
function forwardableMeta(ctx: ServerRequestContext): Record<string, unknown> | undefined {
  const meta = (ctx.params?._meta ?? undefined) as Record<string, unknown> | undefined;
  if (meta === undefined) return undefined;
  let forwarded: Record<string, unknown> | undefined;
  for (const key of Object.keys(meta)) {
    if (key === 'progressToken' || key.startsWith('io.modelcontextprotocol/')) continue;
    forwarded ??= {};
    forwarded[key] = meta[key];
  }
  return forwarded;
}

/**
 * One upstream MCP server mounted into a gateway's `McpServer`: its tools, prompts, resources and templates are
 * registered on the server's registries under the mount's names, and every call on them is forwarded to the upstream
 * with its progress, cancellation, log messages and questions to the user crossing back. Made by `Gateway.mount`.
 */
export class Mount {
  readonly namespace: string;
  readonly names: MountNames;
  readonly #host: MountHost;
  readonly #upstream: Client | UpstreamConnection;
  readonly #options: MountOptions;
  readonly #middleware: readonly ServerMiddleware[];
  #status: MountStatus = 'connecting';
  #client: Client | undefined;
  #attempt = 0;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #upSince = deferred();
  readonly #tools = new Map<string, Exposed<Removable>>();
  readonly #prompts = new Map<string, Exposed<Removable>>();
  readonly #resources = new Map<string, Exposed<Removable>>();
  readonly #templates = new Map<string, Exposed<Removable>>();
  /** Downstream requests being forwarded now, oldest first: where the upstream's legacy asks and log messages go. */
  readonly #inFlight = new Set<ServerRequestContext>();
  /** Upstream URIs some downstream client subscribed to (kept across reconnections). */
  readonly #subscribedUris = new Set<string>();
  /** The upstream's list-change subscription. */
  readonly #subscriptions: { close(): Promise<void> }[] = [];
  /** One upstream subscription for every subscribed URI (one listen stream in 2026-07-28), replaced as URIs come. */
  #resourceSubscription: { close(): Promise<void> } | undefined;
  #resubscribing: Promise<void> = Promise.resolve();

  constructor(host: MountHost, namespace: string, upstream: Client | UpstreamConnection, options: MountOptions) {
    this.#host = host;
    this.namespace = namespace;
    this.#upstream = upstream;
    this.#options = options;
    this.names = new MountNames(namespace, options.separator ?? '_', options.uriPrefix);
    const use = options.use;
    this.#middleware = use === undefined ? [] : Array.isArray(use) ? [...use] : [use as ServerMiddleware];
  }

  /** Where the mount stands. */
  get status(): MountStatus {
    return this.#status;
  }

  /** The client connected to the upstream now, if it is up. */
  get client(): Client | undefined {
    return this.#status === 'up' ? this.#client : undefined;
  }

  /** Settles once the upstream is up (again). */
  get ready(): Promise<void> {
    return this.#upSince.promise;
  }

  /** The mount's own middleware (run by the gateway around the requests this mount answers). */
  get middleware(): readonly ServerMiddleware[] {
    return this.#middleware;
  }

  /** The downstream names this mount exposes now, by kind (tools, prompts: names; resources, templates: URIs). */
  exposed(): { tools: string[]; prompts: string[]; resources: string[]; resourceTemplates: string[] } {
    return {
      tools: [...this.#tools.keys()],
      prompts: [...this.#prompts.keys()],
      resources: [...this.#resources.keys()],
      resourceTemplates: [...this.#templates.keys()],
    };
  }

  /** The upstream name of a downstream tool or prompt name of this mount, if it is one. */
  upstreamName(kind: 'tool' | 'prompt', name: string): string | undefined {
    return (kind === 'tool' ? this.#tools : this.#prompts).get(name)?.upstream;
  }

  /** Whether this mount lists `uriTemplate` (a downstream URI template). */
  hasTemplate(uriTemplate: string): boolean {
    return this.#templates.has(uriTemplate);
  }

  /**
   * Connects (the first attempt). A failure to connect leaves the mount `down` and reconnecting; a name collision
   * found while registering what the upstream lists is thrown.
   */
  async start(): Promise<void> {
    await this.#connect(true);
  }

  /** Unregisters everything of this mount and closes an owned upstream. */
  async close(): Promise<void> {
    if (this.#status === 'closed') return;
    this.#status = 'closed';
    clearTimeout(this.#retry);
    this.#unregisterAll();
    const subscriptions = this.#subscriptions.splice(0);
    if (this.#resourceSubscription !== undefined) subscriptions.push(this.#resourceSubscription);
    this.#resourceSubscription = undefined;
    await Promise.allSettled(subscriptions.map((subscription) => subscription.close()));
    if (this.#owned()) await this.#client?.close();
  }

  // ---- forwarding ----

  /**
   * Sends one downstream request upstream with this request's progress, cancellation, log level and questions
   * crossing; upstream JSON-RPC errors pass as they are, local failures become -32603 naming the mount.
   */
  async forward<R>(ctx: ServerRequestContext, method: string, params: Record<string, unknown>): Promise<R> {
    const client = this.client;
    if (client === undefined) {
      throw new JsonRpcError(
        JsonRpcErrorCode.InternalError,
        `mount '${this.namespace}': the upstream is ${this.#status}; ${method} cannot be forwarded now`,
        { mount: this.namespace, method, status: this.#status },
      );
    }
    // The downstream's envelope and progress token belong to its hop; only its other `_meta` keys travel on.
    let upstreamParams = params;
    if ('_meta' in params) {
      const { _meta: _hop, ...rest } = params;
      upstreamParams = rest;
    }
    const meta = forwardableMeta(ctx);
    if (meta !== undefined) upstreamParams = { ...upstreamParams, _meta: meta };
    // What only a 2026-07-28 upstream reads (per-request capabilities, input rounds) is built only for one.
    const modern = client.era === 'modern';
    this.#inFlight.add(ctx);
    try {
      const result = await client.request<R>(method, upstreamParams, {
        signal: ctx.signal,
        onProgress:
          ctx.progressToken === undefined
            ? undefined
            : (progress) => void ctx.progress(progress.progress, progress.total, progress.message).catch(() => {}),
        logLevel: upstreamLogLevel(ctx),
        clientCapabilities: modern ? upstreamCapabilities(ctx, this.#options.extensions) : undefined,
        inputHandlers: modern ? this.#askerFor(ctx) : undefined,
        cache: false,
      });
      return resultForDownstream(result, ctx.era);
    } catch (error) {
      // A Client the gateway was given tells no one it closed: the first call that finds it closed takes it down.
      const code = (error as { code?: unknown } | null)?.code;
      if (this.#client === client && (!client.connected || code === 'ERR_CONNECTION_CLOSED')) {
        this.#down(error);
      }
      throw this.#failure(error, method);
    } finally {
      this.#inFlight.delete(ctx);
    }
  }

  /** Reads an upstream resource for a downstream URI of this mount, mapping the URIs of the contents back. */
  async read(ctx: ServerRequestContext, upstreamUri: string): Promise<ReadResourceResult> {
    const result = await this.forward<ReadResourceResult>(ctx, 'resources/read', { uri: upstreamUri });
    return this.#downstreamContents(result);
  }

  /** Makes the upstream tell about `upstreamUri` (the downstream subscribed to its mapped URI). */
  async subscribe(upstreamUri: string): Promise<void> {
    if (this.#subscribedUris.has(upstreamUri)) return;
    this.#subscribedUris.add(upstreamUri);
    const client = this.client;
    if (client !== undefined) await this.#subscribeUpstream(client);
  }

  #askerFor(ctx: ServerRequestContext): InputHandlers {
    return {
      elicitation: (params, context) => ctx.elicit(params, { key: context.key }),
      sampling: (params, context) => ctx.createMessage(params, { key: context.key }),
      roots: (params, context) => ctx.listRoots(params, { key: context.key }),
    };
  }

  /**
   * The one forwarded request an upstream message outside any call belongs to. A legacy upstream's server→client
   * request, and any upstream's log message, names no request of ours: with exactly one request in flight on this
   * mount it is that one's; with several, guessing could show one caller another's question or log, so there is none.
   */
  #soleCaller(): ServerRequestContext | undefined {
    if (this.#inFlight.size !== 1) return undefined;
    for (const ctx of this.#inFlight) return ctx;
    return undefined;
  }

  #asker(method: string): ServerRequestContext {
    const asker = this.#soleCaller();
    if (asker === undefined || !ASKING_METHODS.has(asker.method)) {
      const inFlight = this.#inFlight.size;
      throw new JsonRpcError(
        JsonRpcErrorCode.InternalError,
        inFlight === 0
          ? `mcpkit gateway: no request of mount '${this.namespace}' is in flight to answer ${method}`
          : `mcpkit gateway: ${inFlight} requests of mount '${this.namespace}' are in flight and ${method} names none of them; ask within a 2026-07-28 input round to be answered`,
        { mount: this.namespace, method, inFlight },
      );
    }
    return asker;
  }

  #logged(params: LoggingMessageNotificationParams): void {
    this.#soleCaller()
      ?.log(params.level, params.data, params.logger)
      .catch(() => {});
  }

  #failure(error: unknown, method: string): unknown {
    if (JsonRpcError.is(error)) return error;
    const reason = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown } | undefined)?.code;
    return new JsonRpcError(
      JsonRpcErrorCode.InternalError,
      `mount '${this.namespace}': ${method} failed upstream: ${reason}`,
      { mount: this.namespace, method, ...(typeof code === 'string' ? { reason: code } : {}) },
    );
  }

  /**
   * Content blocks with the URIs of this mount's resources mapped (a `resource_link`, an embedded `resource`), so a
   * caller can read what a tool or prompt points at through the gateway. Other blocks are kept as they are.
   */
  #downstreamBlocks<B>(blocks: B[]): B[] {
    if (!Array.isArray(blocks)) return blocks;
    let mapped: B[] | undefined;
    blocks.forEach((block, index) => {
      const item = block as { type?: unknown; uri?: unknown; resource?: { uri?: unknown } } | null;
      let replaced: unknown;
      if (item?.type === 'resource_link' && typeof item.uri === 'string') {
        replaced = { ...item, uri: this.names.uri(item.uri) };
      } else if (item?.type === 'resource' && typeof item.resource?.uri === 'string') {
        replaced = { ...item, resource: { ...item.resource, uri: this.names.uri(item.resource.uri) } };
      }
      if (replaced === undefined) return;
      mapped ??= [...blocks];
      mapped[index] = replaced as B;
    });
    return mapped ?? blocks;
  }

  #downstreamContents(result: ReadResourceResult): ReadResourceResult {
    if (this.names.uriPrefix === '' || !Array.isArray(result?.contents)) return result;
    return {
      ...result,
      contents: result.contents.map((content) =>
        typeof content?.uri === 'string' ? { ...content, uri: this.names.uri(content.uri) } : content,
      ),
    };
  }

  // ---- connection ----

  #owned(): boolean {
    return !(this.#upstream instanceof Client);
  }

  #newClient(): Client {
    const options = this.#options;
    return new Client(options.clientInfo ?? DEFAULT_CLIENT_INFO, {
      ...options.client,
      // Results are never cached here: one upstream serves many downstream principals.
      cache: false,
      refreshListsOnChange: false,
      capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } },
      handlers: {
        elicitation: (params) => this.#asker('elicitation/create').elicit(params),
        sampling: (params) => this.#asker('sampling/createMessage').createMessage(params),
        roots: (params) => this.#asker('roots/list').listRoots(params),
      },
      onLogMessage: (params) => this.#logged(params),
    });
  }

  async #connect(first: boolean): Promise<void> {
    const upstream = this.#upstream;
    const client = upstream instanceof Client ? upstream : this.#newClient();
    let opened: Transport | undefined;
    try {
      if (upstream instanceof Client) {
        if (!client.connected) throw new Error('the given Client is not connected');
      } else {
        opened = new WatchedTransport(await upstream.transport(), () => this.#lost(client));
        await client.connect(opened, upstream.connect);
      }
    } catch (error) {
      // A transport that opened (a spawned process, a socket) before the handshake failed is closed, not leaked.
      await opened?.close().catch(() => {});
      this.#down(error);
      return;
    }
    if (this.#status === 'closed') {
      if (this.#owned()) await client.close().catch(() => {});
      return;
    }
    this.#client = client;
    this.#status = 'up';
    this.#attempt = 0;
    // Completions cross only if the server declares them; an upstream's declaration is the reason to.
    if (client.serverCapabilities?.completions !== undefined) {
      this.#host.server.server.registerCapabilities({ completions: {} });
    }
    const declared = client.serverCapabilities?.extensions ?? {};
    for (const [id, methods] of Object.entries(this.#options.extensions ?? {})) {
      const declaration = declared[id];
      if (declaration !== undefined) this.#host.crossExtension(id, declaration, methods, this);
    }
    try {
      await this.#syncAll(client, first);
      await this.#watch(client);
    } catch (error) {
      if (GatewayError.is(error)) {
        await this.close();
        throw error;
      }
      if (this.#client === client && this.#status === 'up') {
        this.#host.warn(`mount '${this.namespace}': the upstream could not be listed; reconnecting`, {
          mount: this.namespace,
          error: String(error),
        });
        if (this.#owned()) await client.close().catch(() => {});
        else this.#down(error);
      }
      return;
    }
    this.#upSince.resolve();
  }

  /** The owned transport closed: the upstream is gone until it reconnects. */
  #lost(client: Client): void {
    if (this.#client !== client || this.#status === 'closed') return;
    this.#down(new Error('the upstream closed the connection'));
  }

  #down(error: unknown): void {
    if (this.#status === 'closed') return;
    const wasUp = this.#status === 'up';
    this.#status = 'down';
    this.#client = undefined;
    this.#subscriptions.length = 0;
    this.#resourceSubscription = undefined;
    this.#unregisterAll();
    if (wasUp) this.#upSince = deferred();
    this.#host.warn(`mount '${this.namespace}': the upstream is down: ${String((error as Error)?.message ?? error)}`, {
      mount: this.namespace,
    });
    const policy = this.#options.reconnect;
    if (policy === false || !this.#owned()) return;
    const attempt = ++this.#attempt;
    if (policy?.maxAttempts !== undefined && attempt > policy.maxAttempts) return;
    const base = policy?.initialDelayMs ?? 250;
    const max = policy?.maxDelayMs ?? 30_000;
    // Full jitter: many gateways restarting with one upstream do not come back in step.
    const delay = Math.min(max, base * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
    this.#retry = setTimeout(() => {
      this.#connect(false).catch((collision) => this.#host.warn(String(collision), { mount: this.namespace }));
    }, delay);
  }

  /** Follows the upstream's list changes and the resources downstream clients subscribed to. */
  async #watch(client: Client): Promise<void> {
    const capabilities = client.serverCapabilities ?? {};
    const filter = {
      toolsListChanged: capabilities.tools?.listChanged === true,
      promptsListChanged: capabilities.prompts?.listChanged === true,
      resourcesListChanged: capabilities.resources?.listChanged === true,
    };
    if (filter.toolsListChanged || filter.promptsListChanged || filter.resourcesListChanged) {
      const subscription = await client.subscribe(filter, (notification) => {
        const kind: Kind =
          notification.method === 'notifications/tools/list_changed'
            ? 'tools'
            : notification.method === 'notifications/prompts/list_changed'
              ? 'prompts'
              : 'resources';
        if (this.#client !== client) return;
        this.#sync(client, kind, false)
          .then((changed) => {
            // The upstream's list changed and changed back (or in what the gateway does not keep, like order): the
            // caller still hears of it, once, as it would from the upstream itself.
            if (!changed) this.#host.server.server.sendListChanged(kind);
          })
          .catch((error) =>
            this.#host.warn(`mount '${this.namespace}': ${kind} could not be listed again: ${String(error)}`, {
              mount: this.namespace,
            }),
          );
      });
      this.#subscriptions.push(subscription);
    }
    if (this.#subscribedUris.size > 0) await this.#subscribeUpstream(client);
  }

  /**
   * Subscribes upstream to every URI subscribed so far with one subscription, then ends the one it replaces (one at a
   * time). A legacy upstream sees `resources/subscribe` once per URI (the client counts references); a 2026-07-28 one
   * keeps one listen stream for the mount.
   */
  #subscribeUpstream(client: Client): Promise<void> {
    const run = async () => {
      if (client.serverCapabilities?.resources?.subscribe !== true || this.#client !== client) return;
      const subscription = await client.subscribe({ resources: [...this.#subscribedUris] }, (notification) => {
        if (notification.method === 'notifications/resources/updated') {
          this.#host.server.notifyResourceUpdated(this.names.uri(notification.params.uri));
        }
      });
      const replaced = this.#resourceSubscription;
      this.#resourceSubscription = subscription;
      await replaced?.close();
    };
    this.#resubscribing = this.#resubscribing.then(run, run);
    return this.#resubscribing;
  }

  // ---- registration ----

  async #syncAll(client: Client, first: boolean): Promise<void> {
    const capabilities: ServerCapabilities = client.serverCapabilities ?? {};
    if (capabilities.tools !== undefined) await this.#sync(client, 'tools', first);
    if (capabilities.prompts !== undefined) await this.#sync(client, 'prompts', first);
    if (capabilities.resources !== undefined) await this.#sync(client, 'resources', first);
  }

  async #sync(client: Client, kind: Kind, first: boolean): Promise<boolean> {
    if (kind === 'tools') {
      const tools = await client.listAllTools();
      return this.#reconcile(
        this.#tools,
        tools.filter((tool) => passes(this.#options.tools, tool.name)),
        (tool) => this.names.exposed(tool.name, this.#options.rename?.tools),
        (exposed, tool) => this.#registerTool(exposed, tool),
        'tool',
        first,
      );
    } else if (kind === 'prompts') {
      const prompts = await client.listAllPrompts();
      return this.#reconcile(
        this.#prompts,
        prompts.filter((prompt) => passes(this.#options.prompts, prompt.name)),
        (prompt) => this.names.exposed(prompt.name, this.#options.rename?.prompts),
        (exposed, prompt) => this.#registerPrompt(exposed, prompt),
        'prompt',
        first,
      );
    } else {
      const [resources, templates] = await Promise.all([
        client.listAllResources(),
        client.listAllResourceTemplates().catch(() => [] as WireResourceTemplate[]),
      ]);
      const resourcesChanged = this.#reconcile(
        this.#resources,
        resources.filter((resource) => passes(this.#options.resources, resource.uri)),
        (resource) => this.names.uri(resource.uri),
        (exposed, resource) => this.#registerResource(exposed, resource),
        undefined,
        first,
      );
      const templatesChanged = this.#reconcile(
        this.#templates,
        templates.filter((template) => passes(this.#options.resources, template.uriTemplate)),
        (template) => this.names.uri(template.uriTemplate),
        (exposed, template) => this.#registerTemplate(exposed, template),
        undefined,
        first,
      );
      return resourcesChanged || templatesChanged;
    }
  }

  /**
   * Brings one registry in line with what the upstream lists: removes what went, re-registers what changed, adds what
   * came. All of it lands in one debounced `list_changed`. A collision refuses the first listing and skips the item
   * (with a warning) later.
   */
  #reconcile<T extends Tool | Prompt | Resource | WireResourceTemplate>(
    current: Map<string, Exposed<Removable>>,
    items: readonly T[],
    exposedOf: (item: T) => string,
    register: (exposed: string, item: T) => Removable,
    claims: 'tool' | 'prompt' | undefined,
    first: boolean,
  ): boolean {
    let changed = false;
    const wanted = new Map<string, T>();
    for (const item of items) wanted.set(exposedOf(item), item);
    for (const [exposed, entry] of current) {
      const item = wanted.get(exposed);
      if (item !== undefined && JSON.stringify(item) === entry.signature) continue;
      this.#unregister(current, exposed, claims);
      changed = true;
    }
    for (const [exposed, item] of wanted) {
      if (current.has(exposed)) continue;
      const upstream = 'uri' in item ? item.uri : 'uriTemplate' in item ? item.uriTemplate : item.name;
      try {
        if (claims !== undefined) this.#host.claim(claims, exposed, this);
        let handle: Removable;
        try {
          handle = register(exposed, item);
        } catch (error) {
          if (claims !== undefined) this.#host.release(claims, exposed);
          throw error;
        }
        current.set(exposed, { upstream, signature: JSON.stringify(item), handle });
        changed = true;
      } catch (error) {
        const refused = this.#refusal(error, claims, exposed, upstream);
        if (first && GatewayError.is(refused)) throw refused;
        this.#host.warn(refused.message, { mount: this.namespace, name: exposed });
      }
    }
    return changed;
  }

  /** A collision with the server's own registration, named as such; other registration errors as they are. */
  #refusal(error: unknown, kind: 'tool' | 'prompt' | undefined, exposed: string, upstream: string): Error {
    if (RegistrationError.is(error) && error.code === 'ERR_DUPLICATE' && kind !== undefined) {
      return new GatewayError(
        'ERR_NAME_COLLISION',
        `mount '${this.namespace}': its ${kind} '${upstream}' would be exposed as '${exposed}', which the server already registered itself; rename it (options.rename) or filter it out`,
        { mount: this.namespace, kind, name: exposed, upstream, other: 'the server' },
      );
    }
    if (GatewayError.is(error)) return error;
    return new Error(
      `mount '${this.namespace}': '${upstream}' could not be registered as '${exposed}': ${(error as Error)?.message ?? error}`,
    );
  }

  #unregister(current: Map<string, Exposed<Removable>>, exposed: string, claims: 'tool' | 'prompt' | undefined): void {
    const entry = current.get(exposed);
    if (entry === undefined) return;
    current.delete(exposed);
    entry.handle.remove();
    if (claims !== undefined) this.#host.release(claims, exposed);
  }

  #unregisterAll(): void {
    for (const exposed of [...this.#tools.keys()]) this.#unregister(this.#tools, exposed, 'tool');
    for (const exposed of [...this.#prompts.keys()]) this.#unregister(this.#prompts, exposed, 'prompt');
    for (const exposed of [...this.#resources.keys()]) this.#unregister(this.#resources, exposed, undefined);
    for (const exposed of [...this.#templates.keys()]) this.#unregister(this.#templates, exposed, undefined);
  }

  #registerTool(exposed: string, tool: Tool): Removable {
    const upstreamName = tool.name;
    return this.#host.server.registerTool(
      exposed,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: passThroughSchema(tool.inputSchema as Record<string, unknown>),
        outputSchema:
          tool.outputSchema === undefined ? undefined : passThroughSchema(tool.outputSchema as Record<string, unknown>),
        annotations: tool.annotations,
        icons: tool.icons,
        _meta: tool._meta,
      },
      async (args, ctx) => {
        const result = await this.forward<CallToolResult>(ctx, 'tools/call', {
          name: upstreamName,
          arguments: args ?? {},
        });
        return this.names.uriPrefix === '' ? result : { ...result, content: this.#downstreamBlocks(result.content) };
      },
    );
  }

  #registerPrompt(exposed: string, prompt: Prompt): Removable {
    const upstreamName = prompt.name;
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    for (const argument of prompt.arguments ?? []) {
      properties[argument.name] =
        argument.description === undefined ? { type: 'string' } : { type: 'string', description: argument.description };
      if (argument.required === true) required.push(argument.name);
    }
    return this.#host.server.registerPrompt(
      exposed,
      {
        title: prompt.title,
        description: prompt.description,
        argsSchema:
          prompt.arguments === undefined ? undefined : passThroughSchema({ type: 'object', properties, required }),
        icons: prompt.icons,
        _meta: prompt._meta,
      },
      async (args, ctx) => {
        const result = await this.forward<GetPromptResult>(ctx, 'prompts/get', {
          name: upstreamName,
          ...(args === undefined ? {} : { arguments: args }),
        });
        if (this.names.uriPrefix === '' || !Array.isArray(result?.messages)) return result;
        return {
          ...result,
          messages: result.messages.map((message) => {
            const [content] = this.#downstreamBlocks([message.content]);
            return content === message.content ? message : { ...message, content: content as typeof message.content };
          }),
        };
      },
    );
  }

  #registerResource(exposed: string, resource: Resource): Removable {
    return this.#host.server.registerResource(
      resource.name,
      exposed,
      {
        title: resource.title,
        description: resource.description,
        mimeType: resource.mimeType,
        annotations: resource.annotations,
        icons: resource.icons,
        size: resource.size,
        _meta: resource._meta,
      },
      (uri, ctx) => this.read(ctx, this.names.upstreamUri(uri) ?? uri),
    );
  }

  #registerTemplate(exposed: string, template: WireResourceTemplate): Removable {
    return this.#host.server.registerResource(
      template.name,
      new ResourceTemplate(exposed),
      {
        title: template.title,
        description: template.description,
        mimeType: template.mimeType,
        annotations: template.annotations,
        icons: template.icons,
        _meta: template._meta,
      },
      (uri, _variables, ctx) => this.read(ctx, this.names.upstreamUri(uri) ?? uri),
    );
  }
}
