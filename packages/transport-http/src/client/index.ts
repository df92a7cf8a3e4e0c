// @mcpkit/transport-http/client: the Streamable HTTP and legacy HTTP+SSE client transports. Web-standard APIs only
// (on Node the built-in path reaches node:http through process.getBuiltinModule, never through an import), and no
// @mcpkit/server: a client-only application installs none of the server side.

export {
  StreamableHttpError,
  type StreamableHttpErrorCode,
  type StreamableHttpErrorData,
} from './errors';
export type { ReconnectOptions } from './reconnect';
export type { HeadersOption } from './request-headers';
export { SseClientTransport, type SseClientTransportOptions } from './sse-client-transport';
export {
  StreamableHttpClientTransport,
  type StreamableHttpClientTransportOptions,
} from './streamable-http-client-transport';
