import {
  array,
  enumOf,
  integer,
  literal,
  number,
  type ObjectValidator,
  type OptionalField,
  object,
  optional,
  string,
  unknown,
  type Validator,
} from './kit.js';
import { union } from './kit-combinators.js';

// Pieces that are the same in every revision's schema, and the two shapes a request/notification type takes:
// up to 2025-06-18 a `FooRequest` is `{method, params}` (the JSON-RPC envelope is `JSONRPCRequest`), from 2025-11-25
// on it carries `jsonrpc` and `id` itself.

/** A JSON object with any keys and values (`{"type":"object"}`, `additionalProperties: {}` or `true`). */
export const anyObject: ObjectValidator = object({}, { name: 'object' });

/** `RequestId` / `ProgressToken`: `string | integer` in every revision. */
export const requestId: Validator = union([string(), integer()], { name: 'string | integer' });

export const role: Validator = enumOf(['assistant', 'user']);

export const loggingLevel: Validator = enumOf([
  'alert',
  'critical',
  'debug',
  'emergency',
  'error',
  'info',
  'notice',
  'warning',
]);

/** `priority` and the model-preference priorities: a number in [0, 1]. */
export const unitInterval: Validator = number({ minimum: 0, maximum: 1 });

export const jsonrpcVersion: Validator = literal('2.0');

export const ModelHint: ObjectValidator = object({ name: optional(string()) }, { name: 'ModelHint' });

export const ModelPreferences: ObjectValidator = object(
  {
    costPriority: optional(unitInterval),
    hints: optional(array(ModelHint)),
    intelligencePriority: optional(unitInterval),
    speedPriority: optional(unitInterval),
  },
  { name: 'ModelPreferences' },
);

/** The JSON-RPC error object (`Error` from 2025-11-25 on; inline before). */
export const ErrorObject: ObjectValidator = object(
  { code: integer(), message: string(), data: optional(unknown()) },
  { name: 'Error' },
);

/** `{method, params}` request or notification type of 2024-11-05 … 2025-06-18, and a 2026-07-28 input request. */
export function legacyMessage(
  name: string,
  method: string,
  params: Validator | undefined,
  paramsRequired: boolean,
): ObjectValidator {
  const shape: Record<string, Validator | OptionalField> = { method: literal(method) };
  if (params !== undefined) shape.params = paramsRequired ? params : optional(params);
  return object(shape, { name });
}

/** `{jsonrpc, id, method, params}` request type of 2025-11-25 and later. */
export function modernRequest(
  name: string,
  method: string,
  params: Validator,
  paramsRequired: boolean,
): ObjectValidator {
  return object(
    {
      id: requestId,
      jsonrpc: jsonrpcVersion,
      method: literal(method),
      params: paramsRequired ? params : optional(params),
    },
    { name },
  );
}

/** `{jsonrpc, method, params}` notification type of 2025-11-25 and later. */
export function modernNotification(
  name: string,
  method: string,
  params: Validator,
  paramsRequired: boolean,
): ObjectValidator {
  return object(
    { jsonrpc: jsonrpcVersion, method: literal(method), params: paramsRequired ? params : optional(params) },
    { name },
  );
}

/** Method tables of a revision: method → type name. */
export interface MethodTables {
  readonly clientRequests: Readonly<Record<string, string>>;
  readonly serverRequests: Readonly<Record<string, string>>;
  readonly clientNotifications: Readonly<Record<string, string>>;
  readonly serverNotifications: Readonly<Record<string, string>>;
  readonly results: Readonly<Record<string, string>>;
}

/**
 * `ClientRequest`, `ServerResult` & co. up to 2025-11-25: each is the union of what one direction's method table names,
 * so it is derived from that table rather than listed again. Results start with `Result` (`EmptyResult` is `Result`).
 */
export function messageUnions(types: Readonly<Record<string, Validator>>, methods: MethodTables) {
  const unionOf = (names: Iterable<string>, name: string) =>
    union(
      [...new Set(names)].map((typeName) => {
        const type = types[typeName];
        if (type === undefined) throw new Error(`${name} names unknown type ${typeName}`);
        return type;
      }),
      { name },
    );
  const resultsOf = (requests: Readonly<Record<string, string>>) => [
    'Result',
    ...Object.keys(requests)
      .map((method) => methods.results[method] ?? 'Result')
      .filter((typeName) => typeName !== 'EmptyResult'),
  ];
  return {
    ClientNotification: unionOf(Object.values(methods.clientNotifications), 'ClientNotification'),
    ClientRequest: unionOf(Object.values(methods.clientRequests), 'ClientRequest'),
    ClientResult: unionOf(resultsOf(methods.serverRequests), 'ClientResult'),
    ServerNotification: unionOf(Object.values(methods.serverNotifications), 'ServerNotification'),
    ServerRequest: unionOf(Object.values(methods.serverRequests), 'ServerRequest'),
    ServerResult: unionOf(resultsOf(methods.clientRequests), 'ServerResult'),
  };
}

/** The params types {@link sharedMessages} builds its requests and notifications from. */
export interface SharedMessageParams {
  readonly CallToolRequestParams: Validator;
  readonly CompleteRequestParams: Validator;
  readonly GetPromptRequestParams: Validator;
  readonly PaginatedRequestParams: Validator;
  readonly ReadResourceRequestParams: Validator;
  readonly NotificationParams: Validator;
  readonly CancelledNotificationParams: Validator;
  readonly LoggingMessageNotificationParams: Validator;
  readonly ProgressNotificationParams: Validator;
  readonly ResourceUpdatedNotificationParams: Validator;
}

/**
 * The requests and notifications of 2025-11-25 that 2026-07-28 keeps, built from one revision's params types. Besides
 * the params, one thing differs: a list request may leave out `params` here, not in 2026-07-28 (it carries `_meta`).
 */
export function sharedMessages(params: SharedMessageParams, listParamsRequired: boolean) {
  const list = (name: string, method: string) =>
    modernRequest(name, method, params.PaginatedRequestParams, listParamsRequired);
  const listChanged = (name: string, method: string) =>
    modernNotification(name, method, params.NotificationParams, false);
  return {
    CallToolRequest: modernRequest('CallToolRequest', 'tools/call', params.CallToolRequestParams, true),
    CompleteRequest: modernRequest('CompleteRequest', 'completion/complete', params.CompleteRequestParams, true),
    GetPromptRequest: modernRequest('GetPromptRequest', 'prompts/get', params.GetPromptRequestParams, true),
    ListPromptsRequest: list('ListPromptsRequest', 'prompts/list'),
    ListResourceTemplatesRequest: list('ListResourceTemplatesRequest', 'resources/templates/list'),
    ListResourcesRequest: list('ListResourcesRequest', 'resources/list'),
    ListToolsRequest: list('ListToolsRequest', 'tools/list'),
    ReadResourceRequest: modernRequest('ReadResourceRequest', 'resources/read', params.ReadResourceRequestParams, true),
    CancelledNotification: modernNotification(
      'CancelledNotification',
      'notifications/cancelled',
      params.CancelledNotificationParams,
      true,
    ),
    LoggingMessageNotification: modernNotification(
      'LoggingMessageNotification',
      'notifications/message',
      params.LoggingMessageNotificationParams,
      true,
    ),
    ProgressNotification: modernNotification(
      'ProgressNotification',
      'notifications/progress',
      params.ProgressNotificationParams,
      true,
    ),
    PromptListChangedNotification: listChanged('PromptListChangedNotification', 'notifications/prompts/list_changed'),
    ResourceListChangedNotification: listChanged(
      'ResourceListChangedNotification',
      'notifications/resources/list_changed',
    ),
    ResourceUpdatedNotification: modernNotification(
      'ResourceUpdatedNotification',
      'notifications/resources/updated',
      params.ResourceUpdatedNotificationParams,
      true,
    ),
    ToolListChangedNotification: listChanged('ToolListChangedNotification', 'notifications/tools/list_changed'),
  };
}
