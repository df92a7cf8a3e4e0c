import type {
  CacheableResult,
  PaginatedRequestParams,
  PaginatedResult,
  Result,
  TaskAugmentedRequestParams,
} from './common.js';
import type { ContentBlock } from './content.js';
import type { InputResponseRequestParams } from './input-requests.js';
import type { Tool } from './tool-definition.js';

/** Params of `tools/list`. */
export type ListToolsRequestParams = PaginatedRequestParams;

/** Result of `tools/list` (`ListToolsResult`); cacheable in 2026-07-28, where the order SHOULD be deterministic. */
export interface ListToolsResult extends PaginatedResult, CacheableResult {
  tools: Tool[];
}

/**
 * Params of `tools/call` (`CallToolRequestParams`).
 *
 * - 2025-11-25: `task` asks for task-augmented execution (server `tasks.requests.tools.call`).
 * - 2026-07-28: `_meta` envelope required; a retry after `InputRequiredResult` carries `inputResponses` /
 *   `requestState`.
 *
 * @example
 * ```ts
 * const params: CallToolRequestParams = { name: 'get_weather', arguments: { city: 'Paris' } };
 * ```
 */
export interface CallToolRequestParams extends InputResponseRequestParams, TaskAugmentedRequestParams {
  name: string;
  arguments?: { [key: string]: unknown };
}

/**
 * Result of `tools/call` (`CallToolResult`). Tool failures are results with `isError: true`, not protocol errors
 * (input-validation failures too, from 2025-11-25, SEP-1303).
 *
 * - 2024-11-05: text/image/resource content. 2025-03-26: + audio. 2025-06-18+: any `ContentBlock`.
 * - `structuredContent`: 2025-06-18+; an object up to 2025-11-25, any JSON value in 2026-07-28.
 * - 2026-07-28: `resultType: "complete"` required; the server may instead answer `InputRequiredResult` (or, with the
 *   tasks extension, a task).
 */
export interface CallToolResult extends Result {
  resultType?: 'complete';
  content: ContentBlock[];
  /** 2025-06-18+. Should conform to the tool's `outputSchema` when it has one. */
  structuredContent?: unknown;
  /** Default false. */
  isError?: boolean;
}

export type { Tool, ToolAnnotations, ToolExecution, ToolInputSchema, ToolOutputSchema } from './tool-definition.js';
