// Revision 2025-11-25, elicitation: the form schemas (titled and multi-select enums, defaults), URL mode, and the
// result's content. Part of spec-2025-11-25.ts, in a module of its own for size.
import { array, boolean, extend, integer, literal, number, object, optional, record, string } from './kit.js';
import { union } from './kit-combinators.js';
import { types20250618 } from './spec-2025-06-18.js';
import { requestId } from './spec-common.js';

const previous = types20250618;
const title = optional(string());
const description = optional(string());
const requestMeta = optional(object({ progressToken: optional(requestId) }));
const task = optional(object({ ttl: optional(integer()) }, { name: 'TaskMetadata' }));

export const selectOption = object({ const: string(), title: string() });
export const StringSchema = extend(previous.StringSchema, { default: optional(string()) });
export const NumberSchema = extend(previous.NumberSchema, { default: optional(number()) });
export const BooleanSchema = previous.BooleanSchema;
export const UntitledSingleSelectEnumSchema = object(
  { default: optional(string()), description, enum: array(string()), title, type: literal('string') },
  { name: 'UntitledSingleSelectEnumSchema' },
);
export const TitledSingleSelectEnumSchema = object(
  { default: optional(string()), description, oneOf: array(selectOption), title, type: literal('string') },
  { name: 'TitledSingleSelectEnumSchema' },
);
export const multiSelect = {
  default: optional(array(string())),
  description,
  maxItems: optional(integer()),
  minItems: optional(integer()),
  title,
  type: literal('array'),
};
export const UntitledMultiSelectEnumSchema = object(
  { ...multiSelect, items: object({ enum: array(string()), type: literal('string') }) },
  { name: 'UntitledMultiSelectEnumSchema' },
);
export const TitledMultiSelectEnumSchema = object(
  { ...multiSelect, items: object({ anyOf: array(selectOption) }) },
  { name: 'TitledMultiSelectEnumSchema' },
);
export const LegacyTitledEnumSchema = extend(
  previous.EnumSchema,
  { default: optional(string()) },
  { name: 'LegacyTitledEnumSchema' },
);
export const SingleSelectEnumSchema = union([UntitledSingleSelectEnumSchema, TitledSingleSelectEnumSchema], {
  name: 'SingleSelectEnumSchema',
});
export const MultiSelectEnumSchema = union([UntitledMultiSelectEnumSchema, TitledMultiSelectEnumSchema], {
  name: 'MultiSelectEnumSchema',
});
export const EnumSchema = union(
  [
    UntitledSingleSelectEnumSchema,
    TitledSingleSelectEnumSchema,
    UntitledMultiSelectEnumSchema,
    TitledMultiSelectEnumSchema,
    LegacyTitledEnumSchema,
  ],
  { name: 'EnumSchema' },
);
export const PrimitiveSchemaDefinition = union(
  [
    StringSchema,
    NumberSchema,
    BooleanSchema,
    UntitledSingleSelectEnumSchema,
    TitledSingleSelectEnumSchema,
    UntitledMultiSelectEnumSchema,
    TitledMultiSelectEnumSchema,
    LegacyTitledEnumSchema,
  ],
  { name: 'PrimitiveSchemaDefinition' },
);
export const requestedSchema = object({
  $schema: optional(string()),
  properties: record(PrimitiveSchemaDefinition),
  required: optional(array(string())),
  type: literal('object'),
});
export const ElicitRequestFormParams = object(
  { _meta: requestMeta, message: string(), mode: optional(literal('form')), requestedSchema, task },
  { name: 'ElicitRequestFormParams' },
);
export const ElicitRequestURLParams = object(
  { _meta: requestMeta, elicitationId: string(), message: string(), mode: literal('url'), task, url: string() },
  { name: 'ElicitRequestURLParams' },
);
export const ElicitRequestParams = union([ElicitRequestURLParams, ElicitRequestFormParams], {
  name: 'ElicitRequestParams',
});
/** See 2025-06-18: numbers with a fraction are accepted where the schema says integer (allow-listed). */
export const elicitValue = union([array(string()), string(), number(), boolean()], {
  name: 'string | number | boolean | string[]',
});
export const ElicitResult = extend(previous.ElicitResult, { content: optional(record(elicitValue)) });
