// The wire forms of a stored task: what `tasks/get`, `tasks/list`, status notifications and a created task are answered
// with, in each era's vocabulary.
import type { ModernTask, Task } from '@mcpkit/protocol';
import type { TaskRecord } from './task-record';

function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** The 2025-11-25 `Task` of a record (`ttl`, `pollInterval`). */
export function legacyTask(record: TaskRecord): Task {
  const task: Task = {
    taskId: record.taskId,
    status: record.status,
    createdAt: isoTime(record.createdAt),
    lastUpdatedAt: isoTime(record.lastUpdatedAt),
    ttl: record.ttlMs,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  if (record.pollIntervalMs !== undefined) task.pollInterval = record.pollIntervalMs;
  return task;
}

/** The 2026-07-28 `Task` of a record (`ttlMs`, `pollIntervalMs`), without status-specific fields. */
export function modernTask(record: TaskRecord): ModernTask {
  const task: ModernTask = {
    taskId: record.taskId,
    status: record.status,
    createdAt: isoTime(record.createdAt),
    lastUpdatedAt: isoTime(record.lastUpdatedAt),
    ttlMs: record.ttlMs,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  if (record.pollIntervalMs !== undefined) task.pollIntervalMs = record.pollIntervalMs;
  return task;
}

/**
 * The 2026-07-28 detailed task (`tasks/get`, `notifications/tasks`): `input_required` carries `inputRequests`,
 * `completed` its `result`, `failed` its `error`.
 */
export function detailedModernTask(record: TaskRecord): Record<string, unknown> {
  const task: Record<string, unknown> = { ...modernTask(record) };
  switch (record.status) {
    case 'input_required':
      task.inputRequests = record.inputRequests ?? {};
      break;
    case 'completed':
      // The inlined result is the one the call would have had: complete, in 2026-07-28 terms.
      task.result = { content: [], ...record.result, resultType: 'complete' };
      break;
    case 'failed':
      task.error = record.error ?? { code: -32603, message: record.statusMessage ?? 'The task failed' };
      break;
    default:
      break;
  }
  return task;
}
