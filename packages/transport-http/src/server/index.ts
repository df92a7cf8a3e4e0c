// @mcpkit/transport-http/server: the web-standard `(Request) => Promise<Response>` handlers (Streamable HTTP, legacy
// HTTP+SSE) and what they are configured with. Runs anywhere; `/node` and `/express` adapt it to Node's http module.
// Needs @mcpkit/server (a peer dependency: the handler serves the application's own `Server`).

export {
  applySessionPatch,
  InMemorySessionStore,
  type SessionPatch,
  type SessionRecord,
  type SessionStore,
} from './cluster/session-store';
export { type CorsOptions, withCors } from './cors';
export {
  type EventStore,
  InMemoryEventStore,
  type InMemoryEventStoreOptions,
  type StoredEvent,
} from './event-store';
export {
  createStreamableHttpHandler,
  type HandleExtra,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from './handler';
export type { HttpRefusal } from './http-refusal';
export { createSseHandler, type SseHandler, type SseHandlerOptions } from './legacy-sse';
export type { HostOriginOptions } from './security';
export type { ResponseMode } from './stateless';
