// @mcpkit/transport-http: Streamable HTTP (and legacy HTTP+SSE) transports. Web-standard APIs only at this entry.

// Client
export {
  StreamableHttpError,
  type StreamableHttpErrorCode,
  type StreamableHttpErrorData,
} from './client/errors';
export type { ReconnectOptions } from './client/reconnect';
export type { HeadersOption } from './client/request-headers';
export { SseClientTransport, type SseClientTransportOptions } from './client/sse-client-transport';
export {
  StreamableHttpClientTransport,
  type StreamableHttpClientTransportOptions,
} from './client/streamable-http-client-transport';

// Server
export {
  InMemorySessionStore,
  type SessionPatch,
  type SessionRecord,
  type SessionStore,
} from './server/cluster/session-store';
export { type CorsOptions, withCors } from './server/cors';
export {
  type EventStore,
  InMemoryEventStore,
  type InMemoryEventStoreOptions,
  type StoredEvent,
} from './server/event-store';
export {
  createStreamableHttpHandler,
  type HandleExtra,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from './server/handler';
export type { HttpRefusal } from './server/http-refusal';
export { createSseHandler, type SseHandler, type SseHandlerOptions } from './server/legacy-sse';
export type { HostOriginOptions } from './server/security';
export type { ResponseMode } from './server/stateless';
