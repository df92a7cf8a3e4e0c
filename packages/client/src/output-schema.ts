import { type Schema, type SchemaDraft, Validator } from '@cfworker/json-schema';
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

// Compiled validators, per schema object: a tool definition's schema is validated many times, compiled once.
const validators = new WeakMap<object, Validator>();

function draftOf(schema: ToolOutputSchema): SchemaDraft {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('draft-07') || declared.includes('draft-06')) return '7';
  if (declared.includes('draft-04')) return '4';
  if (declared.includes('2019-09')) return '2019-09';
  // MCP's default dialect is 2020-12 (SEP-1613, SEP-2106).
  return '2020-12';
}

function validatorFor(schema: ToolOutputSchema): Validator {
  if (typeof schema !== 'object' || schema === null)
    return new Validator(schema as unknown as boolean, '2020-12', false);
  let validator = validators.get(schema);
  if (validator === undefined) {
    // Short-circuit off: the caller wants every issue, not just the first.
    validator = new Validator(schema as Schema, draftOf(schema), false);
    validators.set(schema, validator);
  }
  return validator;
}

/**
 * Checks a `tools/call` result's `structuredContent` against the tool's `outputSchema` (skipped when `isError`).
 * Throws `ERR_INVALID_STRUCTURED_CONTENT` when it is missing or does not match, `ERR_INVALID_OUTPUT_SCHEMA` when the
 * schema cannot be evaluated (an unresolved `$ref` — network references are never fetched).
 */
export function checkStructuredContent(
  toolName: string,
  schema: ToolOutputSchema,
  result: { structuredContent?: unknown; isError?: boolean },
): void {
  if (result.isError === true) return;
  if (result.structuredContent === undefined) {
    throw new McpClientError(
      'ERR_INVALID_STRUCTURED_CONTENT',
      `Tool "${toolName}" declares an outputSchema but its result has no structuredContent`,
      { tool: toolName, issues: [] },
    );
  }
  let outcome: ReturnType<Validator['validate']>;
  try {
    outcome = validatorFor(schema).validate(result.structuredContent);
  } catch (error) {
    throw new McpClientError(
      'ERR_INVALID_OUTPUT_SCHEMA',
      `Tool "${toolName}" has an outputSchema that cannot be evaluated: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      { tool: toolName, outputSchema: schema },
      { cause: error },
    );
  }
  if (outcome.valid) return;
  const issues: StructuredContentIssue[] = outcome.errors.map((unit) => ({
    instanceLocation: unit.instanceLocation,
    keyword: unit.keyword,
    error: unit.error,
  }));
  const shown = issues
    .slice(0, 5)
    .map((issue) => `${issue.instanceLocation}: ${issue.error}`)
    .join('; ');
  throw new McpClientError(
    'ERR_INVALID_STRUCTURED_CONTENT',
    `Tool "${toolName}" returned structuredContent that does not match its outputSchema: ${shown}`,
    { tool: toolName, issues, structuredContent: result.structuredContent },
  );
}
