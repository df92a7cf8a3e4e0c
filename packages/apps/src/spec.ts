// The vocabulary of MCP Apps (SEP-1865, `io.modelcontextprotocol/ui`, stable 2026-01-26), shared by the server, the
// host bridge and the view. Types only and a few constants: every side imports this file, the view stays small.

/** The extension identifier, advertised in `capabilities.extensions` (SEP-2133) by clients and servers. */
export const APPS_EXTENSION_ID = 'io.modelcontextprotocol/ui';

/** The MIME type of an MCP Apps HTML view (the only one the 2026-01-26 revision defines). */
export const APP_HTML_MIME_TYPE = 'text/html;profile=mcp-app';

/** The `ui/initialize` protocol versions this package speaks, newest first. */
export const APPS_PROTOCOL_VERSIONS = ['2026-01-26', '2025-11-21'] as const;

/** The newest `ui/initialize` protocol version. */
export const LATEST_APPS_PROTOCOL_VERSION = APPS_PROTOCOL_VERSIONS[0];

/** The deprecated flat key of a tool's view URI (`_meta["ui/resourceUri"]`), still read by older hosts. */
export const LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';

/** What a client (host) declares under `capabilities.extensions["io.modelcontextprotocol/ui"]`. */
export interface AppsClientSettings {
  /** The view content types it renders; `text/html;profile=mcp-app` for HTML views. */
  mimeTypes: string[];
  [key: string]: unknown;
}

/** Origins a view may reach; each list maps to CSP directives (empty or omitted: none). */
export interface AppCsp {
  /** `connect-src`: fetch, XHR, WebSocket. */
  connectDomains?: string[];
  /** `script-src`, `style-src`, `img-src`, `font-src`, `media-src`. */
  resourceDomains?: string[];
  /** `frame-src` (omitted: `'none'`). */
  frameDomains?: string[];
  /** `base-uri` (omitted: `'self'`). */
  baseUriDomains?: string[];
}

/** Browser features a view asks for; a host may grant them through the iframe's `allow` attribute. */
export interface AppPermissions {
  camera?: Record<string, never>;
  microphone?: Record<string, never>;
  geolocation?: Record<string, never>;
  clipboardWrite?: Record<string, never>;
}

/** `_meta.ui` of a view resource (in `resources/list` and in the contents of `resources/read`). */
export interface AppResourceUiMeta {
  /** The origins the view may reach (CSP); omitted: none, the spec's restrictive default. */
  csp?: AppCsp;
  /** Browser features the view asks for (camera, microphone, geolocation, clipboard write). */
  permissions?: AppPermissions;
  /** A dedicated sandbox origin; its format is the host's. */
  domain?: string;
  /** `true`: the host draws a border and background; `false`: none; omitted: the host decides. */
  prefersBorder?: boolean;
}

/** Who may see and call a tool: the model (the agent), the view (the app), or both (the default). */
export type ToolVisibility = 'model' | 'app';

/** `_meta.ui` of a tool. */
export interface AppToolUiMeta {
  /** The `ui://` view that renders the tool's results. */
  resourceUri?: string;
  /** Default `["model", "app"]`. */
  visibility?: ToolVisibility[];
}

/** How the view is displayed. */
export type DisplayMode = 'inline' | 'fullscreen' | 'pip';

/** What the view says it can do (`ui/initialize` params). */
export interface AppCapabilities {
  experimental?: Record<string, unknown>;
  tools?: { listChanged?: boolean };
  availableDisplayModes?: DisplayMode[];
}

/** What the host offers the view (`ui/initialize` result). */
export interface HostCapabilities {
  experimental?: Record<string, unknown>;
  openLinks?: Record<string, never>;
  serverTools?: { listChanged?: boolean };
  serverResources?: { listChanged?: boolean };
  logging?: Record<string, never>;
  updateModelContext?: Record<string, unknown>;
  message?: Record<string, unknown>;
  sandbox?: { permissions?: AppPermissions; csp?: AppCsp };
}

/** Container size: fixed (`height`/`width`) or flexible up to a maximum (`maxHeight`/`maxWidth`). */
export interface ContainerDimensions {
  height?: number;
  maxHeight?: number;
  width?: number;
  maxWidth?: number;
}

/** The host's environment, sent in the `ui/initialize` result and updated by `host-context-changed`. */
export interface HostContext {
  /** The tool call that made the view: the JSON-RPC id of its `tools/call` and the tool's full definition. */
  toolInfo?: {
    id?: string | number;
    tool: { name: string; inputSchema: Record<string, unknown>; [key: string]: unknown };
  };
  theme?: 'light' | 'dark';
  styles?: { variables?: Record<string, string | undefined>; css?: { fonts?: string } };
  displayMode?: DisplayMode;
  availableDisplayModes?: DisplayMode[];
  containerDimensions?: ContainerDimensions;
  locale?: string;
  timeZone?: string;
  userAgent?: string;
  platform?: 'web' | 'desktop' | 'mobile';
  deviceCapabilities?: { touch?: boolean; hover?: boolean };
  safeAreaInsets?: { top: number; right: number; bottom: number; left: number };
  [key: string]: unknown;
}

/** A name and version (`appInfo`, `hostInfo`). */
export interface AppImplementation {
  name: string;
  version: string;
  [key: string]: unknown;
}

/** `ui/initialize` params. */
export interface AppInitializeParams {
  protocolVersion: string;
  appInfo: AppImplementation;
  appCapabilities: AppCapabilities;
}

/** `ui/initialize` result. */
export interface AppInitializeResult {
  protocolVersion: string;
  hostInfo: AppImplementation;
  hostCapabilities: HostCapabilities;
  hostContext: HostContext;
  [key: string]: unknown;
}

/** A content block of a tool result or a message (text, image, audio, resource, resource link). */
export interface AppContentBlock {
  /** `text`, `image`, `audio`, `resource_link`, `resource`. */
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  title?: string;
  description?: string;
  size?: number;
  resource?: unknown;
  annotations?: unknown;
  icons?: unknown;
  _meta?: unknown;
}

/** A `tools/call` result as the view sees it (`ui/notifications/tool-result` params). */
export interface AppToolResult {
  content: AppContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** The method names of the extension's view↔host channel. */
export const AppMethods = {
  initialize: 'ui/initialize',
  initialized: 'ui/notifications/initialized',
  toolInput: 'ui/notifications/tool-input',
  toolInputPartial: 'ui/notifications/tool-input-partial',
  toolResult: 'ui/notifications/tool-result',
  toolCancelled: 'ui/notifications/tool-cancelled',
  hostContextChanged: 'ui/notifications/host-context-changed',
  sizeChanged: 'ui/notifications/size-changed',
  openLink: 'ui/open-link',
  message: 'ui/message',
  updateModelContext: 'ui/update-model-context',
  requestDisplayMode: 'ui/request-display-mode',
  resourceTeardown: 'ui/resource-teardown',
  sandboxProxyReady: 'ui/notifications/sandbox-proxy-ready',
  sandboxResourceReady: 'ui/notifications/sandbox-resource-ready',
} as const;

/**
 * The largest view HTML, in UTF-8 bytes, that `AppsServer` registers and the host bridge renders by default (4 MiB).
 * A view is one self-contained HTML file; beyond this size it is refused rather than parsed.
 */
export const DEFAULT_MAX_VIEW_HTML_BYTES = 4 * 1024 * 1024;
