import type {
  BaseMetadata,
  CacheableResult,
  Icons,
  PaginatedRequestParams,
  PaginatedResult,
  Result,
} from './common.js';
import type { ContentBlock } from './content.js';
import type { InputResponseRequestParams } from './input-requests.js';
import type { JSONSchemaObject } from './json.js';
import type { MetaObject } from './meta.js';
import type { TaskAugmentedRequestParams } from './tasks.js';

/**
 * Hints about a tool's behaviour (`ToolAnnotations`, 2025-03-26+). Hints only: never trust them from untrusted
 * servers. Display name precedence: `Tool.title`, `annotations.title`, `Tool.name`.
 */
export interface ToolAnnotations {
  title?: string;
  /** Default false. */
  readOnlyHint?: boolean;
  /** Meaningful when not read-only. Default true. */
  destructiveHint?: boolean;
  /** Meaningful when not read-only. Default false. */
  idempotentHint?: boolean;
  /** Default true. */
  openWorldHint?: boolean;
}

/**
 * Execution properties of a tool (`ToolExecution`, 2025-11-25 only; removed in 2026-07-28 with core tasks).
 */
export interface ToolExecution {
  /** Whether `tools/call` may (`optional`), must (`required`) or must not (`forbidden`, default) be task-augmented. */
  taskSupport?: 'forbidden' | 'optional' | 'required';
}

/**
 * A tool's input schema: a JSON Schema object whose root `type` is `"object"` (all revisions).
 *
 * - Up to 2025-06-18 only `properties` / `required` are described; 2025-11-25 adds `$schema` and the 2020-12 default
 *   dialect (SEP-1613); 2026-07-28 allows any 2020-12 keyword (SEP-2106).
 * - 2026-07-28: a property may declare `"x-mcp-header": "Name"` to be mirrored in an `Mcp-Param-Name` HTTP header
 *   (see `validateMcpHeaderDeclarations`).
 */
export interface ToolInputSchema extends JSONSchemaObject {
  type: 'object';
}

/**
 * A tool's output schema (`Tool.outputSchema`, 2025-06-18+). A root `type: "object"` schema up to 2025-11-25; any
 * 2020-12 schema in 2026-07-28.
 */
export type ToolOutputSchema = JSONSchemaObject;

/**
 * A tool the client can call (`Tool`).
 *
 * - `annotations`: 2025-03-26+. `title`, `outputSchema`, `_meta`: 2025-06-18+. `icons`: 2025-11-25+.
 * - `execution`: 2025-11-25 only.
 * - Names SHOULD follow SEP-986 (2025-11-25+): see `validateToolName`.
 *
 * @example
 * ```ts
 * const tool: Tool = {
 *   name: 'get_weather',
 *   description: 'Current weather for a city',
 *   inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
 * };
 * ```
 */
export interface Tool extends BaseMetadata, Icons {
  description?: string;
  inputSchema: ToolInputSchema;
  /** 2025-06-18+: schema of `CallToolResult.structuredContent`. */
  outputSchema?: ToolOutputSchema;
  /** 2025-03-26+. */
  annotations?: ToolAnnotations;
  /** 2025-11-25 only. */
  execution?: ToolExecution;
  _meta?: MetaObject;
}

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
