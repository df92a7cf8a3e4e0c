import type { RequestId } from '@mcpkit/jsonrpc-core';
import type { ClientCapabilities } from './capabilities.js';
import type { Implementation } from './implementation.js';

/**
 * A progress token: set it in a request's `_meta.progressToken` to ask for `notifications/progress` about that
 * request (all revisions).
 */
export type ProgressToken = string | number;

/**
 * The contents of any `_meta` field (`MetaObject` in 2026-07-28; an open object before). Keys follow the `_meta` key
 * grammar (see `parseMetaKey`); keys under `io.modelcontextprotocol/` and other reserved prefixes belong to the spec.
 */
export interface MetaObject {
  [key: string]: unknown;
}

/**
 * A request's `_meta`, as one type for every revision: every key is optional here.
 *
 * - 2024-11-05 … 2025-11-25: only `progressToken` is defined (plus `io.modelcontextprotocol/related-task` for
 *   task-related messages in 2025-11-25); `_meta` itself is optional.
 * - 2026-07-28: `_meta` is required on every request and must carry `io.modelcontextprotocol/protocolVersion` and
 *   `io.modelcontextprotocol/clientCapabilities` (see {@link RequestMetaObject}); `clientInfo` SHOULD be present.
 */
export interface RequestMeta extends MetaObject {
  /** Asks the receiver for `notifications/progress` about this request. */
  progressToken?: ProgressToken;
  /** 2026-07-28: the protocol version of this request (required there; equals the `MCP-Protocol-Version` header on HTTP). */
  'io.modelcontextprotocol/protocolVersion'?: string;
  /** 2026-07-28: the client's capabilities for this request (required there; `{}` = none). */
  'io.modelcontextprotocol/clientCapabilities'?: ClientCapabilities;
  /** 2026-07-28: the client software (SHOULD be present; self-reported, never used for security decisions). */
  'io.modelcontextprotocol/clientInfo'?: Implementation;
  /** 2026-07-28: the log level wanted for this request; absent means the server sends no `notifications/message`. */
  'io.modelcontextprotocol/logLevel'?: LoggingLevel;
  /** 2025-11-25: associates a message with a task (core tasks). */
  'io.modelcontextprotocol/related-task'?: RelatedTaskMetadata;
  /** W3C Trace Context `traceparent` (2026-07-28, SEP-414). */
  traceparent?: string;
  /** W3C Trace Context `tracestate` (2026-07-28, SEP-414). */
  tracestate?: string;
  /** W3C Baggage (2026-07-28, SEP-414). */
  baggage?: string;
}

/**
 * The per-request `_meta` envelope of 2026-07-28 (`RequestMetaObject`): protocol version and client capabilities are
 * required on every request. Build one with `buildRequestMeta`, read one with `readRequestEnvelope`.
 *
 * @example
 * ```ts
 * const meta: RequestMetaObject = {
 *   'io.modelcontextprotocol/protocolVersion': '2026-07-28',
 *   'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
 *   'io.modelcontextprotocol/clientInfo': { name: 'my-client', version: '1.0.0' },
 * };
 * ```
 */
export interface RequestMetaObject extends RequestMeta {
  'io.modelcontextprotocol/protocolVersion': string;
  'io.modelcontextprotocol/clientCapabilities': ClientCapabilities;
}

/**
 * A result's `_meta` (`ResultMetaObject` in 2026-07-28). `io.modelcontextprotocol/serverInfo` SHOULD be on every
 * 2026-07-28 result; older revisions carry server info only in `InitializeResult.serverInfo`.
 */
export interface ResultMetaObject extends MetaObject {
  /** 2026-07-28: the server software that produced this result. */
  'io.modelcontextprotocol/serverInfo'?: Implementation;
  /** 2025-11-25: associates a result with a task (core tasks). */
  'io.modelcontextprotocol/related-task'?: RelatedTaskMetadata;
}

/**
 * A notification's `_meta` (`NotificationMetaObject` in 2026-07-28).
 */
export interface NotificationMetaObject extends MetaObject {
  /**
   * 2026-07-28: the id of the `subscriptions/listen` request whose stream carries this notification (verbatim, string
   * or number). Present on every notification delivered on a listen stream.
   */
  'io.modelcontextprotocol/subscriptionId'?: RequestId;
  /** 2025-11-25: associates a notification with a task (core tasks). */
  'io.modelcontextprotocol/related-task'?: RelatedTaskMetadata;
}

/**
 * Log severity, per RFC 5424 (`LoggingLevel`), ordered from least to most severe: debug, info, notice, warning,
 * error, critical, alert, emergency.
 */
export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/**
 * Associates a message with a task: `_meta["io.modelcontextprotocol/related-task"]` (`RelatedTaskMetadata`,
 * 2025-11-25).
 */
export interface RelatedTaskMetadata {
  taskId: string;
}
