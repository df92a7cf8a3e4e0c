import { defineCodedError } from '@mcpkit/jsonrpc-core';

/** Thrown by `TasksClient` and `TaskHandle`. */
export class TaskClientError extends defineCodedError<
  /** The server answered with something that is not a task. */
  | 'ERR_INVALID_TASK'
  /** The task was cancelled, so it has no result. */
  | 'ERR_TASK_CANCELLED'
  /** The task failed without a JSON-RPC error to show for it. */
  | 'ERR_TASK_FAILED'
  /** What was asked does not exist in the connection's protocol revision (`tasks/list` on 2026-07-28). */
  | 'ERR_NOT_IN_REVISION'
>('TaskClientError', '@mcpkit/tasks/TaskClientError') {}
