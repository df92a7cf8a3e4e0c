import type { JsonRpcErrorObject } from '@mcpkit/jsonrpc-core';
import type { NotificationParams, PaginatedRequestParams, PaginatedResult, RequestParams, Result } from './common.js';
import type { InputRequests, InputResponses } from './input-requests.js';
import type { CallToolResult } from './tools.js';

// Two task vocabularies exist: the experimental core tasks of 2025-11-25 (SEP-1686), removed from core in
// 2026-07-28, and the `io.modelcontextprotocol/tasks` extension of 2026-07-28 (SEP-2663). Their Task objects differ
// (`ttl`/`pollInterval` vs `ttlMs`/`pollIntervalMs`, wrapped vs flat create result), so the extension's types carry
// the `Modern` prefix instead of pretending to be one type.

/** A task's state (`TaskStatus`). Terminal: `completed`, `failed`, `cancelled`. Same values in both vocabularies. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/**
 * A task (`Task`, 2025-11-25 core tasks, experimental).
 *
 * @example
 * ```ts
 * const task: Task = {
 *   taskId: '786512e2',
 *   status: 'working',
 *   createdAt: '2025-11-25T10:30:00Z',
 *   lastUpdatedAt: '2025-11-25T10:30:00Z',
 *   ttl: 60_000,
 *   pollInterval: 5_000,
 * };
 * ```
 */
export interface Task {
  taskId: string;
  status: TaskStatus;
  /** Why the task is in its state (cancel reason, failure summary, …). */
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  /** Retention from creation in ms; `null` = unlimited. */
  ttl: number | null;
  /** Suggested polling interval in ms. */
  pollInterval?: number;
}

/** Immediate answer to a task-augmented request (`CreateTaskResult`, 2025-11-25). */
export interface CreateTaskResult extends Result {
  /** Does not exist in 2025-11-25. */
  resultType?: never;
  task: Task;
}

/** Params of `tasks/get` (both vocabularies; the extension adds the 2026 envelope). */
export interface GetTaskRequestParams extends RequestParams {
  taskId: string;
}

/** Result of `tasks/get` (`GetTaskResult`, 2025-11-25): the task itself. */
export interface GetTaskResult extends Result, Task {}

/** Params of `tasks/result` (`GetTaskPayloadRequest` params, 2025-11-25 only): blocks until the task ends. */
export interface GetTaskPayloadRequestParams extends RequestParams {
  taskId: string;
}

/**
 * Result of `tasks/result` (`GetTaskPayloadResult`, 2025-11-25 only): the original request's result, e.g. a
 * `CallToolResult` for a `tools/call` task.
 */
export interface GetTaskPayloadResult extends Result {
  [key: string]: unknown;
}

/** Params of `tasks/list` (2025-11-25 only). */
export type ListTasksRequestParams = PaginatedRequestParams;

/** Result of `tasks/list` (`ListTasksResult`, 2025-11-25 only). */
export interface ListTasksResult extends PaginatedResult {
  tasks: Task[];
}

/** Params of `tasks/cancel` (both vocabularies). */
export interface CancelTaskRequestParams extends RequestParams {
  taskId: string;
}

/** Result of `tasks/cancel` (`CancelTaskResult`, 2025-11-25): the task after cancellation. */
export interface CancelTaskResult extends Result, Task {}

/** Params of `notifications/tasks/status` (`TaskStatusNotificationParams`, 2025-11-25): the full task. */
export interface TaskStatusNotificationParams extends NotificationParams, Task {}

/**
 * A task of the `io.modelcontextprotocol/tasks` extension (2026-07-28, SEP-2663).
 */
export interface ModernTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  lastUpdatedAt: string;
  /** Retention in ms; `null` = unlimited. */
  ttlMs: number | null;
  /** Suggested polling interval in ms. */
  pollIntervalMs?: number;
}

/**
 * A `tools/call` answered as a task (tasks extension, 2026-07-28): the task, flat, with `resultType: "task"`. Only
 * when the request's client capabilities list the extension.
 */
export interface ModernCreateTaskResult extends Result, ModernTask {
  resultType: 'task';
}

/**
 * Result of `tasks/get` under the tasks extension (2026-07-28): `resultType: "complete"` and a status-specific shape.
 */
export type ModernGetTaskResult = Result & { resultType: 'complete' } & (
    | (ModernTask & { status: 'working' | 'cancelled' })
    | (ModernTask & { status: 'input_required'; inputRequests: InputRequests })
    | (ModernTask & { status: 'completed'; result: CallToolResult })
    | (ModernTask & { status: 'failed'; error: JsonRpcErrorObject })
  );

/**
 * Params of `tasks/update` (tasks extension, 2026-07-28): answers to a task's `inputRequests`. Acknowledged with an
 * empty result; the task catches up eventually.
 */
export interface UpdateTaskRequestParams extends RequestParams {
  taskId: string;
  inputResponses: InputResponses;
}

/**
 * Params of `notifications/tasks` (tasks extension, 2026-07-28): the full task, delivered on a
 * `subscriptions/listen` stream whose filter listed its id in `taskIds`.
 */
export interface ModernTaskNotificationParams extends NotificationParams, ModernTask {}

export type { TaskAugmentedRequestParams, TaskMetadata } from './common.js';
export type { RelatedTaskMetadata } from './meta.js';
