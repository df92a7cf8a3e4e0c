import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';

type Value = Record<string, unknown>;

/** A Standard Schema that also describes itself as JSON Schema (Standard JSON Schema). */
export type PassThroughSchema = StandardSchemaV1<Value> & {
  readonly '~standard': StandardSchemaV1.Props<Value> & StandardJSONSchemaV1.Props<Value>;
};

/**
 * A Standard Schema (with Standard JSON Schema) that describes itself as the upstream's JSON Schema and accepts every
 * value: the upstream validates its own arguments and results, so the gateway lists the schema exactly as the upstream
 * wrote it and never judges with another validator (or another draft) than the upstream's.
 */
export function passThroughSchema(jsonSchema: Value): PassThroughSchema {
  const describe = () => jsonSchema;
  return {
    '~standard': {
      version: 1,
      vendor: 'mcpkit-gateway',
      validate: (value) => ({ value: value as Value }),
      jsonSchema: { input: describe, output: describe },
    },
  };
}
