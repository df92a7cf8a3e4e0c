import type { RequestParams, Result, Role, TaskAugmentedRequestParams } from './common.js';
import type { AudioContent, ImageContent, SamplingMessageContentBlock, TextContent } from './content.js';
import type { JSONObject } from './json.js';
import type { MetaObject } from './meta.js';
import type { Tool } from './tool-definition.js';

/** A hint for model selection (`ModelHint`): `name` is matched as a substring of model names. */
export interface ModelHint {
  name?: string;
}

/**
 * The server's model preferences for sampling (`ModelPreferences`); the client MAY ignore them. Priorities are
 * 0 … 1.
 */
export interface ModelPreferences {
  /** Evaluated in order; the first match wins. */
  hints?: ModelHint[];
  costPriority?: number;
  speedPriority?: number;
  intelligencePriority?: number;
}

/**
 * Which MCP context the client should attach (`includeContext`). `"thisServer"` / `"allServers"` are
 * soft-deprecated in 2025-11-25 and Deprecated in 2026-07-28; from 2025-11-25 they need client `sampling.context`.
 */
export type IncludeContext = 'none' | 'thisServer' | 'allServers';

/**
 * How the model may use tools in sampling (`ToolChoice`, 2025-11-25+). `"auto"` is the default.
 */
export interface ToolChoice {
  mode?: 'auto' | 'required' | 'none';
}

/**
 * A message to or from a model (`SamplingMessage`).
 *
 * - 2024-11-05: text or image. 2025-03-26+: + audio.
 * - 2025-11-25+: + tool_use / tool_result and arrays of blocks; `_meta`.
 */
export interface SamplingMessage {
  role: Role;
  content: SamplingMessageContentBlock | SamplingMessageContentBlock[];
  _meta?: MetaObject;
}

/**
 * Params of `sampling/createMessage` (`CreateMessageRequestParams`).
 *
 * - `tools` / `toolChoice` (2025-11-25+) need client `sampling.tools`; `includeContext` other than `"none"` needs
 *   `sampling.context` (2025-11-25+).
 * - `task` (2025-11-25 only) asks for task-augmented execution (client `tasks.requests.sampling.createMessage`).
 * - 2026-07-28: an input request (deprecated, SEP-2577) without `_meta`.
 *
 * @example
 * ```ts
 * const params: CreateMessageRequestParams = {
 *   messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }],
 *   maxTokens: 100,
 * };
 * ```
 */
export interface CreateMessageRequestParams extends RequestParams, TaskAugmentedRequestParams {
  messages: SamplingMessage[];
  modelPreferences?: ModelPreferences;
  systemPrompt?: string;
  includeContext?: IncludeContext;
  temperature?: number;
  /** Upper bound of tokens to sample. */
  maxTokens: number;
  stopSequences?: string[];
  /** Provider-specific metadata passed through to the model provider. */
  metadata?: JSONObject;
  /** 2025-11-25+: tools the model may use; needs client `sampling.tools`. */
  tools?: Tool[];
  /** 2025-11-25+: how the model may use `tools`; needs client `sampling.tools`. */
  toolChoice?: ToolChoice;
}

/**
 * `sampling/createMessage` as a message body: a server→client request up to 2025-11-25, an `InputRequest` in
 * 2026-07-28.
 */
export interface CreateMessageRequest {
  method: 'sampling/createMessage';
  params: CreateMessageRequestParams;
}

/**
 * Why sampling stopped: `"endTurn"`, `"stopSequence"`, `"maxTokens"`, `"toolUse"` (2025-11-25+) or a
 * provider-specific value.
 */
export type StopReason = 'endTurn' | 'stopSequence' | 'maxTokens' | 'toolUse' | (string & {});

/**
 * Result of `sampling/createMessage` (`CreateMessageResult`). Carries no `resultType`, even in 2026-07-28.
 *
 * - 2024-11-05: text or image content. 2025-03-26+: + audio.
 * - 2025-11-25+: tool_use / tool_result blocks and arrays of blocks.
 */
export interface CreateMessageResult extends Result {
  role: Role;
  content: TextContent | ImageContent | AudioContent | SamplingMessageContentBlock | SamplingMessageContentBlock[];
  /** The model that produced the message. */
  model: string;
  stopReason?: StopReason;
}
