import { JsonRpcError, JsonRpcErrorCode } from '@mcpkit/jsonrpc-core';
import { invalidParamsError } from '@mcpkit/protocol';
import { TaskStoreError } from '../task-store';

/**
 * -32602 for a task id this requestor cannot see: none, expired, or another identity's (never told apart, so an id
 * cannot be probed for existence).
 */
export function taskNotFoundError(taskId: unknown): JsonRpcError {
  return invalidParamsError('Failed to retrieve task: Task not found (unknown, expired, or not yours)', { taskId });
}

/** The JSON-RPC error a refused `create` becomes. */
export function storeRefusal(error: unknown): unknown {
  if (!TaskStoreError.is(error)) return error;
  switch (error.code) {
    case 'ERR_TASK_LIMIT':
    case 'ERR_STORE_FULL':
      // The spec names no code for resource limits; -32600 says "this request cannot be accepted as sent".
      return new JsonRpcError(JsonRpcErrorCode.InvalidRequest, error.message, {
        reason: error.code === 'ERR_TASK_LIMIT' ? 'task_limit' : 'store_full',
        ...error.data,
      });
    case 'ERR_INVALID_CURSOR':
      return invalidParamsError(error.message, error.data);
    default:
      return new JsonRpcError(JsonRpcErrorCode.InternalError, error.message, { reason: error.code });
  }
}
