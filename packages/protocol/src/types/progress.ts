import type { NotificationParams } from './common.js';
import type { ProgressToken } from './meta.js';

/**
 * Params of `notifications/progress` (`ProgressNotificationParams`): progress of the request that set
 * `_meta.progressToken`. Either direction up to 2025-11-25; server→client only in 2026-07-28, on the request's own
 * response stream.
 */
export interface ProgressNotificationParams extends NotificationParams {
  progressToken: ProgressToken;
  /** Progress so far; increases with each notification. */
  progress: number;
  /** Total, if known. */
  total?: number;
  /** 2025-03-26+: a human-readable progress message. */
  message?: string;
}
