// @mcpkit/apps/host: the host side of MCP Apps, in a browser — the bridge between one sandboxed view and a server
// connection (an @mcpkit/client Client), the double-iframe mount, and the sandbox proxy page with its CSP rules.

export { AppsError } from '../apps-error';
export { PostMessageTransport, type PostMessageTransportOptions } from '../post-message-transport';
export {
  APP_HTML_MIME_TYPE,
  APPS_EXTENSION_ID,
  type AppCapabilities,
  type AppImplementation,
  type AppInitializeResult,
  type AppToolResult,
  DEFAULT_MAX_VIEW_HTML_BYTES,
  type DisplayMode,
  type HostCapabilities,
  type HostContext,
} from '../spec';
export { type ToolWithMeta, visibilityOf, visibleToApp, visibleToModel } from '../visibility';
export { AppBridge, type AppBridgeOptions, type AppServerConnection } from './app-bridge';
export { type MountAppViewOptions, type MountedAppView, mountAppView } from './mount-app-view';
export { buildViewCsp, permissionsAllow, type SandboxProxyOptions, sandboxProxyHtml, withCsp } from './sandbox';
