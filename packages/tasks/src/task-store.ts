import { defineCodedError } from '@mcpkit/jsonrpc-core';
import type { TaskPatch, TaskRecord } from './task-record';

/** Thrown by a {@link TaskStore} when it refuses to create a task. */
export class TaskStoreError extends defineCodedError<
  /** The requestor already has `maxLivePerOwner` tasks that are not terminal. */
  | 'ERR_TASK_LIMIT'
  /** The store holds its maximum number of tasks (live or kept for their TTL). */
  | 'ERR_STORE_FULL'
  /** A task with this id exists already. */
  | 'ERR_DUPLICATE_TASK'
  /** A cursor this store did not mint. */
  | 'ERR_INVALID_CURSOR'
  /** The store was closed. */
  | 'ERR_STORE_CLOSED'
>('TaskStoreError', '@mcpkit/tasks/TaskStoreError') {}

/** Limits checked atomically with the insert. */
export interface CreateLimits {
  /** How many non-terminal tasks one owner may have at once (the `null` owner counts as one). */
  maxLivePerOwner: number;
}

/** What `update` did. */
export interface UpdateOutcome {
  /** The task after the update (or as it was, when the update was refused); `undefined`: no such task. */
  record: TaskRecord | undefined;
  /** False when the task was terminal already: terminal tasks never change. */
  applied: boolean;
}

/** One page of `list`. */
export interface TaskPage {
  tasks: TaskRecord[];
  /** Absent on the last page. */
  nextCursor?: string;
}

/**
 * Where tasks live. Every method is async and every record is plain JSON, so an implementation may sit on any
 * database (`InMemoryTaskStore`, `SqliteTaskStore` from `@mcpkit/tasks/sqlite`; a shared store such as Redis lets
 * several server instances serve the same tasks). Expired records (`expiresAt` passed) must read as absent.
 *
 * @example
 * const taskServer = server.extend(tasks({ store: new InMemoryTaskStore({ maxTasks: 10_000 }) }));
 */
export interface TaskStore {
  /**
   * Inserts a new task, refusing it (`TaskStoreError` `ERR_TASK_LIMIT` / `ERR_STORE_FULL`) when a limit is reached.
   * The check and the insert are one step. Once it resolves, `get` finds the task (the spec's "durably created").
   */
  create(record: TaskRecord, limits: CreateLimits): Promise<void>;
  /** The task, or `undefined` when there is none or it expired. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Applies `patch` unless the task is terminal (a terminal task never changes: a late result after a cancel is
   * dropped). Keys set to `undefined` in `patch` are removed.
   */
  update(taskId: string, patch: TaskPatch): Promise<UpdateOutcome>;
  /** One page of `owner`'s tasks, oldest first. A cursor this store did not mint: `TaskStoreError` `ERR_INVALID_CURSOR`. */
  list(owner: string | null, page: { cursor?: string; limit: number }): Promise<TaskPage>;
  /** Every task that is not terminal (what a restarted server must resume or fail). */
  unfinished(): Promise<TaskRecord[]>;
  /** Deletes the tasks whose `expiresAt` is at or before `now`; resolves to how many. */
  sweep(now: number): Promise<number>;
  /** Releases what the store holds (timers, the database handle when it opened it). */
  close(): Promise<void>;
}

/** The records of `list` pages are ordered by creation, then id; a cursor names the last one returned. */
export function encodeCursor(record: Pick<TaskRecord, 'createdAt' | 'taskId'>): string {
  return `${record.createdAt.toString(36)}.${record.taskId}`;
}

/** The position a cursor names, or a `TaskStoreError` for one this store did not mint. */
export function decodeCursor(cursor: string): { createdAt: number; taskId: string } {
  const dot = cursor.indexOf('.');
  const createdAt = dot > 0 ? Number.parseInt(cursor.slice(0, dot), 36) : Number.NaN;
  const taskId = cursor.slice(dot + 1);
  if (!Number.isSafeInteger(createdAt) || !/^[A-Za-z0-9_-]{1,128}$/.test(taskId)) {
    throw new TaskStoreError('ERR_INVALID_CURSOR', 'Invalid cursor: it was not issued by this server', { cursor });
  }
  return { createdAt, taskId };
}

/** Applies a patch: `undefined` values delete their key. */
export function applyPatch(record: TaskRecord, patch: TaskPatch): TaskRecord {
  const next: Record<string, unknown> = { ...record };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete next[key];
    else next[key] = value;
  }
  return next as unknown as TaskRecord;
}
