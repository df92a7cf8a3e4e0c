// @mcpkit/apps: MCP Apps (SEP-1865, io.modelcontextprotocol/ui) on the server — views as ui:// resources, tools linked
// to them with visibility, the extension advertised in both eras. The host bridge is `@mcpkit/apps/host` (browser),
// the view library `@mcpkit/apps/view`, the postMessage transport `@mcpkit/apps/post-message`.

export { AppsError } from './apps-error';
export { AppsServer, type AppsServerOptions, type AppToolConfig, type AppViewConfig } from './server/apps-server';
export {
  APP_HTML_MIME_TYPE,
  APPS_EXTENSION_ID,
  type AppCsp,
  type AppPermissions,
  type AppResourceUiMeta,
  type AppsClientSettings,
  type AppToolUiMeta,
  DEFAULT_MAX_VIEW_HTML_BYTES,
  LEGACY_RESOURCE_URI_KEY,
  type ToolVisibility,
} from './spec';
export { type ToolWithMeta, visibilityOf, visibleToApp, visibleToModel } from './visibility';
