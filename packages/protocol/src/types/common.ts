import type { NotificationMetaObject, RequestMeta, RequestMetaObject, ResultMetaObject } from './meta.js';

/** An opaque pagination cursor (all revisions). */
export type Cursor = string;

/** The sender or recipient of messages and data in a conversation. */
export type Role = 'user' | 'assistant';

/**
 * Common params of every request (`RequestParams`).
 *
 * Era difference: before 2026-07-28 `_meta` (and often `params` itself) is optional; in 2026-07-28 `params` and
 * `params._meta` are required on every request and `_meta` carries the envelope ({@link RequestMetaObject}). Use
 * {@link ModernRequestParams} to type a params object that must carry the envelope.
 */
export interface RequestParams {
  _meta?: RequestMeta;
}

/** Common params of every notification (`NotificationParams`). */
export interface NotificationParams {
  _meta?: NotificationMetaObject;
}

/**
 * What kind of result a 2026-07-28 server returned (`ResultType`): `"complete"`, `"input_required"` (an
 * {@link InputRequiredResult}), or an extension value advertised in capabilities (the tasks extension's `"task"`).
 * A client treats a missing `resultType` (a legacy server) as `"complete"` and an unrecognized one as invalid.
 */
export type ResultType = 'complete' | 'input_required' | (string & {});

/**
 * Common fields of every result (`Result`).
 *
 * Era difference: `resultType` does not exist before 2026-07-28 and is **required** in 2026-07-28. Use
 * {@link ModernResult} for a result that must carry it.
 */
export interface Result {
  /** 2026-07-28: required; absent before (read absence as `"complete"`). */
  resultType?: ResultType;
  _meta?: ResultMetaObject;
}

/** A result with no fields of its own (`EmptyResult`): ping, subscribe/unsubscribe, setLevel, tasks ext acks. */
export type EmptyResult = Result;

/** Params of a paginated list request (`PaginatedRequestParams`). */
export interface PaginatedRequestParams extends RequestParams {
  /** Where to continue; the `nextCursor` of the previous page. */
  cursor?: Cursor;
}

/** Fields of a paginated list result (`PaginatedResult`). */
export interface PaginatedResult extends Result {
  /** Present when more results may follow. */
  nextCursor?: Cursor;
}

/** Who may share a cached result: `"public"` (any authorization context) or `"private"` (this one only). */
export type CacheScope = 'public' | 'private';

/**
 * Caching hints (`CacheableResult`, 2026-07-28, SEP-2549) carried by complete results of `server/discover`,
 * `tools/list`, `prompts/list`, `resources/list`, `resources/templates/list` and `resources/read`.
 *
 * Both fields are required in 2026-07-28 and absent before; a client treats a missing or negative `ttlMs` as 0.
 */
export interface CacheableResult extends Result {
  /** 2026-07-28: how long (ms, >= 0) the result stays fresh after receipt; 0 = immediately stale. */
  ttlMs?: number;
  /** 2026-07-28: whether caches may be shared across authorization contexts. */
  cacheScope?: CacheScope;
}

/**
 * A request params type as a 2026-07-28 request must carry it: `_meta` required and holding the envelope.
 * Distributes over unions.
 *
 * @example
 * ```ts
 * const params: ModernRequestParams<CallToolRequestParams> = {
 *   name: 'get_weather',
 *   arguments: { city: 'Paris' },
 *   _meta: buildRequestMeta({ protocolVersion: '2026-07-28', clientCapabilities: {} }),
 * };
 * ```
 */
export type ModernRequestParams<P extends RequestParams> = P extends unknown
  ? Omit<P, '_meta'> & { _meta: RequestMetaObject }
  : never;

/**
 * A result type as a 2026-07-28 server must send it: `resultType` required (and, for {@link CacheableResult}s,
 * `ttlMs` / `cacheScope` required too). Distributes over unions.
 */
export type ModernResult<R extends Result> = R extends unknown
  ? R & { resultType: NonNullable<R['resultType']> } & ('ttlMs' extends keyof R
        ? { ttlMs: number; cacheScope: CacheScope }
        : unknown)
  : never;

export type { BaseMetadata, Icon, Icons, Implementation } from './implementation.js';

/** Asks for task-augmented execution (`TaskMetadata`, the `task` param; 2025-11-25 only). */
export interface TaskMetadata {
  /** Requested retention in ms. */
  ttl?: number;
}

/**
 * Params that may ask for task-augmented execution (`TaskAugmentedRequestParams`, 2025-11-25 only): `tools/call`,
 * `sampling/createMessage`, `elicitation/create`.
 */
export interface TaskAugmentedRequestParams extends RequestParams {
  /** 2025-11-25 only: run as a task; the receiver answers {@link CreateTaskResult} at once. */
  task?: TaskMetadata;
}
