import { JsonRpcError, JsonRpcPeer, type Transport } from '@mcpkit/jsonrpc-core';
import { AppsError } from '../apps-error';
import {
  APPS_PROTOCOL_VERSIONS,
  type AppCapabilities,
  type AppImplementation,
  type AppInitializeParams,
  type AppInitializeResult,
  AppMethods,
  type AppToolResult,
  type DisplayMode,
  type HostCapabilities,
  type HostContext,
} from '../spec';
import { type ToolWithMeta, visibilityOf, visibleToApp } from '../visibility';

/**
 * The server connection a bridge proxies the view's requests to. An `@mcpkit/client` `Client` (or `LeanClient`) is
 * one as it is; the bridge needs nothing else of it.
 */
export interface AppServerConnection {
  listAllTools(): Promise<ToolWithMeta[]>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  readResource(params: { uri: string }): Promise<unknown>;
  listResources(params?: { cursor?: string }): Promise<unknown>;
}

/** Options of `AppBridge`. */
export interface AppBridgeOptions {
  /** The server connection the view's `tools/call`, `resources/read` and `resources/list` go to. */
  client: AppServerConnection;
  /** The host's name and version (`hostInfo`). */
  hostInfo: AppImplementation;
  /** The host's context sent in the handshake (theme, display mode, locale, container dimensions, styles…). */
  hostContext?: HostContext;
  /** Opens a link the view asks for. Without it the host refuses `ui/open-link` (and does not offer `openLinks`). */
  onopenlink?: (url: string) => void | Promise<void>;
  /** A message the view writes into the conversation (`ui/message`). Without it the host refuses them. */
  onmessage?: (params: { role: string; content: unknown }) => void | Promise<void>;
  /** The view's context for the model (`ui/update-model-context`), replacing the previous one. Without it: refused. */
  onupdatemodelcontext?: (params: {
    content?: unknown[];
    structuredContent?: Record<string, unknown>;
  }) => void | Promise<void>;
  /** Decides a display mode request; returns the mode now in effect. Default: keep the current mode. */
  onrequestdisplaymode?: (mode: DisplayMode, current: DisplayMode) => DisplayMode | Promise<DisplayMode>;
  /** The view's size changed (`ui/notifications/size-changed`); resize the iframe. */
  onsizechange?: (size: { width?: number; height?: number }) => void;
  /** A log message of the view (`notifications/message`). */
  onlog?: (params: { level: string; data: unknown; logger?: string }) => void;
  /** The view finished its handshake (`ui/notifications/initialized`). */
  oninitialized?: (app: { appInfo: AppImplementation; appCapabilities: AppCapabilities }) => void;
  /** A problem that has no caller: a malformed message from the view, a notification the bridge dropped. */
  onerror?: (error: Error) => void;
  /**
   * The sandbox the host applied (`hostCapabilities.sandbox`: the CSP origins and permissions it granted), so the view
   * can tell what it may use. `mountAppView` fills it from the view's metadata.
   */
  sandbox?: HostCapabilities['sandbox'];
  /** How long `teardown` waits for the view's answer to `ui/resource-teardown`, in milliseconds. Default 3 000. */
  teardownTimeoutMs?: number;
  /** How long a request to the view may take, in milliseconds. Default 30 000. */
  requestTimeoutMs?: number;
}

const LOG_LEVELS = new Set(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']);
const DISPLAY_MODES = new Set<string>(['inline', 'fullscreen', 'pip']);

function record(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(method: string, what: string, params: unknown): JsonRpcError {
  return JsonRpcError.invalidParams(`${method}: ${what}`, { method, params });
}

/**
 * The host side of MCP Apps for one view: answers the view's `ui/initialize` with the host's info, capabilities and
 * context, sends it the tool's input and result, and serves its requests — `tools/call`, `resources/read`,
 * `resources/list` proxied to the server through `client` (only tools whose visibility includes `"app"`), `ping`,
 * `notifications/message`, `ui/open-link`, `ui/message`, `ui/update-model-context`, `ui/request-display-mode`,
 * `ui/notifications/size-changed`. Every message is checked: a malformed one is answered with a JSON-RPC error (or,
 * for a notification, dropped and reported to `onerror`); nothing the view sends can throw in the host. Nothing is
 * sent to the view before its `ui/notifications/initialized`. `teardown` waits a bounded time for the view.
 *
 * Use `mountAppView` (which builds the sandboxed iframe and its transport) unless you render the iframe yourself.
 *
 * @example
 * ```ts
 * const bridge = new AppBridge({ client, hostInfo: { name: 'my-host', version: '1.0.0' }, onopenlink: (url) => window.open(url) });
 * await bridge.connect(new PostMessageTransport({ target: iframe.contentWindow!, targetOrigin: sandboxOrigin }));
 * await bridge.initialized;
 * await bridge.sendToolInput(args);
 * await bridge.sendToolResult(await client.callTool({ name, arguments: args }));
 * ```
 */
export class AppBridge {
  /** Settles when the view sent `ui/notifications/initialized`. */
  readonly initialized: Promise<void>;
  readonly #options: AppBridgeOptions;
  readonly #peer: JsonRpcPeer;
  #context: HostContext;
  #app: { appInfo: AppImplementation; appCapabilities: AppCapabilities } | undefined;
  #isInitialized = false;
  #markInitialized!: () => void;
  #tools: Map<string, ToolWithMeta> | undefined;
  #closed = false;
  #onsandboxready: (() => void) | undefined;

  constructor(options: AppBridgeOptions) {
    this.#options = options;
    this.#context = { displayMode: 'inline', availableDisplayModes: ['inline'], ...options.hostContext };
    this.initialized = new Promise((resolve) => {
      this.#markInitialized = resolve;
    });
    this.#peer = new JsonRpcPeer({
      defaultTimeoutMs: options.requestTimeoutMs ?? 30_000,
      onError: (error) => this.#report(error),
    });
    const peer = this.#peer;
    peer.setRequestHandler(AppMethods.initialize, (params) => this.#initialize(params));
    peer.setNotificationHandler(AppMethods.initialized, () => {
      if (this.#app === undefined || this.#isInitialized) {
        this.#report(new Error('AppBridge: ui/notifications/initialized before ui/initialize, or twice; ignored'));
        return;
      }
      this.#isInitialized = true;
      this.#markInitialized();
      options.oninitialized?.(this.#app);
    });
    peer.setNotificationHandler(AppMethods.sandboxProxyReady, () => this.#onsandboxready?.());
    peer.setRequestHandler('ping', () => ({}));
    peer.setRequestHandler('tools/call', (params) => this.#callTool(params));
    peer.setRequestHandler('resources/read', (params) => {
      if (!record(params) || typeof params.uri !== 'string')
        throw invalid('resources/read', 'params.uri must be a string', params);
      return options.client.readResource({ uri: params.uri });
    });
    peer.setRequestHandler('resources/list', (params) => {
      if (
        params !== undefined &&
        (!record(params) || (params.cursor !== undefined && typeof params.cursor !== 'string'))
      ) {
        throw invalid('resources/list', 'params.cursor must be a string when given', params);
      }
      return options.client.listResources(params?.cursor === undefined ? {} : { cursor: params.cursor as string });
    });
    peer.setRequestHandler(AppMethods.openLink, async (params) => {
      if (!record(params) || typeof params.url !== 'string')
        throw invalid(AppMethods.openLink, 'params.url must be a string', params);
      let url: URL;
      try {
        url = new URL(params.url);
      } catch {
        throw invalid(AppMethods.openLink, `${JSON.stringify(params.url)} is not a URL`, params);
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:' && url.protocol !== 'mailto:') {
        throw new JsonRpcError(
          -32000,
          `ui/open-link: ${url.protocol} links are not opened (http, https and mailto are)`,
          { url: params.url },
        );
      }
      if (options.onopenlink === undefined)
        throw new JsonRpcError(-32000, 'ui/open-link: this host does not open links');
      await options.onopenlink(url.href);
      return {};
    });
    peer.setRequestHandler(AppMethods.message, async (params) => {
      if (!record(params) || params.role !== 'user' || (!record(params.content) && !Array.isArray(params.content))) {
        throw invalid(AppMethods.message, 'params must be { role: "user", content }', params);
      }
      if (options.onmessage === undefined)
        throw new JsonRpcError(-32000, 'ui/message: this host does not take messages from views');
      await options.onmessage({ role: params.role, content: params.content });
      return {};
    });
    peer.setRequestHandler(AppMethods.updateModelContext, async (params) => {
      if (
        !record(params) ||
        (params.content !== undefined && !Array.isArray(params.content)) ||
        (params.structuredContent !== undefined && !record(params.structuredContent))
      ) {
        throw invalid(
          AppMethods.updateModelContext,
          'params must be { content?: ContentBlock[], structuredContent?: object }',
          params,
        );
      }
      if (options.onupdatemodelcontext === undefined) {
        throw new JsonRpcError(-32000, 'ui/update-model-context: this host does not take model context from views');
      }
      await options.onupdatemodelcontext(
        params as { content?: unknown[]; structuredContent?: Record<string, unknown> },
      );
      return {};
    });
    peer.setRequestHandler(AppMethods.requestDisplayMode, async (params) => {
      if (!record(params) || typeof params.mode !== 'string' || !DISPLAY_MODES.has(params.mode)) {
        throw invalid(AppMethods.requestDisplayMode, 'params.mode must be "inline", "fullscreen" or "pip"', params);
      }
      const current = this.#context.displayMode ?? 'inline';
      const requested = params.mode as DisplayMode;
      // The spec: never a mode the view did not declare, nor one the host does not offer.
      const viewModes = this.#app?.appCapabilities.availableDisplayModes;
      const allowed =
        (this.#context.availableDisplayModes ?? ['inline']).includes(requested) &&
        (viewModes === undefined || viewModes.includes(requested));
      const mode =
        allowed && options.onrequestdisplaymode ? await options.onrequestdisplaymode(requested, current) : current;
      if (mode !== current) this.#context = { ...this.#context, displayMode: mode };
      return { mode };
    });
    peer.setNotificationHandler(AppMethods.sizeChanged, (params) => {
      const size = record(params) ? params : {};
      const ok = (value: unknown) =>
        value === undefined || (typeof value === 'number' && Number.isFinite(value) && value >= 0);
      if (!record(params) || !ok(size.width) || !ok(size.height)) {
        this.#report(
          new Error(`AppBridge: dropped ui/notifications/size-changed with params ${JSON.stringify(params)}`),
        );
        return;
      }
      options.onsizechange?.({ width: size.width as number | undefined, height: size.height as number | undefined });
    });
    peer.setNotificationHandler('notifications/message', (params) => {
      if (!record(params) || typeof params.level !== 'string' || !LOG_LEVELS.has(params.level)) {
        this.#report(new Error(`AppBridge: dropped notifications/message with params ${JSON.stringify(params)}`));
        return;
      }
      options.onlog?.(params as { level: string; data: unknown; logger?: string });
    });
  }

  /** The view's name, version and capabilities, once it sent `ui/initialize`. */
  get app(): { appInfo: AppImplementation; appCapabilities: AppCapabilities } | undefined {
    return this.#app;
  }

  /** The host context as the view knows it. */
  get hostContext(): HostContext {
    return this.#context;
  }

  /** The capabilities this host offers the view, from the options given. */
  get hostCapabilities(): HostCapabilities {
    const options = this.#options;
    return {
      serverTools: {},
      serverResources: {},
      logging: {},
      ...(options.onopenlink && { openLinks: {} }),
      ...(options.onmessage && { message: {} }),
      ...(options.onupdatemodelcontext && { updateModelContext: {} }),
      ...(options.sandbox !== undefined && { sandbox: options.sandbox }),
    };
  }

  /** Starts serving the view over `transport` (a `PostMessageTransport` to the iframe, usually). */
  connect(transport: Transport): Promise<void> {
    return this.#peer.connect(transport);
  }

  /** Calls `listener` when the sandbox proxy says it is ready (`ui/notifications/sandbox-proxy-ready`). */
  onsandboxready(listener: () => void): void {
    this.#onsandboxready = listener;
  }

  /**
   * `ui/notifications/sandbox-resource-ready`: hands the sandbox proxy the view's HTML, CSP and permissions. The only
   * message sent before the view's handshake: it is for the proxy, which does not forward it.
   */
  sendSandboxResourceReady(params: {
    html: string;
    csp?: object;
    permissions?: object;
    sandbox?: string;
  }): Promise<void> {
    return this.#peer.notify(AppMethods.sandboxResourceReady, params as Record<string, unknown>);
  }

  /** `ui/notifications/tool-input-partial`: arguments while they stream. */
  sendToolInputPartial(args: Record<string, unknown>): Promise<void> {
    return this.#notify(AppMethods.toolInputPartial, { arguments: args });
  }

  /** `ui/notifications/tool-input`: the complete arguments (once, before the result). */
  sendToolInput(args: Record<string, unknown>): Promise<void> {
    return this.#notify(AppMethods.toolInput, { arguments: args });
  }

  /** `ui/notifications/tool-result`: the tool's result. */
  sendToolResult(result: AppToolResult): Promise<void> {
    return this.#notify(AppMethods.toolResult, result as unknown as Record<string, unknown>);
  }

  /** `ui/notifications/tool-cancelled`. */
  sendToolCancelled(reason?: string): Promise<void> {
    return this.#notify(AppMethods.toolCancelled, reason === undefined ? {} : { reason });
  }

  /** Changes the host context and tells the view the changed fields (`ui/notifications/host-context-changed`). */
  setHostContext(changed: Partial<HostContext>): Promise<void> {
    this.#context = { ...this.#context, ...changed };
    return this.#isInitialized ? this.#notify(AppMethods.hostContextChanged, changed) : Promise.resolve();
  }

  /**
   * Tears the view down: sends `ui/resource-teardown` and waits for the answer, at most `teardownTimeoutMs`, then
   * closes the channel whatever happened. Resolves to how the view took it.
   *
   * @example
   * ```ts
   * const outcome = await bridge.teardown('the user closed the panel'); // 'answered' | 'timeout' | 'error' | 'not-initialized'
   * iframe.remove();
   * ```
   */
  async teardown(reason = 'closed by the host'): Promise<'answered' | 'timeout' | 'error' | 'not-initialized'> {
    if (this.#closed) return 'error';
    let outcome: 'answered' | 'timeout' | 'error' | 'not-initialized' = 'not-initialized';
    if (this.#isInitialized && this.#peer.connected) {
      const timeoutMs = this.#options.teardownTimeoutMs ?? 3_000;
      outcome = await this.#peer
        .request(AppMethods.resourceTeardown, { reason }, { timeoutMs, maxTotalTimeoutMs: timeoutMs })
        .then(
          () => 'answered' as const,
          (error: unknown) => ((error as { name?: string })?.name === 'RequestTimeoutError' ? 'timeout' : 'error'),
        );
    }
    await this.close();
    return outcome;
  }

  /** Closes the channel to the view at once (no teardown request). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#peer.close();
  }

  #initialize(params: unknown): AppInitializeResult {
    if (
      !record(params) ||
      !record(params.appInfo) ||
      typeof params.appInfo.name !== 'string' ||
      typeof params.protocolVersion !== 'string'
    ) {
      throw invalid(
        AppMethods.initialize,
        'params must hold protocolVersion, appInfo { name, version } and appCapabilities',
        params,
      );
    }
    const init = params as unknown as AppInitializeParams;
    const caps = record(init.appCapabilities) ? init.appCapabilities : {};
    this.#app = { appInfo: init.appInfo, appCapabilities: caps };
    const supported = (APPS_PROTOCOL_VERSIONS as readonly string[]).includes(init.protocolVersion);
    return {
      protocolVersion: supported ? init.protocolVersion : APPS_PROTOCOL_VERSIONS[0],
      hostInfo: this.#options.hostInfo,
      hostCapabilities: this.hostCapabilities,
      hostContext: this.#context,
    };
  }

  async #callTool(params: unknown): Promise<unknown> {
    if (
      !record(params) ||
      typeof params.name !== 'string' ||
      (params.arguments !== undefined && !record(params.arguments))
    ) {
      throw invalid('tools/call', 'params must be { name: string, arguments?: object }', params);
    }
    const name = params.name;
    let tool = this.#tools?.get(name);
    if (tool === undefined) {
      // Listed once, again when a name is unknown (the server's tools may have changed since).
      this.#tools = new Map((await this.#options.client.listAllTools()).map((entry) => [entry.name ?? '', entry]));
      tool = this.#tools.get(name);
    }
    if (tool === undefined) throw invalid('tools/call', `the server has no tool '${name}'`, params);
    if (!visibleToApp(tool)) {
      throw new JsonRpcError(
        -32000,
        `tools/call: tool '${name}' has visibility ${JSON.stringify(visibilityOf(tool))}, which does not include "app": a view may not call it`,
        { tool: name, visibility: visibilityOf(tool) },
      );
    }
    return this.#options.client.callTool({
      name,
      ...(params.arguments !== undefined && { arguments: params.arguments as Record<string, unknown> }),
    });
  }

  #notify(method: string, params: Record<string, unknown>): Promise<void> {
    if (!this.#isInitialized) {
      return Promise.reject(
        new AppsError(
          'ERR_NOT_INITIALIZED',
          `AppBridge: ${method} before the view finished its handshake; await bridge.initialized`,
          { method },
        ),
      );
    }
    return this.#peer.notify(method, params);
  }

  #report(error: Error): void {
    this.#options.onerror?.(error);
  }
}
