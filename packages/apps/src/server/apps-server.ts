import type { ClientCapabilities, Tool } from '@mcpkit/protocol';
import { invalidParamsError } from '@mcpkit/protocol';
import type {
  McpServer,
  RegisteredResource,
  RegisteredTool,
  SchemaInput,
  ServerContext,
  ServerRequestContext,
  ToolConfig,
  ToolHandler,
} from '@mcpkit/server';
import { AppsError } from '../apps-error';
import {
  APP_HTML_MIME_TYPE,
  APPS_EXTENSION_ID,
  type AppResourceUiMeta,
  type AppsClientSettings,
  type AppToolUiMeta,
  DEFAULT_MAX_VIEW_HTML_BYTES,
  LEGACY_RESOURCE_URI_KEY,
  type ToolVisibility,
} from '../spec';
import { utf8Length } from '../utf8-length';
import { visibilityOf, visibleToModel } from '../visibility';
import { checkViewUiMeta, checkViewUri, checkVisibility } from './view-rules';

/** Options of `AppsServer`. */
export interface AppsServerOptions {
  /**
   * What a client that does not declare the extension sees of app-only tools (`visibility: ["app"]`): `'hide'`
   * (default) drops them from `tools/list` and refuses `tools/call` of them, since such a client hands its tools to
   * a model and has no view to honour visibility; `'show'` leaves both to the client. Hosts that declare the extension
   * always get every tool with its `_meta.ui` (the spec makes the host filter for its model).
   */
  appOnlyTools?: 'hide' | 'show';
  /** The largest view HTML accepted, in UTF-8 bytes. Default `DEFAULT_MAX_VIEW_HTML_BYTES` (4 MiB). */
  maxHtmlBytes?: number;
  /** Also write the deprecated flat `_meta["ui/resourceUri"]` on linked tools, for hosts before 2026-01-26. Default `true`. */
  legacyResourceUriKey?: boolean;
}

/** A view: one self-contained HTML document served as a `ui://` resource. */
export interface AppViewConfig extends AppResourceUiMeta {
  /** A name for people. */
  title?: string;
  /** What the view shows. */
  description?: string;
  /** The HTML, or a function that makes it on each `resources/read` (checked against the size limit each time). */
  html: string | ((ctx: ServerRequestContext) => string | Promise<string>);
  /** More `_meta` of the resource (`_meta.ui` is made from the fields above). */
  _meta?: Record<string, unknown>;
}

/** A tool that comes with a view, or that only views may call. */
export interface AppToolConfig<I extends SchemaInput | undefined, O extends SchemaInput | undefined>
  extends ToolConfig<I, O> {
  /** The `ui://` URI of a view registered with `registerView` on this `AppsServer`: it renders the tool's results. */
  view?: string;
  /** Who may see and call the tool. Default `["model", "app"]`. */
  visibility?: ToolVisibility[];
}

/**
 * Serves MCP Apps (SEP-1865, `io.modelcontextprotocol/ui`) on an `McpServer`, through its public seams: views are
 * `ui://` resources of MIME type `text/html;profile=mcp-app` (`registerResource`), app tools are tools whose
 * `_meta.ui` links a view and says who may call them (`registerTool`), and the extension (`server.extend`) is
 * advertised in `initialize` and `server/discover` with a middleware that keeps app-only tools away from clients that
 * do not render views. Registration refuses what the spec forbids, naming the tool or view and the field.
 *
 * @example
 * ```ts
 * const apps = new AppsServer(server);
 * apps.registerView('chart', 'ui://charts/bar', { html: chartHtml, csp: { resourceDomains: ['https://cdn.example.com'] } });
 * apps.registerAppTool('sales', { view: 'ui://charts/bar', description: 'Sales by month' }, async (_args, ctx) => ({
 *   content: [{ type: 'text', text: 'Jan 10, Feb 12' }], // what a host without MCP Apps shows
 *   structuredContent: { months: ['Jan', 'Feb'], values: [10, 12] },
 * }));
 * apps.registerAppTool('refresh', { view: 'ui://charts/bar', visibility: ['app'] }, () => ({ content: [] }));
 * ```
 */
export class AppsServer {
  readonly #server: McpServer;
  readonly #views = new Map<string, RegisteredResource>();
  readonly #maxHtmlBytes: number;
  readonly #legacyKey: boolean;

  constructor(server: McpServer, options: AppsServerOptions = {}) {
    const maxHtmlBytes = options.maxHtmlBytes ?? DEFAULT_MAX_VIEW_HTML_BYTES;
    if (!Number.isInteger(maxHtmlBytes) || maxHtmlBytes < 1) {
      throw new RangeError(`AppsServer: maxHtmlBytes must be a positive integer, got ${String(maxHtmlBytes)}`);
    }
    this.#server = server;
    this.#maxHtmlBytes = maxHtmlBytes;
    this.#legacyKey = options.legacyResourceUriKey ?? true;
    const hide = (options.appOnlyTools ?? 'hide') === 'hide';
    server.server.extend({
      id: APPS_EXTENSION_ID,
      declaration: {},
      ...(hide && { middleware: (ctx: ServerContext, next: () => Promise<unknown>) => this.#guard(ctx, next) }),
    });
  }

  /**
   * What the client of this request declared for MCP Apps (`capabilities.extensions["io.modelcontextprotocol/ui"]`,
   * from `initialize` or, in 2026-07-28, from the request's `_meta`), or `undefined` when it did not: then return
   * text a chat can show instead of relying on a view.
   *
   * @example
   * ```ts
   * const text = { type: 'text', text: summary };
   * return AppsServer.hostSupport(ctx)?.mimeTypes.includes(APP_HTML_MIME_TYPE)
   *   ? { content: [text], structuredContent: data }
   *   : { content: [text, { type: 'text', text: table(data) }] };
   * ```
   */
  static hostSupport(ctx: { clientCapabilities: ClientCapabilities }): AppsClientSettings | undefined {
    const settings = ctx.clientCapabilities.extensions?.[APPS_EXTENSION_ID];
    if (settings === undefined || typeof settings !== 'object' || settings === null) return undefined;
    const mimeTypes = Array.isArray(settings.mimeTypes)
      ? settings.mimeTypes.filter((type): type is string => typeof type === 'string')
      : [];
    return { ...settings, mimeTypes };
  }

  /** True when the client of this request renders HTML views (`text/html;profile=mcp-app`). */
  static rendersViews(ctx: { clientCapabilities: ClientCapabilities }): boolean {
    return AppsServer.hostSupport(ctx)?.mimeTypes.includes(APP_HTML_MIME_TYPE) ?? false;
  }

  /**
   * Registers a view: a `ui://` resource of MIME type `text/html;profile=mcp-app`, its `_meta.ui` (`csp`,
   * `permissions`, `domain`, `prefersBorder`) both in `resources/list` and in the contents of `resources/read`.
   * Throws `AppsError` `ERR_INVALID_VIEW` (a URI that is not `ui://`, a malformed field) or `ERR_VIEW_TOO_LARGE`.
   *
   * @example
   * ```ts
   * apps.registerView('form', 'ui://shop/order-form', { html, prefersBorder: true, permissions: { clipboardWrite: {} } });
   * ```
   */
  registerView(name: string, uri: string, config: AppViewConfig): RegisteredResource {
    checkViewUri(name, uri);
    const ui = checkViewUiMeta(name, config);
    const html = config.html;
    if (typeof html === 'string') this.#checkSize(name, html);
    else if (typeof html !== 'function') {
      throw new AppsError('ERR_INVALID_VIEW', `registerView('${name}'): html must be a string or a function`, {
        view: name,
        field: 'html',
      });
    }
    const meta = { ...config._meta, ui };
    const registered = this.#server.registerResource(
      name,
      uri,
      {
        mimeType: APP_HTML_MIME_TYPE,
        _meta: meta,
        ...(config.title !== undefined && { title: config.title }),
        ...(config.description !== undefined && { description: config.description }),
      },
      async (_uri, ctx) => {
        const text = typeof html === 'string' ? html : this.#checkSize(name, await html(ctx));
        return { contents: [{ uri, mimeType: APP_HTML_MIME_TYPE, text, _meta: meta }] };
      },
    );
    this.#views.set(uri, registered);
    return registered;
  }

  /**
   * Registers a tool with MCP Apps metadata: `view` (a `ui://` view registered here) becomes `_meta.ui.resourceUri`,
   * `visibility` becomes `_meta.ui.visibility`. Throws `AppsError` `ERR_INVALID_APP_TOOL` naming the tool and the
   * field for a view that does not exist or an unknown visibility value.
   *
   * @example
   * ```ts
   * apps.registerAppTool('save_order', { view: 'ui://shop/order-form', visibility: ['app'], inputSchema }, save);
   * ```
   */
  registerAppTool<
    const I extends SchemaInput | undefined = undefined,
    const O extends SchemaInput | undefined = undefined,
  >(name: string, config: AppToolConfig<I, O>, handler: ToolHandler<I>): RegisteredTool {
    const { view: viewOption, visibility: visibilityOption, ...toolConfig } = config;
    // `_meta.ui` written by hand is held to the same rules as the options.
    const given = toolConfig._meta?.ui as AppToolUiMeta | undefined;
    const view = viewOption ?? given?.resourceUri;
    const visibility = visibilityOption ?? given?.visibility;
    const ui: AppToolUiMeta = {};
    if (view !== undefined) {
      if (typeof view !== 'string' || !view.startsWith('ui://')) {
        throw new AppsError(
          'ERR_INVALID_APP_TOOL',
          `registerAppTool('${name}'): _meta.ui.resourceUri must be a ui:// URI, got ${JSON.stringify(view)}`,
          { tool: name, field: '_meta.ui.resourceUri', value: view },
        );
      }
      if (!this.#views.has(view)) {
        throw new AppsError(
          'ERR_INVALID_APP_TOOL',
          `registerAppTool('${name}'): _meta.ui.resourceUri points at ${view}, which is not a view of this server; register it with registerView first`,
          { tool: name, field: '_meta.ui.resourceUri', value: view, views: [...this.#views.keys()] },
        );
      }
      ui.resourceUri = view;
    }
    if (visibility !== undefined) ui.visibility = checkVisibility(name, visibility);
    const meta: Record<string, unknown> = { ...toolConfig._meta };
    if (given !== undefined || Object.keys(ui).length > 0) meta.ui = { ...given, ...ui };
    if (view !== undefined && this.#legacyKey) meta[LEGACY_RESOURCE_URI_KEY] = view;
    const withMeta = Object.keys(meta).length > 0 ? { ...toolConfig, _meta: meta } : toolConfig;
    return this.#server.registerTool(name, withMeta as ToolConfig<I, O>, handler);
  }

  #checkSize(name: string, html: string): string {
    if (typeof html !== 'string') {
      throw new AppsError('ERR_INVALID_VIEW', `registerView('${name}'): html returned ${typeof html}, not a string`, {
        view: name,
        field: 'html',
      });
    }
    const bytes = utf8Length(html);
    if (bytes > this.#maxHtmlBytes) {
      throw new AppsError(
        'ERR_VIEW_TOO_LARGE',
        `registerView('${name}'): the HTML is ${bytes} bytes, over the limit of ${this.#maxHtmlBytes} (maxHtmlBytes)`,
        { view: name, field: 'html', bytes, limit: this.#maxHtmlBytes },
      );
    }
    return html;
  }

  // A client that did not declare the extension has no view: it lists tools for a model. App-only tools are not for
  // it, in tools/list (dropped) or tools/call (refused), as the spec asks of a host for its model.
  async #guard(ctx: ServerContext, next: () => Promise<unknown>): Promise<unknown> {
    if (ctx.kind !== 'request' || AppsServer.hostSupport(ctx) !== undefined) return next();
    if (ctx.method === 'tools/call') {
      const name = (ctx.params as { name?: unknown } | undefined)?.name;
      const tool = typeof name === 'string' ? this.#server.getTool(name) : undefined;
      if (tool !== undefined && !visibleToModel(tool)) {
        throw invalidParamsError(
          `Tool '${String(name)}' has visibility ${JSON.stringify(visibilityOf(tool))}: only an MCP Apps view may call it, and this client did not declare ${APPS_EXTENSION_ID}`,
          { tool: name, visibility: visibilityOf(tool) },
        );
      }
      return next();
    }
    if (ctx.method !== 'tools/list') return next();
    const result = (await next()) as { tools?: unknown } | undefined;
    if (result === undefined || !Array.isArray(result.tools)) return result;
    return { ...result, tools: (result.tools as Tool[]).filter(visibleToModel) };
  }
}
