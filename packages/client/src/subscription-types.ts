// What a subscription is, to its owner: a leaf module, so the subscription manager and the 2026-07-28 listen stream
// both use these types without importing each other.
import type { NotificationParams, ResourceUpdatedNotificationParams } from '@mcpkit/protocol';

/** What a subscription asks for, in either era. */
export interface SubscribeFilter {
  /** `notifications/tools/list_changed`. */
  toolsListChanged?: boolean;
  /** `notifications/prompts/list_changed`. */
  promptsListChanged?: boolean;
  /** `notifications/resources/list_changed`. */
  resourcesListChanged?: boolean;
  /** `notifications/resources/updated` for these URIs. */
  resources?: string[];
  /**
   * 2026-07-28 with the tasks extension (`io.modelcontextprotocol/tasks`): `notifications/tasks` for these task ids.
   * They reach `client.setNotificationHandler('notifications/tasks', …)` (what `@mcpkit/tasks` listens to), not the
   * subscription callback. Ignored by legacy servers, which push `notifications/tasks/status` unasked.
   */
  taskIds?: string[];
}

/** A notification delivered to a subscription. */
export type SubscriptionNotification =
  | { method: 'notifications/tools/list_changed'; params: NotificationParams | undefined }
  | { method: 'notifications/prompts/list_changed'; params: NotificationParams | undefined }
  | { method: 'notifications/resources/list_changed'; params: NotificationParams | undefined }
  | { method: 'notifications/resources/updated'; params: ResourceUpdatedNotificationParams };

/** Why a subscription ended. */
export interface SubscriptionEnd {
  /**
   * `client`: `close()` was called; `server`: the server ended it (a `subscriptions/listen` result or a
   * `notifications/cancelled` naming it); `connection`: the connection closed or the listen request failed.
   */
  by: 'client' | 'server' | 'connection';
  /** What ended it, when it was an error. */
  error?: Error;
}

/**
 * A live subscription (see `client.subscribe`). In 2026-07-28 it is one `subscriptions/listen` stream; in older
 * revisions, `resources/subscribe` calls plus list-changed notification listeners.
 */
export interface Subscription {
  /** The part of the filter the server honours (2026-07-28: what it acknowledged; before: what it declared). */
  readonly honoured: SubscribeFilter;
  /** 2026-07-28: the id of the `subscriptions/listen` request (the `subscriptionId` of its notifications). */
  readonly id: string | number | undefined;
  /** Settles when the subscription ends, for whatever reason. Never rejects. */
  readonly ended: Promise<SubscriptionEnd>;
  /** Ends the subscription: cancels the listen stream, or unsubscribes the resources no other subscription needs. */
  close(): Promise<void>;
}
