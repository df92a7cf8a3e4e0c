// @mcpkit/gateway/node: upstreams from a description (a command to spawn, an HTTP or WebSocket URL).

export { type UpstreamDescription, upstream } from './upstream';
