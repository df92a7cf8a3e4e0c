// A tool's definition as `tools/list` carries it: name, schemas, annotations, execution. A module apart from the
// `tools/*` messages so sampling (which passes tool definitions) does not depend on the messages.
import type { BaseMetadata, Icons } from './implementation.js';
import type { JSONSchemaObject } from './json.js';
import type { MetaObject } from './meta.js';

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
