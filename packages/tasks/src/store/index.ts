// @mcpkit/tasks/store: what writing a TaskStore takes (a database of your own: Postgres, DynamoDB, a Durable Object):
// the interface and its record types, and the helpers every store shares so they all behave alike (list cursors,
// patches, terminal statuses, task ids). Runs anywhere. The stores themselves: `InMemoryTaskStore` at the root,
// `SqliteTaskStore` on `/sqlite`, `RedisTaskStore` in @mcpkit/store-redis.

export { newTaskId } from '../task-ids';
export { isTerminal, type TaskPatch, type TaskRecord, TERMINAL_STATUSES } from '../task-record';
export {
  applyPatch,
  type CreateLimits,
  decodeCursor,
  encodeCursor,
  type TaskPage,
  type TaskStore,
  TaskStoreError,
  type UpdateOutcome,
} from '../task-store';
