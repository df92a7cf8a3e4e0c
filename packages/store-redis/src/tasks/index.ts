// @mcpkit/store-redis/tasks: the TaskStore of @mcpkit/tasks on Redis, shared by every instance.

export { RedisTaskStore, type RedisTaskStoreOptions } from './task-store';
