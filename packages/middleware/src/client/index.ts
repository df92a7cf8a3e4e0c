// @mcpkit/middleware/client: client middleware — tool-call approval and retries of idempotent requests.

export {
  type ApprovalOptions,
  approval,
  type ToolCallApprovalRequest,
  ToolCallDeniedError,
  type ToolCallDeniedErrorData,
} from './approval';
export { IDEMPOTENT_METHODS, isTransientError, type RetriesOptions, retries } from './retries';
