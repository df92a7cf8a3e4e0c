import type { ClientCapabilities, ServerCapabilities } from './capabilities.js';
import type { CacheableResult, Implementation, NotificationParams, RequestParams, Result } from './common.js';

/**
 * Params of `initialize` (`InitializeRequestParams`). 2024-11-05 … 2025-11-25 only: removed in 2026-07-28
 * (SEP-2575), where every request carries the envelope instead.
 *
 * @example
 * ```ts
 * const params: InitializeRequestParams = {
 *   protocolVersion: '2025-11-25',
 *   capabilities: { roots: { listChanged: true } },
 *   clientInfo: { name: 'my-client', version: '1.0.0' },
 * };
 * ```
 */
export interface InitializeRequestParams extends RequestParams {
  /** The latest version the client supports; the server answers with the version to use. */
  protocolVersion: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
}

/** Result of `initialize` (`InitializeResult`). 2024-11-05 … 2025-11-25 only. */
export interface InitializeResult extends Result {
  /** The negotiated version; the client disconnects if it does not support it. */
  protocolVersion: string;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  /** How to use the server; a client may add it to the model's context. */
  instructions?: string;
}

/** Params of `notifications/initialized` (client→server). 2024-11-05 … 2025-11-25 only. */
export type InitializedNotificationParams = NotificationParams;

/** Params of `ping` (either direction; answered with an empty result). 2024-11-05 … 2025-11-25 only. */
export type PingRequestParams = RequestParams;

/**
 * Params of `server/discover` (2026-07-28+): the envelope only. Servers MUST implement the method.
 */
export type DiscoverRequestParams = RequestParams;

/**
 * Result of `server/discover` (`DiscoverResult`, 2026-07-28+): versions, capabilities and instructions, cacheable.
 *
 * @example
 * ```ts
 * const discovered: DiscoverResult = {
 *   resultType: 'complete',
 *   supportedVersions: ['2026-07-28'],
 *   capabilities: { tools: {} },
 *   ttlMs: 3_600_000,
 *   cacheScope: 'public',
 * };
 * ```
 */
export interface DiscoverResult extends CacheableResult {
  /** Versions the server supports; the client picks one for its next requests. */
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  /** How to use the server. */
  instructions?: string;
}
