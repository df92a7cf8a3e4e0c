import type { InferJsonSchema } from '../json-schema-types.js';
import type { NotificationParams, RequestParams, Result, TaskAugmentedRequestParams } from './common.js';

/**
 * A string field of an elicitation form (`StringSchema`). `default`: 2025-11-25+ (SEP-1034).
 */
export interface StringSchema {
  type: 'string';
  title?: string;
  description?: string;
  minLength?: number;
  maxLength?: number;
  format?: 'email' | 'uri' | 'date' | 'date-time';
  /** 2025-11-25+. */
  default?: string;
}

/** A number or integer field of an elicitation form (`NumberSchema`). `default`: 2025-11-25+. */
export interface NumberSchema {
  type: 'number' | 'integer';
  title?: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  /** 2025-11-25+. */
  default?: number;
}

/** A boolean field of an elicitation form (`BooleanSchema`). `default`: 2025-11-25+. */
export interface BooleanSchema {
  type: 'boolean';
  title?: string;
  description?: string;
  /** 2025-11-25+. */
  default?: boolean;
}

/** A single choice among plain values (`UntitledSingleSelectEnumSchema`, 2025-11-25+, SEP-1330). */
export interface UntitledSingleSelectEnumSchema {
  type: 'string';
  title?: string;
  description?: string;
  enum: string[];
  default?: string;
}

/** A single choice among values with display titles (`TitledSingleSelectEnumSchema`, 2025-11-25+). */
export interface TitledSingleSelectEnumSchema {
  type: 'string';
  title?: string;
  description?: string;
  oneOf: Array<{ const: string; title: string }>;
  default?: string;
}

/** Several choices among plain values (`UntitledMultiSelectEnumSchema`, 2025-11-25+). */
export interface UntitledMultiSelectEnumSchema {
  type: 'array';
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: { type: 'string'; enum: string[] };
  default?: string[];
}

/** Several choices among values with display titles (`TitledMultiSelectEnumSchema`, 2025-11-25+). */
export interface TitledMultiSelectEnumSchema {
  type: 'array';
  title?: string;
  description?: string;
  minItems?: number;
  maxItems?: number;
  items: { anyOf: Array<{ const: string; title: string }> };
  default?: string[];
}

/**
 * An enum with parallel display names (`LegacyTitledEnumSchema`; this was the whole `EnumSchema` of 2025-06-18).
 * Deprecated from 2025-11-25 in favour of {@link TitledSingleSelectEnumSchema}.
 */
export interface LegacyTitledEnumSchema {
  type: 'string';
  title?: string;
  description?: string;
  enum: string[];
  /** Non-standard display names, parallel to `enum`. */
  enumNames?: string[];
  /** 2025-11-25+. */
  default?: string;
}

/** A single-select enum (`SingleSelectEnumSchema`, 2025-11-25+). */
export type SingleSelectEnumSchema = UntitledSingleSelectEnumSchema | TitledSingleSelectEnumSchema;

/** A multi-select enum (`MultiSelectEnumSchema`, 2025-11-25+). */
export type MultiSelectEnumSchema = UntitledMultiSelectEnumSchema | TitledMultiSelectEnumSchema;

/** Any enum field (`EnumSchema`). In 2025-06-18 only the {@link LegacyTitledEnumSchema} shape exists. */
export type EnumSchema = SingleSelectEnumSchema | MultiSelectEnumSchema | LegacyTitledEnumSchema;

/**
 * A field of an elicitation form: flat primitives only, no nesting (`PrimitiveSchemaDefinition`, 2025-06-18+).
 */
export type PrimitiveSchemaDefinition = StringSchema | NumberSchema | BooleanSchema | EnumSchema;

/**
 * The restricted JSON Schema of an elicitation form: top-level properties only.
 */
export interface ElicitationRequestedSchema {
  /** 2025-11-25+. */
  $schema?: string;
  type: 'object';
  properties: { [name: string]: PrimitiveSchemaDefinition };
  required?: string[];
}

/**
 * Params of a form-mode `elicitation/create` (`ElicitRequestFormParams`; the whole params type in 2025-06-18).
 * `mode` exists from 2025-11-25 and defaults to `"form"`.
 *
 * @example
 * ```ts
 * const params: ElicitRequestFormParams = {
 *   message: 'Which region?',
 *   requestedSchema: { type: 'object', properties: { region: { type: 'string' } }, required: ['region'] },
 * };
 * ```
 */
export interface ElicitRequestFormParams extends RequestParams, TaskAugmentedRequestParams {
  /** 2025-11-25+; absent means form. */
  mode?: 'form';
  /** What is asked and why. */
  message: string;
  requestedSchema: ElicitationRequestedSchema;
}

/**
 * Params of a URL-mode `elicitation/create` (`ElicitRequestURLParams`, 2025-11-25+, SEP-1036): the user completes
 * the interaction out of band at `url`. Needs client `elicitation.url`.
 *
 * Era difference: `elicitationId` is required in 2025-11-25 (it correlates `notifications/elicitation/complete`) and
 * does not exist in 2026-07-28 (the server correlates through `requestState` instead).
 */
export interface ElicitRequestURLParams extends RequestParams, TaskAugmentedRequestParams {
  mode: 'url';
  /** Why the interaction is needed. */
  message: string;
  /** Where the user should go. */
  url: string;
  /** 2025-11-25 only (required there). */
  elicitationId?: string;
}

/** Params of `elicitation/create` (`ElicitRequestParams`): form or URL mode. */
export type ElicitRequestParams = ElicitRequestFormParams | ElicitRequestURLParams;

/**
 * `elicitation/create` as a message body: a server→client request in 2025-06-18 and 2025-11-25, an `InputRequest`
 * in 2026-07-28.
 */
export interface ElicitRequest {
  method: 'elicitation/create';
  params: ElicitRequestParams;
}

/** A value submitted for one form field: string, number, boolean, or (2025-11-25+ multi-select) string list. */
export type ElicitFieldValue = string | number | boolean | string[];

/**
 * Result of `elicitation/create` (`ElicitResult`). Carries no `resultType`, even in 2026-07-28.
 * `content` is present only for `action: "accept"` in form mode; a URL-mode accept is `{action: "accept"}`.
 */
export interface ElicitResult extends Result {
  action: 'accept' | 'decline' | 'cancel';
  content?: { [name: string]: ElicitFieldValue };
}

/**
 * A form's `requestedSchema` as written in code: {@link ElicitationRequestedSchema} with every list allowed to be
 * `readonly`, so a schema written inline (or `as const`) keeps its literal types and the answer is typed from it.
 */
export interface ElicitFormSchema {
  $schema?: string;
  type: 'object';
  properties: { readonly [name: string]: ReadonlyFieldSchema };
  required?: readonly string[];
}

// What a field's schema may be when written inline: the same shape, with every list (enum, required, oneOf) readonly.
type ReadonlyFieldSchema = ReadonlyDeep<PrimitiveSchemaDefinition>;
type ReadonlyDeep<V> = V extends (infer E)[]
  ? readonly ReadonlyDeep<E>[]
  : V extends object
    ? { readonly [K in keyof V]: ReadonlyDeep<V[K]> }
    : V;

/**
 * The result of a form-mode ask, its `content` typed from the `requestedSchema` asked with (required fields required,
 * enums as their literal values).
 *
 * @example
 * ```ts
 * const answer = await ctx.elicit({
 *   message: 'Deploy where?',
 *   requestedSchema: { type: 'object', properties: { region: { type: 'string', enum: ['eu', 'us'] } }, required: ['region'] },
 * });
 * if (answer.action === 'accept') answer.content?.region; // 'eu' | 'us'
 * ```
 */
export type ElicitAnswer<S> = Omit<ElicitResult, 'content'> & { content?: InferJsonSchema<S> };

/**
 * Params of `notifications/elicitation/complete` (server→client, needs client `elicitation.url`): the out-of-band
 * interaction with this id finished. 2025-11-25 only.
 */
export interface ElicitationCompleteNotificationParams extends NotificationParams {
  elicitationId: string;
}

/**
 * `error.data` of `URLElicitationRequiredError` (code -32042, 2025-11-25 only; retired in 2026-07-28, where the
 * server answers `InputRequiredResult` instead).
 */
export interface URLElicitationRequiredErrorData {
  elicitations: ElicitRequestURLParams[];
  [key: string]: unknown;
}
