import type { RequestId } from '@mcpkit/jsonrpc-core';
import type { NotificationParams } from './common.js';

/**
 * Params of `notifications/cancelled` (`CancelledNotificationParams`).
 *
 * - Up to 2025-11-25: either direction, for a request previously sent in the same direction; `requestId` is
 *   optional in the 2025-11-25 schema (tasks are cancelled with `tasks/cancel` instead).
 * - 2026-07-28: `requestId` required. Client→server on stdio (on HTTP, closing the response stream is the cancel);
 *   server→client only to end a `subscriptions/listen` stream on stdio.
 */
export interface CancelledNotificationParams extends NotificationParams {
  /** The id of the request to cancel. Required except in 2025-11-25. */
  requestId?: RequestId;
  /** Why; may be logged or shown. */
  reason?: string;
}
