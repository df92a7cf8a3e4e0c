import {
  array,
  boolean,
  enumOf,
  extend,
  integer,
  literal,
  number,
  type ObjectValidator,
  object,
  omit,
  optional,
  record,
  type Shape,
  string,
  unknown,
  type Validator,
} from './kit.js';
import { allOf, choose, refine, reject, union } from './kit-combinators.js';
import type { RevisionDefinition } from './revision-definition.js';
import { parts20251125, types20251125 } from './spec-2025-11-25.js';
import {
  anyObject,
  ErrorObject,
  jsonrpcVersion,
  legacyMessage,
  loggingLevel,
  ModelPreferences,
  modernNotification,
  modernRequest,
  requestId,
  sharedMessages,
} from './spec-common.js';

// Revision 2026-07-28: stateless. No initialize/ping/logging/setLevel/resources/subscribe/tasks in core; every
// request carries `params._meta` with protocolVersion and clientCapabilities; every result carries `resultType`;
// `server/discover`, `subscriptions/listen`, multi round-trip requests (`input_required`), cacheable results
// (`ttlMs`, `cacheScope`). Sampling, roots and elicitation live on as input requests (`{method, params}` only).

const previous = types20251125;

/**
 * `JSONValue` as schema.ts defines it (`string | number | boolean | null | JSONObject | JSONArray`). The generated
 * schema.json lost `null` and turned `number` into `integer`; we follow schema.ts (allow-listed in the tests).
 */
const JSONValue = unknown();
const JSONObject = anyObject;
const JSONArray = array(JSONValue, { name: 'JSONArray' });
const MetaObject = anyObject;
const meta = optional(MetaObject);

const { Implementation } = previous;
const ResultMetaObject = object(
  { 'io.modelcontextprotocol/serverInfo': optional(Implementation) },
  { name: 'ResultMetaObject' },
);
const NotificationMetaObject = object(
  { 'io.modelcontextprotocol/subscriptionId': optional(requestId) },
  { name: 'NotificationMetaObject' },
);
const resultMeta = optional(ResultMetaObject);
const notificationMeta = optional(NotificationMetaObject);
const resultType = string();

const ClientCapabilities = object(
  {
    elicitation: optional(object({ form: optional(JSONObject), url: optional(JSONObject) })),
    experimental: optional(record(JSONObject)),
    extensions: optional(record(JSONObject)),
    roots: optional(anyObject),
    sampling: optional(object({ context: optional(JSONObject), tools: optional(JSONObject) })),
  },
  { name: 'ClientCapabilities' },
);
const ServerCapabilities = extend(omit(previous.ServerCapabilities, ['tasks']), {
  extensions: optional(record(JSONObject)),
});

const RequestMetaObject = object(
  {
    'io.modelcontextprotocol/clientCapabilities': ClientCapabilities,
    'io.modelcontextprotocol/clientInfo': optional(Implementation),
    'io.modelcontextprotocol/logLevel': optional(loggingLevel),
    'io.modelcontextprotocol/protocolVersion': string(),
    progressToken: optional(requestId),
  },
  { name: 'RequestMetaObject' },
);

// Content: as 2025-11-25, except `structuredContent` of a tool result may be any JSON value.
const { TextContent, ImageContent, AudioContent, ToolUseContent, ContentBlock } = previous;
const ToolResultContent = extend(previous.ToolResultContent, { structuredContent: optional(unknown()) });
const { SamplingMessageContentBlock, samplingContent } = parts20251125.samplingContentOf(ToolResultContent);
const SamplingMessage = extend(previous.SamplingMessage, { content: samplingContent });

const Tool = extend(omit(previous.Tool, ['execution']), {
  inputSchema: object(
    { $schema: optional(string()), type: literal('object') },
    { name: 'inputSchema', extra: unknown() },
  ),
  outputSchema: optional(object({ $schema: optional(string()) }, { name: 'outputSchema' })),
});

// Input requests (multi round-trip): `{method, params}`, no JSON-RPC envelope.
const CreateMessageRequestParams = extend(omit(previous.CreateMessageRequestParams, ['_meta', 'task']), {
  messages: array(SamplingMessage),
  tools: optional(array(Tool)),
});
const CreateMessageRequest = legacyMessage(
  'CreateMessageRequest',
  'sampling/createMessage',
  CreateMessageRequestParams,
  true,
);
const CreateMessageResult = extend(previous.CreateMessageResult, { content: samplingContent });
const ListRootsRequest = legacyMessage('ListRootsRequest', 'roots/list', object({ _meta: meta }), false);
const ListRootsResult = object({ roots: array(previous.Root) }, { name: 'ListRootsResult' });
const ElicitRequestFormParams = object(
  { message: string(), mode: optional(literal('form')), requestedSchema: parts20251125.requestedSchema },
  { name: 'ElicitRequestFormParams' },
);
const ElicitRequestURLParams = object(
  { message: string(), mode: literal('url'), url: string() },
  { name: 'ElicitRequestURLParams' },
);
const ElicitRequestParams = union([ElicitRequestFormParams, ElicitRequestURLParams], { name: 'ElicitRequestParams' });
const ElicitRequest = legacyMessage('ElicitRequest', 'elicitation/create', ElicitRequestParams, true);
const ElicitResult = omit(previous.ElicitResult, ['_meta']);
const InputRequest = union([CreateMessageRequest, ListRootsRequest, ElicitRequest], { name: 'InputRequest' });
const InputRequests = record(InputRequest, { name: 'InputRequests' });
const InputResponse = union([CreateMessageResult, ListRootsResult, ElicitResult], { name: 'InputResponse' });
const InputResponses = record(InputResponse, { name: 'InputResponses' });

// Params.
const RequestParams = extend(previous.RequestParams, { _meta: RequestMetaObject });
const NotificationParams = extend(previous.NotificationParams, { _meta: notificationMeta });
const retry = { inputResponses: optional(InputResponses), requestState: optional(string()) };
const InputResponseRequestParams = object(
  { _meta: RequestMetaObject, ...retry },
  { name: 'InputResponseRequestParams' },
);
const PaginatedRequestParams = extend(previous.PaginatedRequestParams, { _meta: RequestMetaObject });
const ResourceRequestParams = extend(previous.ResourceRequestParams, { _meta: RequestMetaObject });
const ReadResourceRequestParams = object(
  { _meta: RequestMetaObject, ...retry, uri: string() },
  { name: 'ReadResourceRequestParams' },
);
const CallToolRequestParams = object(
  { _meta: RequestMetaObject, arguments: optional(anyObject), ...retry, name: string() },
  { name: 'CallToolRequestParams' },
);
const GetPromptRequestParams = object(
  { _meta: RequestMetaObject, arguments: optional(record(string())), ...retry, name: string() },
  { name: 'GetPromptRequestParams' },
);
const CompleteRequestParams = extend(previous.CompleteRequestParams, { _meta: RequestMetaObject });
const SubscriptionFilter = object(
  {
    promptsListChanged: optional(boolean()),
    resourceSubscriptions: optional(array(string())),
    resourcesListChanged: optional(boolean()),
    toolsListChanged: optional(boolean()),
  },
  { name: 'SubscriptionFilter' },
);
const SubscriptionsListenRequestParams = object(
  { _meta: RequestMetaObject, notifications: SubscriptionFilter },
  { name: 'SubscriptionsListenRequestParams' },
);
const CancelledNotificationParams = extend(previous.CancelledNotificationParams, {
  _meta: notificationMeta,
  requestId,
});
const ProgressNotificationParams = extend(previous.ProgressNotificationParams, { _meta: notificationMeta });
const LoggingMessageNotificationParams = extend(previous.LoggingMessageNotificationParams, { _meta: notificationMeta });
const ResourceUpdatedNotificationParams = extend(previous.ResourceUpdatedNotificationParams, {
  _meta: notificationMeta,
});
const SubscriptionsAcknowledgedNotificationParams = object(
  { _meta: notificationMeta, notifications: SubscriptionFilter },
  { name: 'SubscriptionsAcknowledgedNotificationParams' },
);

// Results: all carry `resultType`; discover/list/read are cacheable.
const cacheable = {
  cacheScope: enumOf(['private', 'public']),
  ttlMs: integer({ minimum: 0 }),
};
/** A 2025-11-25 result as 2026-07-28 has it: `resultType` required, `_meta` may name the server that answered. */
const resultOf = (base: ObjectValidator, changes: Shape = {}): ObjectValidator =>
  extend(base, { _meta: resultMeta, ...changes, resultType });
/** The same for a result a client may cache. */
const cacheableResultOf = (base: ObjectValidator, changes: Shape = {}): ObjectValidator =>
  resultOf(base, { ...cacheable, ...changes });
const Result = resultOf(previous.Result);
const CacheableResult = extend(Result, cacheable, { name: 'CacheableResult' });
const PaginatedResult = resultOf(previous.PaginatedResult);
const InputRequiredResult = extend(
  Result,
  { inputRequests: optional(InputRequests), requestState: optional(string()) },
  { name: 'InputRequiredResult' },
);
const CallToolResult = resultOf(previous.CallToolResult, { structuredContent: optional(unknown()) });
const CompleteResult = resultOf(previous.CompleteResult, {
  completion: object({
    hasMore: optional(boolean()),
    total: optional(integer()),
    values: array(string(), { maxItems: 100 }),
  }),
});
const DiscoverResult = extend(
  CacheableResult,
  { capabilities: ServerCapabilities, instructions: optional(string()), supportedVersions: array(string()) },
  { name: 'DiscoverResult' },
);
const GetPromptResult = resultOf(previous.GetPromptResult);
const ListPromptsResult = cacheableResultOf(previous.ListPromptsResult);
const ListResourcesResult = cacheableResultOf(previous.ListResourcesResult);
const ListResourceTemplatesResult = cacheableResultOf(previous.ListResourceTemplatesResult);
const ListToolsResult = cacheableResultOf(previous.ListToolsResult, { tools: array(Tool) });
const ReadResourceResult = cacheableResultOf(previous.ReadResourceResult);
const SubscriptionsListenResultMetaObject = object(
  {
    'io.modelcontextprotocol/serverInfo': optional(Implementation),
    'io.modelcontextprotocol/subscriptionId': requestId,
  },
  { name: 'SubscriptionsListenResultMetaObject' },
);
const SubscriptionsListenResult = object(
  { _meta: SubscriptionsListenResultMetaObject, resultType },
  { name: 'SubscriptionsListenResult' },
);

// Requests and notifications.
const {
  CallToolRequest,
  CompleteRequest,
  GetPromptRequest,
  ListPromptsRequest,
  ListResourceTemplatesRequest,
  ListResourcesRequest,
  ListToolsRequest,
  ReadResourceRequest,
  CancelledNotification,
  LoggingMessageNotification,
  ProgressNotification,
  PromptListChangedNotification,
  ResourceListChangedNotification,
  ResourceUpdatedNotification,
  ToolListChangedNotification,
} = sharedMessages(
  {
    CallToolRequestParams,
    CompleteRequestParams,
    GetPromptRequestParams,
    PaginatedRequestParams,
    ReadResourceRequestParams,
    NotificationParams,
    CancelledNotificationParams,
    LoggingMessageNotificationParams,
    ProgressNotificationParams,
    ResourceUpdatedNotificationParams,
  },
  true,
);
const DiscoverRequest = modernRequest('DiscoverRequest', 'server/discover', RequestParams, true);
const SubscriptionsListenRequest = modernRequest(
  'SubscriptionsListenRequest',
  'subscriptions/listen',
  SubscriptionsListenRequestParams,
  true,
);
const SubscriptionsAcknowledgedNotification = modernNotification(
  'SubscriptionsAcknowledgedNotification',
  'notifications/subscriptions/acknowledged',
  SubscriptionsAcknowledgedNotificationParams,
  true,
);

// JSON-RPC envelopes and errors.
const { JSONRPCRequest, JSONRPCNotification, JSONRPCErrorResponse } = previous;
const JSONRPCResultResponse = object(
  { id: requestId, jsonrpc: jsonrpcVersion, result: Result },
  { name: 'JSONRPCResultResponse' },
);
const response = (name: string, result: Validator) =>
  object({ id: requestId, jsonrpc: jsonrpcVersion, result }, { name });
const orInputRequired = (result: Validator) =>
  union([InputRequiredResult, result], { name: `InputRequiredResult | ${result.expected}` });
const errorCode = (name: string, code: number) =>
  object({ code: literal(code), data: optional(unknown()), message: string() }, { name });
const errorResponse = (name: string, error: Validator) =>
  object({ error, id: optional(requestId), jsonrpc: jsonrpcVersion }, { name });

/** Every type of the 2026-07-28 schema. */
export const types20260728 = {
  Annotations: previous.Annotations,
  AudioContent,
  BaseMetadata: previous.BaseMetadata,
  BlobResourceContents: previous.BlobResourceContents,
  BooleanSchema: previous.BooleanSchema,
  CacheableResult,
  CallToolRequest,
  CallToolRequestParams,
  CallToolResult,
  CallToolResultResponse: response('CallToolResultResponse', orInputRequired(CallToolResult)),
  CancelledNotification,
  CancelledNotificationParams,
  ClientCapabilities,
  ClientNotification: CancelledNotification,
  ClientRequest: union(
    [
      DiscoverRequest,
      ListResourcesRequest,
      ListResourceTemplatesRequest,
      ReadResourceRequest,
      SubscriptionsListenRequest,
      ListPromptsRequest,
      GetPromptRequest,
      ListToolsRequest,
      CallToolRequest,
      CompleteRequest,
    ],
    { name: 'ClientRequest' },
  ),
  ClientResult: Result,
  CompleteRequest,
  CompleteRequestParams,
  CompleteResult,
  CompleteResultResponse: response('CompleteResultResponse', CompleteResult),
  ContentBlock,
  CreateMessageRequest,
  CreateMessageRequestParams,
  CreateMessageResult,
  Cursor: previous.Cursor,
  DiscoverRequest,
  DiscoverResult,
  DiscoverResultResponse: response('DiscoverResultResponse', DiscoverResult),
  ElicitRequest,
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitRequestURLParams,
  ElicitResult,
  EmbeddedResource: previous.EmbeddedResource,
  EmptyResult: Result,
  EnumSchema: previous.EnumSchema,
  Error: ErrorObject,
  GetPromptRequest,
  GetPromptRequestParams,
  GetPromptResult,
  GetPromptResultResponse: response('GetPromptResultResponse', orInputRequired(GetPromptResult)),
  HeaderMismatchError: errorResponse('HeaderMismatchError', allOf([ErrorObject, object({ code: literal(-32020) })])),
  Icon: previous.Icon,
  Icons: previous.Icons,
  ImageContent,
  Implementation,
  InputRequest,
  InputRequests,
  InputRequiredResult,
  InputResponse,
  InputResponseRequestParams,
  InputResponses,
  InternalError: errorCode('InternalError', -32603),
  InvalidParamsError: errorCode('InvalidParamsError', -32602),
  InvalidRequestError: errorCode('InvalidRequestError', -32600),
  JSONArray,
  JSONObject,
  JSONRPCErrorResponse,
  JSONRPCMessage: union([JSONRPCRequest, JSONRPCNotification, JSONRPCResultResponse, JSONRPCErrorResponse], {
    name: 'JSONRPCMessage',
  }),
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse: union([JSONRPCResultResponse, JSONRPCErrorResponse], { name: 'JSONRPCResponse' }),
  JSONRPCResultResponse,
  JSONValue,
  LegacyTitledEnumSchema: previous.LegacyTitledEnumSchema,
  ListPromptsRequest,
  ListPromptsResult,
  ListPromptsResultResponse: response('ListPromptsResultResponse', ListPromptsResult),
  ListResourceTemplatesRequest,
  ListResourceTemplatesResult,
  ListResourceTemplatesResultResponse: response('ListResourceTemplatesResultResponse', ListResourceTemplatesResult),
  ListResourcesRequest,
  ListResourcesResult,
  ListResourcesResultResponse: response('ListResourcesResultResponse', ListResourcesResult),
  ListRootsRequest,
  ListRootsResult,
  ListToolsRequest,
  ListToolsResult,
  ListToolsResultResponse: response('ListToolsResultResponse', ListToolsResult),
  LoggingLevel: loggingLevel,
  LoggingMessageNotification,
  LoggingMessageNotificationParams,
  MetaObject,
  MethodNotFoundError: errorCode('MethodNotFoundError', -32601),
  MissingRequiredClientCapabilityError: errorResponse(
    'MissingRequiredClientCapabilityError',
    allOf([ErrorObject, object({ code: literal(-32021), data: object({ requiredCapabilities: ClientCapabilities }) })]),
  ),
  ModelHint: previous.ModelHint,
  ModelPreferences,
  MultiSelectEnumSchema: previous.MultiSelectEnumSchema,
  Notification: previous.Notification,
  NotificationMetaObject,
  NotificationParams,
  NumberSchema: previous.NumberSchema,
  PaginatedRequest: object(
    { id: requestId, jsonrpc: jsonrpcVersion, method: string(), params: PaginatedRequestParams },
    { name: 'PaginatedRequest' },
  ),
  PaginatedRequestParams,
  PaginatedResult,
  ParseError: errorCode('ParseError', -32700),
  PrimitiveSchemaDefinition: previous.PrimitiveSchemaDefinition,
  ProgressNotification,
  ProgressNotificationParams,
  ProgressToken: requestId,
  Prompt: previous.Prompt,
  PromptArgument: previous.PromptArgument,
  PromptListChangedNotification,
  PromptMessage: previous.PromptMessage,
  PromptReference: previous.PromptReference,
  ReadResourceRequest,
  ReadResourceRequestParams,
  ReadResourceResult,
  ReadResourceResultResponse: response('ReadResourceResultResponse', orInputRequired(ReadResourceResult)),
  Request: previous.Request,
  RequestId: requestId,
  RequestMetaObject,
  RequestParams,
  Resource: previous.Resource,
  ResourceContents: previous.ResourceContents,
  ResourceLink: previous.ResourceLink,
  ResourceListChangedNotification,
  ResourceRequestParams,
  ResourceTemplate: previous.ResourceTemplate,
  ResourceTemplateReference: previous.ResourceTemplateReference,
  ResourceUpdatedNotification,
  ResourceUpdatedNotificationParams,
  Result,
  ResultMetaObject,
  ResultType: resultType,
  Role: previous.Role,
  Root: previous.Root,
  SamplingMessage,
  SamplingMessageContentBlock,
  ServerCapabilities,
  ServerNotification: union(
    [
      CancelledNotification,
      ProgressNotification,
      ResourceListChangedNotification,
      SubscriptionsAcknowledgedNotification,
      ResourceUpdatedNotification,
      PromptListChangedNotification,
      ToolListChangedNotification,
      LoggingMessageNotification,
    ],
    { name: 'ServerNotification' },
  ),
  ServerResult: union(
    [
      Result,
      InputRequiredResult,
      DiscoverResult,
      ListResourcesResult,
      ListResourceTemplatesResult,
      ReadResourceResult,
      SubscriptionsListenResult,
      ListPromptsResult,
      GetPromptResult,
      ListToolsResult,
      CallToolResult,
      CompleteResult,
    ],
    { name: 'ServerResult' },
  ),
  SingleSelectEnumSchema: previous.SingleSelectEnumSchema,
  StringSchema: previous.StringSchema,
  SubscriptionFilter,
  SubscriptionsAcknowledgedNotification,
  SubscriptionsAcknowledgedNotificationParams,
  SubscriptionsListenRequest,
  SubscriptionsListenRequestParams,
  SubscriptionsListenResult,
  SubscriptionsListenResultMetaObject,
  SubscriptionsListenResultResponse: response('SubscriptionsListenResultResponse', SubscriptionsListenResult),
  TextContent,
  TextResourceContents: previous.TextResourceContents,
  TitledMultiSelectEnumSchema: previous.TitledMultiSelectEnumSchema,
  TitledSingleSelectEnumSchema: previous.TitledSingleSelectEnumSchema,
  Tool,
  ToolAnnotations: previous.ToolAnnotations,
  ToolChoice: previous.ToolChoice,
  ToolListChangedNotification,
  ToolResultContent,
  ToolUseContent,
  UnsupportedProtocolVersionError: errorResponse(
    'UnsupportedProtocolVersionError',
    allOf([
      ErrorObject,
      object({ code: literal(-32022), data: object({ requested: string(), supported: array(string()) }) }),
    ]),
  ),
  UntitledMultiSelectEnumSchema: previous.UntitledMultiSelectEnumSchema,
  UntitledSingleSelectEnumSchema: previous.UntitledSingleSelectEnumSchema,
};

const isInputRequired = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && (value as { resultType?: unknown }).resultType === 'input_required';

/** `InputRequiredResult` as a client must read it: `resultType` is `input_required` and something to act on is there. */
const strictInputRequiredResult = refine<{ inputRequests?: unknown; requestState?: unknown }>(
  extend(InputRequiredResult, { resultType: literal('input_required') }),
  (result) => result.inputRequests !== undefined || result.requestState !== undefined,
  'an input_required result must carry inputRequests or requestState (or both)',
);
/** Result of `tools/call`, `prompts/get`, `resources/read`: `input_required` or the complete result. */
const multiRoundTrip = (complete: Validator): Validator =>
  choose(`InputRequiredResult | ${complete.expected}`, (value) =>
    isInputRequired(value) ? strictInputRequiredResult : complete,
  );
const notInputRequired = reject(
  'resultType "input_required" is only allowed for tools/call, prompts/get and resources/read',
);
/** Result of every other request: `input_required` is not allowed. */
const completeOnly = (complete: Validator): Validator =>
  choose(complete.expected, (value) => (isInputRequired(value) ? notInputRequired : complete));
/**
 * A cacheable result as a client reads it: SEP-2549 tells clients to treat an absent or negative `ttlMs` as 0, so
 * `result()` does not reject those (the schema types, used by `byType`, still require `ttlMs` ≥ 0 and `cacheScope`).
 */
const asRead = (result: ObjectValidator): ObjectValidator =>
  extend(result, { cacheScope: optional(cacheable.cacheScope), ttlMs: optional(number()) });

export const revision20260728: RevisionDefinition = {
  version: '2026-07-28',
  types: types20260728,
  typesIncludeEnvelope: true,
  clientRequests: {
    'server/discover': 'DiscoverRequest',
    'resources/list': 'ListResourcesRequest',
    'resources/templates/list': 'ListResourceTemplatesRequest',
    'resources/read': 'ReadResourceRequest',
    'subscriptions/listen': 'SubscriptionsListenRequest',
    'prompts/list': 'ListPromptsRequest',
    'prompts/get': 'GetPromptRequest',
    'tools/list': 'ListToolsRequest',
    'tools/call': 'CallToolRequest',
    'completion/complete': 'CompleteRequest',
  },
  serverRequests: {},
  clientNotifications: { 'notifications/cancelled': 'CancelledNotification' },
  serverNotifications: {
    'notifications/cancelled': 'CancelledNotification',
    'notifications/progress': 'ProgressNotification',
    'notifications/resources/list_changed': 'ResourceListChangedNotification',
    'notifications/subscriptions/acknowledged': 'SubscriptionsAcknowledgedNotification',
    'notifications/resources/updated': 'ResourceUpdatedNotification',
    'notifications/prompts/list_changed': 'PromptListChangedNotification',
    'notifications/tools/list_changed': 'ToolListChangedNotification',
    'notifications/message': 'LoggingMessageNotification',
  },
  results: {
    'server/discover': completeOnly(asRead(DiscoverResult)),
    'resources/list': completeOnly(asRead(ListResourcesResult)),
    'resources/templates/list': completeOnly(asRead(ListResourceTemplatesResult)),
    'resources/read': multiRoundTrip(asRead(ReadResourceResult)),
    'subscriptions/listen': completeOnly(SubscriptionsListenResult),
    'prompts/list': completeOnly(asRead(ListPromptsResult)),
    'prompts/get': multiRoundTrip(GetPromptResult),
    'tools/list': completeOnly(asRead(ListToolsResult)),
    'tools/call': multiRoundTrip(CallToolResult),
    'completion/complete': completeOnly(CompleteResult),
    // Input requests: their results travel in the retry's `inputResponses` and carry no `resultType`.
    'sampling/createMessage': 'CreateMessageResult',
    'roots/list': 'ListRootsResult',
    'elicitation/create': 'ElicitResult',
  },
  requestEnvelope: 'JSONRPCRequest',
  notificationEnvelope: 'JSONRPCNotification',
  errorResponse: 'JSONRPCErrorResponse',
  batches: false,
  extras: { inputRequiredResult: strictInputRequiredResult },
};
