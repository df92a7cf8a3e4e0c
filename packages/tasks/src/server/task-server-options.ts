import type { MessageBus } from '@mcpkit/server';
import type { TaskStore } from '../task-store';
import type { IdentityOf } from './identity';

/** How one tool runs as a task (`TaskServerOptions.tools`). */
export interface TaskToolOptions {
  /**
   * After a server restart, run the task again from the start with the same arguments, instead of marking it
   * `failed`. Only for work that is safe to repeat. Default `false`.
   */
  resumable?: boolean;
  /**
   * `request` (default): a call that may become a task becomes one before the handler runs. `handler`: the handler
   * decides, by returning `tasks.runAsTask(ctx, work)` — for a tool that first gathers input (2026-07-28 multi
   * round-trip), then goes on as a task.
   */
  start?: 'request' | 'handler';
}

/** Options of `TasksServer` (`tasks(options)`). */
export interface TasksServerOptions {
  /** Where tasks live. Default: a new `InMemoryTaskStore` (lost on restart; `SqliteTaskStore` keeps them). */
  store?: TaskStore;
  /** Retention of a task when the request asks for none, in ms. Default 1 hour. */
  defaultTtlMs?: number;
  /** The longest retention granted; a longer requested `ttl` is cut to it (the spec lets receivers). Default 24 h. */
  maxTtlMs?: number;
  /** The suggested polling interval, in ms. Default 1 000. */
  pollIntervalMs?: number;
  /** How many unfinished tasks one requestor may have at once; past it, `tools/call` gets -32600. Default 100. */
  maxLiveTasksPerRequestor?: number;
  /** Items per `tasks/list` page (2025-11-25). Default 50. */
  listPageSize?: number;
  /** Who owns a task (see `defaultIdentity`): another owner gets "not found" for it. */
  identity?: IdentityOf;
  /** Per tool name: resumable after a restart, and who starts the task. */
  tools?: Record<string, TaskToolOptions>;
  /**
   * On start, what to do with the store's unfinished tasks (a previous process was running them): `true` (default)
   * resumes the resumable ones and marks the others `failed`; `false` leaves them (several instances sharing a store
   * must decide which tasks are orphaned themselves). Wait for `ready` before serving.
   */
  recover?: boolean;
  /** Send status notifications (`notifications/tasks/status`; `notifications/tasks` on listen streams). Default true. */
  statusNotifications?: boolean;
  /** This process's name in the records it runs. Default: random. */
  instanceId?: string;
  /**
   * Scale-out: several instances sharing one `store` (Redis: `@mcpkit/store-redis/tasks`) and this bus. A task runs
   * on the instance that created it and can be read, answered (`tasks/update`) and cancelled from any other: the
   * cancel and the answers reach the running handler over the bus, and status changes reach listen streams held by
   * every instance. Pass `recover: false` with a shared store (a starting instance must not fail its peers' tasks).
   */
  bus?: MessageBus;
  /** Problems nobody awaits (a failed store write, a notification that could not be sent). Default: the server's. */
  onError?: (error: Error) => void;
  /** The clock (tests). Default `Date.now`. */
  now?: () => number;
}

/** What a handler sees of the task it runs in: `ctx.get('task')` (undefined when it runs inline). */
export interface TaskContext {
  readonly taskId: string;
  /** Sets the task's `statusMessage` (what `tasks/get` shows: "Compiling 3/10", "Waiting for approval"). */
  setStatusMessage(message: string): Promise<void>;
}

declare module '@mcpkit/server' {
  interface ContextVariableMap {
    /** Set by `@mcpkit/tasks` when the handler runs as a task. */
    task: TaskContext;
  }
}

/** @deprecated Renamed `TasksServerOptions`; goes in the next minor version. */
export type TaskServerOptions = TasksServerOptions;
