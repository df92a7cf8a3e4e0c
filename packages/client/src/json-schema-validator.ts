import { type Schema, type SchemaDraft, Validator } from '@cfworker/json-schema';
import type { ToolOutputSchema } from '@mcpkit/protocol';
import type { JsonSchemaValidator, StructuredContentIssue } from './output-schema';

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
 * The JSON Schema validator `Client` checks `structuredContent` with (@cfworker/json-schema): 2020-12 unless the
 * schema's `$schema` names draft-04, draft-06/07 or 2019-09; compiled once per schema object; network `$ref`s are never
 * fetched (an unresolved one throws). Pass it to `LeanClient` to get the same checks there.
 *
 * @example
 * ```ts
 * import { jsonSchemaValidator, LeanClient } from '@mcpkit/client';
 * const client = new LeanClient({ name: 'app', version: '1.0.0' }, { jsonSchema: jsonSchemaValidator });
 * ```
 */
export const jsonSchemaValidator: JsonSchemaValidator = (schema, value) => {
  const outcome = validatorFor(schema).validate(value);
  if (outcome.valid) return [];
  return outcome.errors.map(
    (unit): StructuredContentIssue => ({
      instanceLocation: unit.instanceLocation,
      keyword: unit.keyword,
      error: unit.error,
    }),
  );
};
