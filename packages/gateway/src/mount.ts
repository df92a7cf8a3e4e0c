// One mounted upstream and its lifecycle: connecting (an owned upstream through a fresh transport, or a given Client),
// going down and reconnecting with backoff, following the upstream's list changes and resource subscriptions. What it
// registers lives in mount-registrations.ts; how a request crosses, in upstream-requests.ts.
import { Client } from '@mcpkit/client';
import { JsonRpcError, JsonRpcErrorCode, type Transport } from '@mcpkit/jsonrpc-core';
import type { CallToolResult, Implementation, ReadResourceResult, Tool, ToolExecution } from '@mcpkit/protocol';
import type { McpServer, ServerMiddleware, ServerRequestContext } from '@mcpkit/server';
import type { TasksClient, TasksServer } from '@mcpkit/tasks';
import { tasks as clientTasks } from '@mcpkit/tasks/client';
import { downstreamContents } from './content-uris';
import { GatewayError } from './gateway-error';
import type { MountOptions, MountStatus, UpstreamConnection } from './mount-options';
import { type ListKind, MountRegistrations } from './mount-registrations';
import { MountNames } from './names';
import { UpstreamRequests } from './upstream-requests';
import { callAsTask, crossedExecution, wantsTask } from './upstream-tasks';
import { WatchedTransport } from './watched-transport';

/** A tool result the downstream takes as it is. */
const same = (result: CallToolResult): CallToolResult => result;

/** What a mount reports to the gateway that owns it. */
export interface MountHost {
  readonly server: McpServer;
  /** Advertises an extension an upstream declares and routes its methods (once per id for the whole gateway). */
  crossExtension(id: string, declaration: Record<string, unknown>, methods: readonly string[], mount: Mount): void;
  /** Claims a downstream name for this mount; throws `ERR_NAME_COLLISION` naming both owners. */
  claim(kind: 'tool' | 'prompt', name: string, owner: Mount): void;
  release(kind: 'tool' | 'prompt', name: string): void;
  /** The front server's tasks, when the gateway crosses them; `startsInHandler` marks a tool whose calls it decides. */
  readonly tasks: { server: TasksServer; startsInHandler(name: string, on: boolean): void } | undefined;
  warn(message: string, data: Record<string, unknown>): void;
}

/** A promise with its resolver (Node 20 has no `Promise.withResolvers`). */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

function keyOf(key: string | undefined): { key: string } | undefined {
  return key === undefined ? undefined : { key };
}

const DEFAULT_CLIENT_INFO: Implementation = { name: 'mcpkit-gateway', version: '0.0.0' };

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
  /** The tasks half of the upstream client: installed on an owned client, given with `options.tasksClient`. */
  #tasksClient: TasksClient | undefined;
  #attempt = 0;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #upSince = deferred();
  readonly #registrations: MountRegistrations;
  readonly #requests: UpstreamRequests;
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
    this.#requests = new UpstreamRequests(namespace, options.extensions);
    this.#registrations = new MountRegistrations(
      {
        server: host.server,
        namespace,
        names: this.names,
        claim: (kind, name) => host.claim(kind, name, this),
        release: (kind, name) => host.release(kind, name),
        warn: (message, data) => host.warn(message, data),
        forward: (ctx, method, params) => this.forward(ctx, method, params),
        callTool: (ctx, name, args, downstream) => this.callTool(ctx, name, args, downstream),
        execution: (tool) => this.#execution(tool),
        startsInHandler: (name, on) => host.tasks?.startsInHandler(name, on),
        read: (ctx, upstreamUri) => this.read(ctx, upstreamUri),
      },
      options,
    );
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
    return this.#registrations.exposed();
  }

  /** The upstream name of a downstream tool or prompt name of this mount, if it is one. */
  upstreamName(kind: 'tool' | 'prompt', name: string): string | undefined {
    return this.#registrations.upstreamName(kind, name);
  }

  /** Whether this mount lists `uriTemplate` (a downstream URI template). */
  hasTemplate(uriTemplate: string): boolean {
    return this.#registrations.hasTemplate(uriTemplate);
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
    this.#registrations.unregisterAll();
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
  forward<R>(ctx: ServerRequestContext, method: string, params: Record<string, unknown>): Promise<R> {
    // Not an async function: the forwarded request's own promise is the answer, with no frame of this one around it.
    const client = this.client;
    if (client === undefined) {
      return Promise.reject(
        new JsonRpcError(
          JsonRpcErrorCode.InternalError,
          `mount '${this.namespace}': the upstream is ${this.#status}; ${method} cannot be forwarded now`,
          { mount: this.namespace, method, status: this.#status },
        ),
      );
    }
    return this.#requests.forward<R>(client, ctx, method, params, this.#forwardFailed);
  }

  /** Hears of every failed forward (made once, not per call). */
  readonly #forwardFailed = (error: unknown, client: Client): void => {
    // A Client the gateway was given tells no one it closed: the first call that finds it closed takes it down.
    const code = (error as { code?: unknown } | null)?.code;
    if (this.#client === client && (!client.connected || code === 'ERR_CONNECTION_CLOSED')) {
      this.#down(error);
    }
  };

  /**
   * Calls an upstream tool for a downstream `tools/call`: as a task when the downstream asked for one and both sides
   * can (see upstream-tasks.ts), else forwarded as a plain call. `downstream` maps the result (URIs), if it must.
   */
  callTool(
    ctx: ServerRequestContext,
    name: string,
    args: Record<string, unknown> | undefined,
    downstream?: (result: CallToolResult) => CallToolResult,
  ): Promise<CallToolResult> {
    const params = { name, arguments: args ?? {} };
    const client = this.client;
    const server = this.#host.tasks?.server;
    const tasksClient = this.#tasksClient;
    if (client === undefined || server === undefined || tasksClient?.client !== client || !wantsTask(ctx)) {
      const forwarded = this.forward<CallToolResult>(ctx, 'tools/call', params);
      return downstream === undefined ? forwarded : forwarded.then(downstream);
    }
    return callAsTask({ server, client: tasksClient }, ctx, params, downstream ?? same, this.#requests).catch(
      (error: unknown) => {
        throw this.#requests.failure(error, 'tools/call');
      },
    );
  }

  /** How an upstream tool may run as a task downstream (`undefined` when tasks do not cross on this mount). */
  #execution(tool: Tool): ToolExecution | undefined {
    const client = this.#client;
    if (this.#host.tasks === undefined || client === undefined || this.#tasksClient?.client !== client) {
      return undefined;
    }
    return crossedExecution(client, tool.execution);
  }

  /** Reads an upstream resource for a downstream URI of this mount, mapping the URIs of the contents back. */
  async read(ctx: ServerRequestContext, upstreamUri: string): Promise<ReadResourceResult> {
    const result = await this.forward<ReadResourceResult>(ctx, 'resources/read', { uri: upstreamUri });
    return downstreamContents(this.names, result);
  }

  /** Makes the upstream tell about `upstreamUri` (the downstream subscribed to its mapped URI). */
  async subscribe(upstreamUri: string): Promise<void> {
    if (this.#subscribedUris.has(upstreamUri)) return;
    this.#subscribedUris.add(upstreamUri);
    const client = this.client;
    if (client !== undefined) await this.#subscribeUpstream(client);
  }

  // ---- connection ----

  #owned(): boolean {
    return !(this.#upstream instanceof Client);
  }

  #newClient(): Client {
    const options = this.#options;
    const client = new Client(options.clientInfo ?? DEFAULT_CLIENT_INFO, {
      ...options.client,
      // Results are never cached here: one upstream serves many downstream principals.
      cache: false,
      refreshListsOnChange: false,
      capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } },
      // A 2026-07-28 round's key travels on, so the downstream round names the question as the upstream did.
      handlers: {
        elicitation: (params, context) =>
          this.#requests.asker('elicitation/create', context.relatedRequestId).elicit(params, keyOf(context.key)),
        sampling: (params, context) =>
          this.#requests
            .asker('sampling/createMessage', context.relatedRequestId)
            .createMessage(params, keyOf(context.key)),
        roots: (params, context) =>
          this.#requests.asker('roots/list', context.relatedRequestId).listRoots(params, keyOf(context.key)),
      },
      onLogMessage: (params, context) => this.#requests.logged(params, context.relatedRequestId),
    });
    client.use(this.#requests.middleware);
    // Tasks cross only when the front server has them; a task-augmented ask of a 2025-11-25 upstream is not crossed.
    if (this.#host.tasks !== undefined) this.#tasksClient = client.extend(clientTasks({ receiver: false }));
    return client;
  }

  async #connect(first: boolean): Promise<void> {
    const upstream = this.#upstream;
    const client = upstream instanceof Client ? upstream : this.#newClient();
    if (upstream instanceof Client) this.#tasksClient = this.#options.tasksClient;
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
      await this.#registrations.syncAll(client, first);
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
    this.#registrations.unregisterAll();
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
        const kind: ListKind =
          notification.method === 'notifications/tools/list_changed'
            ? 'tools'
            : notification.method === 'notifications/prompts/list_changed'
              ? 'prompts'
              : 'resources';
        if (this.#client !== client) return;
        this.#registrations
          .sync(client, kind, false)
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
}
