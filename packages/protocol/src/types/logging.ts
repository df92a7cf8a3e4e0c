import type { NotificationParams, RequestParams } from './common.js';
import type { LoggingLevel } from './meta.js';

/**
 * Params of `logging/setLevel` (`SetLevelRequestParams`; needs server `logging`). 2024-11-05 … 2025-11-25 only; in
 * 2026-07-28 the level travels per request in `_meta["io.modelcontextprotocol/logLevel"]`.
 */
export interface SetLevelRequestParams extends RequestParams {
  level: LoggingLevel;
}

/**
 * Params of `notifications/message` (`LoggingMessageNotificationParams`; server `logging`). In 2026-07-28 sent only
 * for a request whose `_meta` set a log level, on that request's response stream (Logging deprecated, SEP-2577).
 */
export interface LoggingMessageNotificationParams extends NotificationParams {
  level: LoggingLevel;
  /** Name of the logger. */
  logger?: string;
  /** Any JSON-serializable data. */
  data: unknown;
}

export type { LoggingLevel } from './meta.js';
