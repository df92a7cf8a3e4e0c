import type { NotificationMetaObject, RequestMeta, RequestMetaObject, ResultMetaObject } from './meta.js';

/** An opaque pagination cursor (all revisions). */
export type Cursor = string;

/** The sender or recipient of messages and data in a conversation. */
export type Role = 'user' | 'assistant';

/**
 * A name for programs and a title for people (`BaseMetadata`). `title` exists from 2025-06-18; before it, `name`
 * doubled as the display name.
 */
export interface BaseMetadata {
  /** For programmatic use; also the display fallback when `title` is absent. */
  name: string;
  /** 2025-06-18+: a human-readable display name. */
  title?: string;
}

/**
 * An icon a client may show (`Icon`, 2025-11-25+, SEP-973).
 *
 * @example
 * ```ts
 * const icon: Icon = { src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'light' };
 * ```
 */
export interface Icon {
  /** An http(s) URL or a `data:` URI. Consumers SHOULD check the origin before fetching. */
  src: string;
  /** Overrides a missing or generic source MIME type. */
  mimeType?: string;
  /** `WxH` strings such as `"48x48"`, or `"any"` for scalable formats. */
  sizes?: string[];
  /** The background the icon is designed for. */
  theme?: 'light' | 'dark';
}

/** Mixin for objects that carry icons (`Icons`, 2025-11-25+). */
export interface Icons {
  /** 2025-11-25+: icons a client may display. */
  icons?: Icon[];
}

/**
 * Describes an MCP implementation: `clientInfo` / `serverInfo` (`Implementation`).
 *
 * - 2024-11-05 / 2025-03-26: `name` and `version` only.
 * - 2025-06-18: + `title`.
 * - 2025-11-25+: + `description`, `websiteUrl`, `icons`.
 *
 * @example
 * ```ts
 * const serverInfo: Implementation = { name: 'weather', version: '1.2.0', title: 'Weather' };
 * ```
 */
export interface Implementation extends BaseMetadata, Icons {
  version: string;
  /** 2025-11-25+: what this implementation does. */
  description?: string;
  /** 2025-11-25+: the implementation's website. */
  websiteUrl?: string;
}

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
