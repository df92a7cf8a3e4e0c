import type { NotificationParams, RequestParams, Result } from './common.js';
import type { MetaObject } from './meta.js';

/**
 * A root directory or file the server may operate on (`Root`). `uri` MUST start with `file://` for now.
 *
 * @example
 * ```ts
 * const root: Root = { uri: 'file:///home/me/project', name: 'project' };
 * ```
 */
export interface Root {
  uri: string;
  name?: string;
  /** 2025-06-18+. */
  _meta?: MetaObject;
}

/** Params of `roots/list` (optional; no envelope even in 2026-07-28, where it is an input request). */
export type ListRootsRequestParams = RequestParams;

/**
 * `roots/list` as a message body: a server→client request up to 2025-11-25 (gated by client `roots`), an
 * {@link InputRequest} in 2026-07-28 (deprecated there, SEP-2577).
 */
export interface ListRootsRequest {
  method: 'roots/list';
  params?: ListRootsRequestParams;
}

/** Result of `roots/list` (`ListRootsResult`). Carries no `resultType`, even in 2026-07-28. */
export interface ListRootsResult extends Result {
  roots: Root[];
}

/**
 * Params of `notifications/roots/list_changed` (client→server; needs client `roots.listChanged`).
 * 2024-11-05 … 2025-11-25 only; removed in 2026-07-28.
 */
export type RootsListChangedNotificationParams = NotificationParams;
