// @mcpkit/server/cluster: what a transport needs to serve one `Server` from several instances (scale-out) — sharing
// broadcasts over a `MessageBus`, and restoring a session's resource subscriptions on another instance. Transports
// (@mcpkit/transport-http, @mcpkit/transport-websocket) use it; an application does not, so it is off the root entry.

export { type ServerBroadcast, shareBroadcasts } from './cluster/shared-broadcasts';
export { restoreResourceSubscriptions } from './listen/resource-subscriptions';
