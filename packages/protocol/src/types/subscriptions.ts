import type { RequestId } from '@mcpkit/jsonrpc-core';
import type { NotificationParams, RequestParams, Result } from './common.js';
import type { ResultMetaObject } from './meta.js';

/**
 * What a `subscriptions/listen` stream should carry (`SubscriptionFilter`, 2026-07-28). Opt-in only: a server never
 * sends a type not asked for, and honours each key only with the matching capability (see
 * `honouredSubscriptionFilter`).
 *
 * @example
 * ```ts
 * const filter: SubscriptionFilter = { toolsListChanged: true, resourceSubscriptions: ['file:///log.txt'] };
 * ```
 */
export interface SubscriptionFilter {
  /** `notifications/tools/list_changed`; needs server `tools.listChanged`. */
  toolsListChanged?: boolean;
  /** `notifications/prompts/list_changed`; needs server `prompts.listChanged`. */
  promptsListChanged?: boolean;
  /** `notifications/resources/list_changed`; needs server `resources.listChanged`. */
  resourcesListChanged?: boolean;
  /** `notifications/resources/updated` for these URIs; needs server `resources.subscribe`. */
  resourceSubscriptions?: string[];
  /** Tasks extension: `notifications/tasks` for these task ids; needs the `io.modelcontextprotocol/tasks` extension. */
  taskIds?: string[];
}

/** Params of `subscriptions/listen` (`SubscriptionsListenRequestParams`, 2026-07-28). */
export interface SubscriptionsListenRequestParams extends RequestParams {
  notifications: SubscriptionFilter;
}

/** `_meta` of a {@link SubscriptionsListenResult} (`SubscriptionsListenResultMetaObject`). */
export interface SubscriptionsListenResultMetaObject extends ResultMetaObject {
  /** The id of the listen request this result closes. */
  'io.modelcontextprotocol/subscriptionId': RequestId;
}

/**
 * Result of `subscriptions/listen` (`SubscriptionsListenResult`, 2026-07-28): sent only when the server ends the
 * subscription gracefully; an abrupt close sends nothing.
 */
export interface SubscriptionsListenResult extends Result {
  _meta: SubscriptionsListenResultMetaObject;
}

/**
 * Params of `notifications/subscriptions/acknowledged` (`SubscriptionsAcknowledgedNotificationParams`,
 * 2026-07-28): the first message of every listen stream, with the honoured subset of the filter.
 */
export interface SubscriptionsAcknowledgedNotificationParams extends NotificationParams {
  notifications: SubscriptionFilter;
}
