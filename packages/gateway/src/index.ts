// @mcpkit/gateway: mount other MCP servers into one McpServer, across transports and protocol eras. Runs anywhere:
// no Node built-ins at this entry (`/node` opens stdio, HTTP and WebSocket upstreams from a description).

export type { ItemFilter, NameRule } from './filter';
export { Gateway, type GatewayOptions } from './gateway';
export { GatewayError } from './gateway-error';
export { Mount } from './mount';
export type { MountOptions, MountStatus, ReconnectPolicy, UpstreamConnection } from './mount-options';
export { MountNames } from './names';
