import type {
  BaseMetadata,
  CacheableResult,
  Icons,
  NotificationParams,
  PaginatedRequestParams,
  PaginatedResult,
  RequestParams,
} from './common.js';
import type { Annotations, BlobResourceContents, Resource, TextResourceContents } from './content.js';
import type { InputResponseRequestParams } from './input-requests.js';
import type { MetaObject } from './meta.js';

/** An RFC 6570 URI template describing a family of resources (`ResourceTemplate`). */
export interface ResourceTemplate extends BaseMetadata, Icons {
  uriTemplate: string;
  description?: string;
  /** Only when every matching resource has this type. */
  mimeType?: string;
  annotations?: Annotations;
  _meta?: MetaObject;
}

/** Params of `resources/list` (`PaginatedRequestParams`). */
export type ListResourcesRequestParams = PaginatedRequestParams;

/** Result of `resources/list` (`ListResourcesResult`); cacheable in 2026-07-28. */
export interface ListResourcesResult extends PaginatedResult, CacheableResult {
  resources: Resource[];
}

/** Params of `resources/templates/list`. */
export type ListResourceTemplatesRequestParams = PaginatedRequestParams;

/** Result of `resources/templates/list` (`ListResourceTemplatesResult`); cacheable in 2026-07-28. */
export interface ListResourceTemplatesResult extends PaginatedResult, CacheableResult {
  resourceTemplates: ResourceTemplate[];
}

/** Common params of resource requests (`ResourceRequestParams`). */
export interface ResourceRequestParams extends RequestParams {
  uri: string;
}

/**
 * Params of `resources/read` (`ReadResourceRequestParams`). In 2026-07-28 a retry after an
 * `InputRequiredResult` also carries `inputResponses` / `requestState`.
 */
export interface ReadResourceRequestParams extends ResourceRequestParams, InputResponseRequestParams {}

/**
 * Result of `resources/read` (`ReadResourceResult`); cacheable in 2026-07-28, where the server may instead answer
 * with an `InputRequiredResult`. A missing resource is -32602 in 2026-07-28 and -32002 before.
 */
export interface ReadResourceResult extends CacheableResult {
  resultType?: 'complete';
  contents: Array<TextResourceContents | BlobResourceContents>;
}

/**
 * Params of `resources/subscribe` (`SubscribeRequestParams`). 2024-11-05 … 2025-11-25 only; 2026-07-28 replaced it
 * with `subscriptions/listen` and `SubscriptionFilter.resourceSubscriptions`.
 */
export interface SubscribeRequestParams extends ResourceRequestParams {}

/** Params of `resources/unsubscribe` (`UnsubscribeRequestParams`). 2024-11-05 … 2025-11-25 only. */
export interface UnsubscribeRequestParams extends ResourceRequestParams {}

/**
 * Params of `notifications/resources/updated` (`ResourceUpdatedNotificationParams`). The `uri` may be a sub-resource
 * of the one subscribed to.
 */
export interface ResourceUpdatedNotificationParams extends NotificationParams {
  uri: string;
}

export type { BlobResourceContents, Resource, ResourceContents, TextResourceContents } from './content.js';
