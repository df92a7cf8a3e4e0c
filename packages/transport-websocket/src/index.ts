export {
  MCP_SUBPROTOCOL,
  WebSocketClientTransport,
  type WebSocketClientTransportOptions,
} from './client-transport';
export {
  describeCloseCode,
  WebSocketTransportError,
  type WebSocketTransportErrorCode,
  type WebSocketTransportErrorData,
} from './errors';
export type { ReconnectOptions } from './reconnect';
export type { WebSocketConstructor, WebSocketLike } from './websocket-like';
