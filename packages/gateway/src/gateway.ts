import type { Client } from '@mcpkit/client';
import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import type { McpServer, ServerContext, ServerMiddleware, ServerRequestContext } from '@mcpkit/server';
import type { TaskServerOptions, TasksServer, TaskToolOptions } from '@mcpkit/tasks';
import { tasks } from '@mcpkit/tasks/server';
import { GatewayError } from './gateway-error';
import { Mount } from './mount';
import type { MountOptions, UpstreamConnection } from './mount-options';

/** Options of `new Gateway(server, options)`. */
export interface GatewayOptions {
  /** Between a mount's namespace and an upstream name. Default `_` (`weather_forecast`). */
  separator?: string;
  /** Receives what the gateway skipped or lost (an item it could not register, an upstream that went down). */
  onWarning?: (message: string, data: Record<string, unknown>) => void;
  /**
   * Tasks: the gateway installs `@mcpkit/tasks` on the server (`server.extend(tasks(options))`) so that a task on an
   * upstream is a task downstream, in either era on either side. These are its options (`store`, `identity`, TTLs…;
   * `recover` defaults to `false`: a task the gateway followed cannot be followed again after a restart). `false`: no
   * tasks (calls to task tools cross inline, as a client without tasks would make them). Default `{}`.
   */
  tasks?: TaskServerOptions | false;
}

/** Resource-not-found in either era: -32002 before 2026-07-28, -32602 in it. */
const NOT_FOUND_CODES = new Set([-32002, -32602]);

/**
 * Mounts other MCP servers into one `McpServer`: each upstream's tools and prompts appear as
 * `<namespace>_<name>`, its resources and templates under `<namespace>+<uri>`, and every request on them is forwarded
 * with progress, cancellation, logging, list changes, subscriptions, completions and questions to the user crossing
 * both ways, whatever era each side speaks. Built only on the server's public seams (`use`, the registries), so a
 * server without a gateway carries none of it.
 *
 * @example
 * const server = new McpServer({ name: 'front', version: '1.0.0' });
 * const gateway = new Gateway(server);
 * await gateway.mount('weather', { transport: () => new StreamableHttpClientTransport(new URL('http://127.0.0.1:3001/mcp')) });
 * await gateway.mount('files', connectedClient, { tools: { deny: ['delete_*'] } });
 * // tools/list now shows weather_forecast, files_read, …
 */
export class Gateway {
  readonly server: McpServer;
  readonly #options: GatewayOptions;
  readonly #mounts = new Map<string, Mount>();
  /** Downstream tool and prompt names taken by mounts, with who took them. */
  readonly #owners = { tool: new Map<string, Mount>(), prompt: new Map<string, Mount>() };
  /** The gateway's tasks (downstream), if it crosses them. */
  readonly tasks: TasksServer | undefined;
  /** The tools whose handler decides whether a call becomes a task (the `TasksServer` reads this object). */
  readonly #taskTools: Record<string, TaskToolOptions> = {};

  constructor(server: McpServer, options: GatewayOptions = {}) {
    this.server = server;
    this.#options = options;
    server.use((ctx, next) => this.#route(ctx, next));
    if (options.tasks !== false) {
      const taskOptions = options.tasks ?? {};
      Object.assign(this.#taskTools, taskOptions.tools);
      this.tasks = server.extend(tasks({ recover: false, ...taskOptions, tools: this.#taskTools }));
    }
  }

  /** The mounts, by namespace. */
  get mounts(): ReadonlyMap<string, Mount> {
    return this.#mounts;
  }

  /**
   * Mounts `upstream` under `namespace` ('' passes names and URIs through). `upstream` is a connected `Client` (the
   * gateway uses it as it is and never closes it) or an `UpstreamConnection` the gateway opens, reconnects with
   * backoff and closes. Resolves once the first attempt settled: an upstream that is down at start leaves the mount
   * `down` and reconnecting (see `mount.ready`); a name two mounts would share is refused with `ERR_NAME_COLLISION`.
   *
   * @example
   * const files = await gateway.mount('files', { transport: () => new StdioClientTransport({ command: 'files-server' }) }, {
   *   tools: { allow: ['read_*'] },
   *   rename: { tools: { read_file: 'cat' } },
   *   use: async (ctx, next) => { console.error('files:', ctx.method); return next(); },
   * });
   */
  async mount(namespace: string, upstream: Client | UpstreamConnection, options: MountOptions = {}): Promise<Mount> {
    if (this.#mounts.has(namespace)) {
      throw new GatewayError('ERR_DUPLICATE_MOUNT', `Gateway.mount: the namespace '${namespace}' is already mounted`, {
        namespace,
      });
    }
    const separator = options.separator ?? this.#options.separator ?? '_';
    const mount = new Mount(
      {
        server: this.server,
        claim: (kind, name, owner) => this.#claim(kind, name, owner),
        crossExtension: (id, declaration, methods, owner) => this.#crossExtension(id, declaration, methods, owner),
        release: (kind, name) => this.#owners[kind].delete(name),
        tasks:
          this.tasks === undefined
            ? undefined
            : {
                server: this.tasks,
                startsInHandler: (name, on) => {
                  if (on) this.#taskTools[name] = { ...this.#taskTools[name], start: 'handler' };
                  else delete this.#taskTools[name];
                },
              },
        warn: (message, data) => (this.#options.onWarning ?? console.warn)(message, data),
      },
      namespace,
      upstream,
      { ...options, separator },
    );
    for (const other of this.#mounts.values()) {
      if (other.names.uriPrefix === mount.names.uriPrefix && mount.names.uriPrefix !== '') {
        throw new GatewayError(
          'ERR_NAME_COLLISION',
          `Gateway.mount: mount '${namespace}' would put its resources under '${mount.names.uriPrefix}', like mount '${other.namespace}'; pass options.uriPrefix`,
          { mount: namespace, other: other.namespace, uriPrefix: mount.names.uriPrefix },
        );
      }
    }
    // Declared up front: a legacy client reads capabilities once, and an upstream down now may list tools later.
    this.server.server.registerCapabilities({
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
    });
    this.#mounts.set(namespace, mount);
    try {
      await mount.start();
    } catch (error) {
      this.#mounts.delete(namespace);
      throw error;
    }
    return mount;
  }

  /** Unmounts one namespace: its items go (one `list_changed`) and an owned upstream is closed. */
  async unmount(namespace: string): Promise<void> {
    const mount = this.#mounts.get(namespace);
    if (mount === undefined) return;
    this.#mounts.delete(namespace);
    await mount.close();
  }

  /** Closes every mount and stops the tasks it runs (not the server). */
  async close(): Promise<void> {
    const mounts = [...this.#mounts.values()];
    this.#mounts.clear();
    await Promise.allSettled([...mounts.map((mount) => mount.close()), this.tasks?.close()]);
  }

  /** Extensions crossed so far, by id, with the mount whose upstream answers them. */
  readonly #extensions = new Map<string, Mount>();

  #crossExtension(id: string, declaration: Record<string, unknown>, methods: readonly string[], owner: Mount): void {
    const taken = this.#extensions.get(id);
    if (taken !== undefined) {
      // The same mount reconnecting keeps what it registered; a second mount cannot answer the same methods.
      if (taken !== owner) {
        (this.#options.onWarning ?? console.warn)(
          `Gateway: mount '${owner.namespace}' declares the extension '${id}', which mount '${taken.namespace}' already crosses; it is not crossed again`,
          { mount: owner.namespace, other: taken.namespace, extension: id },
        );
      }
      return;
    }
    this.#extensions.set(id, owner);
    const forwarded: Record<string, (params: unknown, ctx: ServerRequestContext) => Promise<unknown>> = {};
    for (const method of methods) {
      forwarded[method] = (params, ctx) => owner.forward(ctx, method, (params ?? {}) as Record<string, unknown>);
    }
    this.server.extend({ id, declaration, methods: forwarded });
  }

  #claim(kind: 'tool' | 'prompt', name: string, owner: Mount): void {
    const taken = this.#owners[kind].get(name);
    if (taken !== undefined) {
      throw new GatewayError(
        'ERR_NAME_COLLISION',
        `Gateway: mount '${owner.namespace}' would expose the ${kind} '${name}', which mount '${taken.namespace}' already exposes; rename one (options.rename) or filter it out`,
        { kind, name, mount: owner.namespace, other: taken.namespace },
      );
    }
    this.#owners[kind].set(name, owner);
  }

  /** The mount that owns a downstream URI: the longest non-empty prefix first, then an unnamespaced mount. */
  #mountOfUri(uri: string): { mount: Mount; upstream: string } | undefined {
    let found: { mount: Mount; upstream: string } | undefined;
    for (const mount of this.#mounts.values()) {
      const prefix = mount.names.uriPrefix;
      if (prefix === '' || !uri.startsWith(prefix)) continue;
      if (found === undefined || prefix.length > found.mount.names.uriPrefix.length) {
        found = { mount, upstream: uri.slice(prefix.length) };
      }
    }
    return found;
  }

  #unprefixedMounts(): Mount[] {
    return [...this.#mounts.values()].filter((mount) => mount.names.uriPrefix === '');
  }

  /** Which mount a request is for, and what it needs done there instead of (or around) the server's own handler. */
  #route(ctx: ServerContext, next: () => Promise<unknown>): Promise<unknown> {
    if (ctx.kind !== 'request' || this.#mounts.size === 0) return next();
    const params = (ctx.params ?? {}) as Record<string, unknown>;
    switch (ctx.method) {
      case 'tools/call':
      case 'prompts/get': {
        const kind = ctx.method === 'tools/call' ? 'tool' : 'prompt';
        const mount = typeof params.name === 'string' ? this.#owners[kind].get(params.name) : undefined;
        // The registry's handler forwards the call; only a mount's own middleware has to run around it here.
        return mount === undefined || mount.middleware.length === 0 ? next() : this.#within(mount, ctx, next);
      }
      case 'resources/read': {
        const uri = typeof params.uri === 'string' ? params.uri : undefined;
        if (uri === undefined) return next();
        const target = this.#mountOfUri(uri);
        if (target !== undefined) return this.#within(target.mount, ctx, () => target.mount.read(ctx, target.upstream));
        return this.#readUnprefixed(ctx, uri, next);
      }
      case 'completion/complete':
        return this.#complete(ctx, params, next);
      case 'resources/subscribe': {
        const uri = typeof params.uri === 'string' ? params.uri : undefined;
        return this.#subscribed(uri === undefined ? [] : [uri]).then(next);
      }
      case 'subscriptions/listen': {
        const filter = params.notifications as { resourceSubscriptions?: unknown } | undefined;
        const uris = Array.isArray(filter?.resourceSubscriptions)
          ? filter.resourceSubscriptions.filter((uri): uri is string => typeof uri === 'string')
          : [];
        return this.#subscribed(uris).then(next);
      }
      default:
        return next();
    }
  }

  /** Runs a mount's own middleware around `inner`. */
  #within(mount: Mount, ctx: ServerContext, inner: () => Promise<unknown>): Promise<unknown> {
    const chain = mount.middleware;
    if (chain.length === 0) return inner();
    const run = (index: number): Promise<unknown> =>
      index === chain.length ? inner() : Promise.resolve((chain[index] as ServerMiddleware)(ctx, () => run(index + 1)));
    return run(0);
  }

  /**
   * A URI of no prefixed mount: the server's own resources (and an unnamespaced mount's listed ones) answer first; a
   * not-found goes to the unnamespaced mounts, whose URIs are their upstream's own (listed or not).
   */
  async #readUnprefixed(ctx: ServerRequestContext, uri: string, next: () => Promise<unknown>): Promise<unknown> {
    const mounts = this.#unprefixedMounts().filter((mount) => mount.status === 'up');
    try {
      return await next();
    } catch (error) {
      if (mounts.length === 0 || !JsonRpcError.is(error) || !NOT_FOUND_CODES.has(error.code)) throw error;
      let last: unknown = error;
      for (const mount of mounts) {
        try {
          return await this.#within(mount, ctx, () => mount.read(ctx, uri));
        } catch (failure) {
          last = failure;
        }
      }
      throw last;
    }
  }

  async #complete(ctx: ServerRequestContext, params: Record<string, unknown>, next: () => Promise<unknown>) {
    const ref = params.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
    if (ref?.type === 'ref/prompt' && typeof ref.name === 'string') {
      const mount = this.#owners.prompt.get(ref.name);
      const upstreamName = mount?.upstreamName('prompt', ref.name);
      if (mount !== undefined && upstreamName !== undefined) {
        return this.#within(mount, ctx, () =>
          mount.forward(ctx, 'completion/complete', { ...params, ref: { ...ref, name: upstreamName } }),
        );
      }
    } else if (ref?.type === 'ref/resource' && typeof ref.uri === 'string') {
      for (const mount of this.#mounts.values()) {
        if (!mount.hasTemplate(ref.uri)) continue;
        const upstreamUri = mount.names.upstreamUri(ref.uri) ?? ref.uri;
        return this.#within(mount, ctx, () =>
          mount.forward(ctx, 'completion/complete', { ...params, ref: { ...ref, uri: upstreamUri } }),
        );
      }
    }
    return next();
  }

  /** Asks the upstreams behind `uris` to report their changes, so the server can pass them on to its subscribers. */
  async #subscribed(uris: readonly string[]): Promise<void> {
    for (const uri of uris) {
      const target = this.#mountOfUri(uri);
      const owners =
        target !== undefined
          ? [{ mount: target.mount, upstream: target.upstream }]
          : this.#unprefixedMounts().map((mount) => ({ mount, upstream: uri }));
      for (const { mount, upstream } of owners) {
        await mount.subscribe(upstream).catch((error) =>
          (this.#options.onWarning ?? console.warn)(
            `mount '${mount.namespace}': could not subscribe upstream to ${upstream}`,
            {
              mount: mount.namespace,
              error: String(error),
            },
          ),
        );
      }
    }
  }
}
