// @mcpkit/transport-http: both sides at one entry, kept for one minor version. Deprecated: import the client from
// `@mcpkit/transport-http/client` and the server from `@mcpkit/transport-http/server`. This entry re-exports the
// server side, so it needs @mcpkit/server installed (an optional peer dependency); a client-only application that
// imports `/client` needs none of it.

/** @deprecated Import from `@mcpkit/transport-http/client`. */
export {
  type HeadersOption,
  type ReconnectOptions,
  SseClientTransport,
  type SseClientTransportOptions,
  StreamableHttpClientTransport,
  type StreamableHttpClientTransportOptions,
  StreamableHttpError,
  type StreamableHttpErrorCode,
  type StreamableHttpErrorData,
} from './client/index';
/** @deprecated Import from `@mcpkit/transport-http/server`. */
export {
  applySessionPatch,
  type CorsOptions,
  createSseHandler,
  createStreamableHttpHandler,
  type EventStore,
  type HandleExtra,
  type HostOriginOptions,
  type HttpRefusal,
  InMemoryEventStore,
  type InMemoryEventStoreOptions,
  InMemorySessionStore,
  type ResponseMode,
  type SessionPatch,
  type SessionRecord,
  type SessionStore,
  type SseHandler,
  type SseHandlerOptions,
  type StoredEvent,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
  withCors,
} from './server/index';
