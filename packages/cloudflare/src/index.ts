// @mcpkit/cloudflare: MCP servers on Cloudflare Workers. Web-standard APIs only; no `cloudflare:` import.

export { DurableObjectEventStore, type DurableObjectEventStoreOptions } from './event-store';
export { DurableObjectNonceStore, defineMcpNonceObject } from './nonce-object';
export type {
  DurableObjectIdLike,
  DurableObjectNamespaceLike,
  DurableObjectStateLike,
  DurableObjectStorageLike,
  DurableObjectStubLike,
  ExecutionContextLike,
  SqlCursorLike,
  SqlStorageLike,
} from './platform';
export {
  defineMcpSessionObject,
  type McpSessionObject,
  type McpSessionObjectOptions,
  type SessionObjectEndpoint,
} from './session-object';
export { DurableObjectSessionStore } from './session-store';
export {
  defineMcpTaskObject,
  type McpTaskObjectOptions,
  TaskObjectStore,
  type TaskObjectStoreOptions,
} from './task-object';
export { DurableObjectTaskStore, type DurableObjectTaskStoreOptions } from './task-store';
export { createMcpWorker, type McpWorker, type McpWorkerOptions, type WorkerAuthResult } from './worker';
