import type { ToolOutputSchema } from '@mcpkit/protocol';
import { McpClientError } from './errors';

/** One problem found in `structuredContent`. */
export interface StructuredContentIssue {
  /** JSON pointer into `structuredContent`, e.g. `#/temperature`. */
  instanceLocation: string;
  /** The schema keyword that failed, e.g. `type`. */
  keyword: string;
  error: string;
}

/**
 * Checks `value` against a tool's `outputSchema`: returns every issue found (`[]` when it matches), and throws when the
 * schema cannot be evaluated (e.g. an unresolved `$ref`). `jsonSchemaValidator` (@cfworker/json-schema) is the one
 * `Client` uses; bring another (Ajv, …) through the `jsonSchema` option.
 *
 * @example
 * ```ts
 * const ajv = new Ajv({ allErrors: true });
 * const viaAjv: JsonSchemaValidator = (schema, value) => {
 *   const validate = ajv.compile(schema);
 *   return validate(value) ? [] : (validate.errors ?? []).map((e) => ({ instanceLocation: `#${e.instancePath}`, keyword: e.keyword, error: e.message ?? '' }));
 * };
 * ```
 */
export type JsonSchemaValidator = (schema: ToolOutputSchema, value: unknown) => readonly StructuredContentIssue[];

/**
 * Checks a `tools/call` result's `structuredContent` against the tool's `outputSchema` (skipped when `isError`).
 * Throws `ERR_INVALID_STRUCTURED_CONTENT` when it is missing or does not match, `ERR_INVALID_OUTPUT_SCHEMA` when the
 * schema cannot be evaluated (an unresolved `$ref` — network references are never fetched), and
 * `ERR_NO_JSON_SCHEMA_VALIDATOR` when the client was created without a validator.
 */
export function checkStructuredContent(
  toolName: string,
  schema: ToolOutputSchema,
  result: { structuredContent?: unknown; isError?: boolean },
  validate: JsonSchemaValidator | undefined,
): void {
  if (result.isError === true) return;
  if (result.structuredContent === undefined) {
    throw new McpClientError(
      'ERR_INVALID_STRUCTURED_CONTENT',
      `Tool "${toolName}" declares an outputSchema but its result has no structuredContent`,
      { tool: toolName, issues: [] },
    );
  }
  if (validate === undefined) {
    throw new McpClientError(
      'ERR_NO_JSON_SCHEMA_VALIDATOR',
      `Tool "${toolName}" has an outputSchema, and this client was created without a JSON Schema validator to check its structuredContent: pass { jsonSchema: jsonSchemaValidator } (from @mcpkit/client) to LeanClient, or use Client`,
      { tool: toolName, structuredContent: result.structuredContent },
    );
  }
  let issues: readonly StructuredContentIssue[];
  try {
    issues = validate(schema, result.structuredContent);
  } catch (error) {
    throw new McpClientError(
      'ERR_INVALID_OUTPUT_SCHEMA',
      `Tool "${toolName}" has an outputSchema that cannot be evaluated: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      { tool: toolName, outputSchema: schema },
      { cause: error },
    );
  }
  if (issues.length === 0) return;
  const shown = issues
    .slice(0, 5)
    .map((issue) => `${issue.instanceLocation}: ${issue.error}`)
    .join('; ');
  throw new McpClientError(
    'ERR_INVALID_STRUCTURED_CONTENT',
    `Tool "${toolName}" returned structuredContent that does not match its outputSchema: ${shown}`,
    { tool: toolName, issues: [...issues], structuredContent: result.structuredContent },
  );
}
