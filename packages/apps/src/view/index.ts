// @mcpkit/apps/view: the library a view (the HTML inside the host's sandboxed iframe) uses to talk to its host.
// Small by design: the JSON-RPC peer of @mcpkit/jsonrpc-core and the postMessage transport, nothing else.

export { PostMessageTransport, type PostMessageTransportOptions } from '../post-message-transport';
export type {
  AppCapabilities,
  AppContentBlock,
  AppImplementation,
  AppInitializeResult,
  AppToolResult,
  ContainerDimensions,
  DisplayMode,
  HostCapabilities,
  HostContext,
} from '../spec';
export { type AppLogMessage, AppView, type AppViewOptions } from './app-view';
