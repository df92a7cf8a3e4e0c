import { JsonRpcPeer, type Transport } from '@mcpkit/jsonrpc-core';
import { PostMessageTransport } from '../post-message-transport';
import {
  type AppCapabilities,
  type AppContentBlock,
  type AppImplementation,
  type AppInitializeResult,
  AppMethods,
  type AppToolResult,
  type DisplayMode,
  type HostCapabilities,
  type HostContext,
  LATEST_APPS_PROTOCOL_VERSION,
} from '../spec';

/** Options of `AppView`. */
export interface AppViewOptions {
  /** What the view supports (`appCapabilities` of `ui/initialize`), such as `availableDisplayModes`. */
  capabilities?: AppCapabilities;
  /** Report the document's size to the host (`ui/notifications/size-changed`) whenever it changes. Default `true`. */
  autoResize?: boolean;
  /** The channel to the host. Default: `postMessage` to `window.parent`, accepting messages from it only. */
  transport?: Transport;
  /** How long a request to the host may take, in milliseconds. Default 60 000. */
  requestTimeoutMs?: number;
}

/** A log message for the host (`notifications/message`). */
export interface AppLogMessage {
  level: 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';
  data: unknown;
  logger?: string;
}

/**
 * The view side of MCP Apps: runs in the sandboxed iframe, talks to the host over `postMessage` (JSON-RPC), receives
 * the tool's input and result, and asks the host for what the sandbox forbids (calling server tools, reading
 * resources, opening links, writing to the chat). Set the handlers before `connect()`: the host sends the tool
 * input right after the handshake.
 *
 * @example
 * ```ts
 * const view = new AppView({ name: 'sales-chart', version: '1.0.0' });
 * view.ontoolresult = (result) => draw(result.structuredContent);
 * view.onhostcontextchanged = (context) => document.body.classList.toggle('dark', context.theme === 'dark');
 * await view.connect();
 * button.onclick = async () => draw((await view.callServerTool({ name: 'refresh' })).structuredContent);
 * ```
 */
export class AppView {
  /** `ui/notifications/tool-input`: the complete arguments of the tool call this view renders. */
  ontoolinput?: (params: { arguments: Record<string, unknown> }) => void;
  /** `ui/notifications/tool-input-partial`: best-effort arguments while the model still streams them. */
  ontoolinputpartial?: (params: { arguments: Record<string, unknown> }) => void;
  /** `ui/notifications/tool-result`: the tool's result. */
  ontoolresult?: (result: AppToolResult) => void;
  /** `ui/notifications/tool-cancelled`: the call was cancelled. */
  ontoolcancelled?: (params: { reason?: string }) => void;
  /** `ui/notifications/host-context-changed`: the changed fields (already merged into `hostContext`). */
  onhostcontextchanged?: (changed: Partial<HostContext>) => void;
  /** `ui/resource-teardown`: save what must be saved; the host waits (a bounded time) for this to settle. */
  onteardown?: (params: { reason?: string }) => void | Promise<void>;

  readonly #info: AppImplementation;
  readonly #options: AppViewOptions;
  readonly #peer: JsonRpcPeer;
  #result: AppInitializeResult | undefined;
  #stopResize: (() => void) | undefined;
  #lastSize = '';

  constructor(info: AppImplementation, options: AppViewOptions = {}) {
    this.#info = info;
    this.#options = options;
    this.#peer = new JsonRpcPeer({ defaultTimeoutMs: options.requestTimeoutMs ?? 60_000 });
    const on = (method: string, handler: (params: never) => void) =>
      this.#peer.setNotificationHandler(method, (params) => handler((params ?? {}) as never));
    on(AppMethods.toolInput, (params: { arguments: Record<string, unknown> }) => this.ontoolinput?.(params));
    on(AppMethods.toolInputPartial, (params: { arguments: Record<string, unknown> }) =>
      this.ontoolinputpartial?.(params),
    );
    on(AppMethods.toolResult, (params: AppToolResult) => this.ontoolresult?.(params));
    on(AppMethods.toolCancelled, (params: { reason?: string }) => this.ontoolcancelled?.(params));
    on(AppMethods.hostContextChanged, (changed: Partial<HostContext>) => {
      if (this.#result !== undefined) this.#result.hostContext = { ...this.#result.hostContext, ...changed };
      this.onhostcontextchanged?.(changed);
    });
    this.#peer.setRequestHandler(AppMethods.resourceTeardown, async (params) => {
      await this.onteardown?.((params ?? {}) as { reason?: string });
      this.#stopResize?.();
      return {};
    });
    this.#peer.setRequestHandler('ping', () => ({}));
  }

  /** The host's context (theme, display mode, locale, container dimensions, styles…), kept up to date. */
  get hostContext(): HostContext | undefined {
    return this.#result?.hostContext;
  }

  /** What the host offers (`openLinks`, `serverTools`, `serverResources`, `logging`…). */
  get hostCapabilities(): HostCapabilities | undefined {
    return this.#result?.hostCapabilities;
  }

  /** The host's name and version. */
  get hostInfo(): AppImplementation | undefined {
    return this.#result?.hostInfo;
  }

  /**
   * Connects to the host: `ui/initialize`, then `ui/notifications/initialized`, then size reporting (unless
   * `autoResize: false`). Resolves to the host's answer.
   */
  async connect(): Promise<AppInitializeResult> {
    const transport =
      this.#options.transport ?? new PostMessageTransport({ target: window.parent, expectedSource: window.parent });
    await this.#peer.connect(transport);
    const result = await this.#peer.request<AppInitializeResult>(AppMethods.initialize, {
      protocolVersion: LATEST_APPS_PROTOCOL_VERSION,
      appInfo: this.#info,
      appCapabilities: this.#options.capabilities ?? {},
    });
    this.#result = { ...result, hostContext: result.hostContext ?? {} };
    await this.#peer.notify(AppMethods.initialized, {});
    if (this.#options.autoResize !== false && typeof ResizeObserver === 'function') this.#startResize();
    return this.#result;
  }

  /**
   * Calls a tool of the server this view came from, through the host (which refuses tools not visible to apps).
   *
   * @example
   * ```ts
   * const result = await view.callServerTool({ name: 'save_order', arguments: { qty: 2 } });
   * ```
   */
  callServerTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<AppToolResult> {
    return this.#peer.request('tools/call', params);
  }

  /** Reads a resource of the server, through the host. */
  readResource(params: { uri: string }): Promise<{ contents: Array<Record<string, unknown>> }> {
    return this.#peer.request('resources/read', params);
  }

  /** Lists the server's resources, through the host. */
  listResources(params: { cursor?: string } = {}): Promise<{ resources: Array<Record<string, unknown>> }> {
    return this.#peer.request('resources/list', params);
  }

  /** Asks the host to open a URL (the sandbox cannot). Rejects when the host refuses. */
  async openLink(params: { url: string }): Promise<void> {
    await this.#peer.request(AppMethods.openLink, params);
  }

  /** Writes a message into the conversation, as the user. */
  async sendMessage(params: { role: 'user'; content: AppContentBlock | AppContentBlock[] }): Promise<void> {
    await this.#peer.request(AppMethods.message, params);
  }

  /** Replaces what the view tells the model in later turns. */
  async updateModelContext(params: {
    content?: AppContentBlock[];
    structuredContent?: Record<string, unknown>;
  }): Promise<void> {
    await this.#peer.request(AppMethods.updateModelContext, params);
  }

  /** Asks for another display mode; resolves to the mode the host actually set. */
  async requestDisplayMode(params: { mode: DisplayMode }): Promise<DisplayMode> {
    return (await this.#peer.request<{ mode: DisplayMode }>(AppMethods.requestDisplayMode, params)).mode;
  }

  /** Sends a log message to the host (`notifications/message`). */
  sendLog(params: AppLogMessage): Promise<void> {
    return this.#peer.notify('notifications/message', params as unknown as Record<string, unknown>);
  }

  /** Tells the host the view's size (done for you unless `autoResize: false`). */
  sendSizeChanged(params: { width: number; height: number }): Promise<void> {
    return this.#peer.notify(AppMethods.sizeChanged, params);
  }

  /** Checks the host answers. */
  async ping(): Promise<void> {
    await this.#peer.request('ping');
  }

  /** Stops size reporting and closes the channel. */
  async close(): Promise<void> {
    this.#stopResize?.();
    await this.#peer.close();
  }

  #startResize(): void {
    let scheduled = false;
    const measure = () => {
      scheduled = false;
      const html = document.documentElement;
      // The document's own height, not the iframe's: with height:max-content the content decides, so a view can shrink.
      const previous = html.style.height;
      html.style.height = 'max-content';
      const height = Math.ceil(html.getBoundingClientRect().height);
      html.style.height = previous;
      const width = Math.ceil(html.scrollWidth);
      const size = `${width}x${height}`;
      if (size === this.#lastSize || !this.#peer.connected) return;
      this.#lastSize = size;
      this.sendSizeChanged({ width, height }).catch(() => undefined);
    };
    const observer = new ResizeObserver(() => {
      if (scheduled) return;
      scheduled = true;
      requestAnimationFrame(measure);
    });
    observer.observe(document.documentElement);
    if (document.body) observer.observe(document.body);
    this.#stopResize = () => observer.disconnect();
  }
}
