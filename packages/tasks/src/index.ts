// @mcpkit/tasks: tasks in both protocol eras — 2025-11-25 task-augmented requests and the 2026-07-28 extension
// io.modelcontextprotocol/tasks — on the server (`TasksServer`) and the client (`TasksClient`), with stores behind one
// interface. Runs anywhere: the SQLite store is on the `/sqlite` subpath; what writing a store takes on `/store`; the
// extensions to install (`server.extend(tasks({ store }))`, `client.extend(tasks())`) on `/server` and `/client`.

export { TaskClientError } from './client/task-client-error';
export { TaskHandle, type WaitOptions } from './client/task-handle';
export { isTerminalStatus, readTaskInfo, type TaskInfo } from './client/task-info';
export type { TaskReceiverOptions } from './client/task-receiver';
export { type TaskCallOptions, type TaskList, TasksClient, type TasksClientOptions } from './client/tasks-client';
export { InMemoryTaskStore, type InMemoryTaskStoreOptions } from './memory-store';
export { taskNotFoundError } from './server/errors';
export { defaultIdentity, type IdentityOf, type Requestor } from './server/identity';
export { TASKS_TOPIC } from './server/task-bus';
export { TaskServer, TasksServer } from './server/task-server';
export type {
  TaskContext,
  TaskServerOptions,
  TasksServerOptions,
  TaskToolOptions,
} from './server/task-server-options';
/** @deprecated Store helpers: import them from `@mcpkit/tasks/store`; these root re-exports go in the next minor. */
export { applyPatch, decodeCursor, encodeCursor, isTerminal, newTaskId, TERMINAL_STATUSES } from './store/index';
// The TaskStore interface and its types, for configuring a store; writing one takes `@mcpkit/tasks/store`.
export type { TaskEra, TaskPatch, TaskRecord } from './task-record';
export {
  type CreateLimits,
  type TaskPage,
  type TaskStore,
  TaskStoreError,
  type UpdateOutcome,
} from './task-store';
