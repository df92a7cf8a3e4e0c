export {
  createWebSocketServer,
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  DEFAULT_MAX_MESSAGE_BYTES,
  type McpWebSocketServer,
  type WebSocketAuthResult,
  type WebSocketServerOptions,
  type WebSocketSessionHost,
} from './create-server';
export {
  DEFAULT_MAX_BUFFERED_BYTES,
  WebSocketServerTransport,
  type WebSocketServerTransportOptions,
} from './server-transport';
export { type UpgradeRefusal, UpgradeRefusalError } from './upgrade-refusal';
