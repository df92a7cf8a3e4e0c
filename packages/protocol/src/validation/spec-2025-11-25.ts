import {
  allOf,
  array,
  boolean,
  enumOf,
  extend,
  integer,
  literal,
  nullable,
  number,
  object,
  optional,
  record,
  string,
  union,
  unknown,
  type Validator,
} from './kit.js';
import type { RevisionDefinition } from './revision-definition.js';
import { parts20250618, types20250618 } from './spec-2025-06-18.js';
import {
  anyObject,
  ErrorObject,
  jsonrpcVersion,
  loggingLevel,
  ModelPreferences,
  modernNotification,
  modernRequest,
  requestId,
  role,
} from './spec-common.js';

// Revision 2025-11-25 (JSON Schema 2020-12). Request and notification types now carry `jsonrpc` (and `id`) and their
// params are types of their own. New: icons, `Implementation.description/websiteUrl`, tasks (experimental), URL-mode
// elicitation, sampling with tools, the titled/multi-select elicitation enums, `JSONRPCErrorResponse` with an
// optional `id`, `notifications/cancelled` with an optional `requestId`.

const previous = types20250618;
const { meta } = parts20250618;
const title = optional(string());
const description = optional(string());

const Icon = object(
  {
    mimeType: optional(string()),
    sizes: optional(array(string())),
    src: string(),
    theme: optional(enumOf(['dark', 'light'])),
  },
  { name: 'Icon' },
);
const icons = optional(array(Icon));
const Icons = object({ icons }, { name: 'Icons' });
const Implementation = extend(previous.Implementation, { description, icons, websiteUrl: optional(string()) });

const ResourceLink = extend(previous.ResourceLink, { icons });
const { TextContent, ImageContent, AudioContent, EmbeddedResource } = previous;
const ContentBlock = union([TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource], {
  name: 'ContentBlock',
});
const ToolUseContent = object(
  { _meta: meta, id: string(), input: anyObject, name: string(), type: literal('tool_use') },
  { name: 'ToolUseContent' },
);
const ToolResultContent = object(
  {
    _meta: meta,
    content: array(ContentBlock),
    isError: optional(boolean()),
    structuredContent: optional(anyObject),
    toolUseId: string(),
    type: literal('tool_result'),
  },
  { name: 'ToolResultContent' },
);
const SamplingMessageContentBlock = union(
  [TextContent, ImageContent, AudioContent, ToolUseContent, ToolResultContent],
  {
    name: 'SamplingMessageContentBlock',
  },
);
const samplingContent = union(
  [TextContent, ImageContent, AudioContent, ToolUseContent, ToolResultContent, array(SamplingMessageContentBlock)],
  { name: 'SamplingMessageContentBlock | SamplingMessageContentBlock[]' },
);
const SamplingMessage = object({ _meta: meta, content: samplingContent, role }, { name: 'SamplingMessage' });

const Resource = extend(previous.Resource, { icons });
const ResourceTemplate = extend(previous.ResourceTemplate, { icons });
const Prompt = extend(previous.Prompt, { icons });
const PromptMessage = extend(previous.PromptMessage, { content: ContentBlock });
const ToolExecution = object(
  { taskSupport: optional(enumOf(['forbidden', 'optional', 'required'])) },
  { name: 'ToolExecution' },
);
const toolSchema = (name: string) => extend(parts20250618.inputSchema, { $schema: optional(string()) }, { name });
const Tool = extend(previous.Tool, {
  execution: optional(ToolExecution),
  icons,
  inputSchema: toolSchema('inputSchema'),
  outputSchema: optional(toolSchema('outputSchema')),
});
const ToolChoice = object({ mode: optional(enumOf(['auto', 'none', 'required'])) }, { name: 'ToolChoice' });

const ClientCapabilities = object(
  {
    elicitation: optional(object({ form: optional(anyObject), url: optional(anyObject) })),
    experimental: optional(record(anyObject)),
    roots: optional(object({ listChanged: optional(boolean()) })),
    sampling: optional(object({ context: optional(anyObject), tools: optional(anyObject) })),
    tasks: optional(
      object({
        cancel: optional(anyObject),
        list: optional(anyObject),
        requests: optional(
          object({
            elicitation: optional(object({ create: optional(anyObject) })),
            sampling: optional(object({ createMessage: optional(anyObject) })),
          }),
        ),
      }),
    ),
  },
  { name: 'ClientCapabilities' },
);
const ServerCapabilities = extend(previous.ServerCapabilities, {
  tasks: optional(
    object({
      cancel: optional(anyObject),
      list: optional(anyObject),
      requests: optional(object({ tools: optional(object({ call: optional(anyObject) })) })),
    }),
  ),
});

// Tasks.
const TaskStatus = enumOf(['cancelled', 'completed', 'failed', 'input_required', 'working']);
const Task = object(
  {
    createdAt: string(),
    lastUpdatedAt: string(),
    pollInterval: optional(integer()),
    status: TaskStatus,
    statusMessage: optional(string()),
    taskId: string(),
    ttl: nullable(integer()),
  },
  { name: 'Task' },
);
const TaskMetadata = object({ ttl: optional(integer()) }, { name: 'TaskMetadata' });
const RelatedTaskMetadata = object({ taskId: string() }, { name: 'RelatedTaskMetadata' });

// Params.
const requestMeta = optional(object({ progressToken: optional(requestId) }));
const task = optional(TaskMetadata);
const RequestParams = object({ _meta: requestMeta }, { name: 'RequestParams' });
const NotificationParams = object({ _meta: meta }, { name: 'NotificationParams' });
const TaskAugmentedRequestParams = object({ _meta: requestMeta, task }, { name: 'TaskAugmentedRequestParams' });
const PaginatedRequestParams = object(
  { _meta: requestMeta, cursor: optional(string()) },
  { name: 'PaginatedRequestParams' },
);
const ResourceRequestParams = object({ _meta: requestMeta, uri: string() }, { name: 'ResourceRequestParams' });
const uriParams = (name: string) => object({ _meta: requestMeta, uri: string() }, { name });
const ReadResourceRequestParams = uriParams('ReadResourceRequestParams');
const SubscribeRequestParams = uriParams('SubscribeRequestParams');
const UnsubscribeRequestParams = uriParams('UnsubscribeRequestParams');
const CallToolRequestParams = object(
  { _meta: requestMeta, arguments: optional(anyObject), name: string(), task },
  { name: 'CallToolRequestParams' },
);
const GetPromptRequestParams = object(
  { _meta: requestMeta, arguments: optional(record(string())), name: string() },
  { name: 'GetPromptRequestParams' },
);
const InitializeRequestParams = object(
  { _meta: requestMeta, capabilities: ClientCapabilities, clientInfo: Implementation, protocolVersion: string() },
  { name: 'InitializeRequestParams' },
);
const SetLevelRequestParams = object({ _meta: requestMeta, level: loggingLevel }, { name: 'SetLevelRequestParams' });
const CompleteRequestParams = extend(
  parts20250618.completeParams,
  { _meta: requestMeta },
  { name: 'CompleteRequestParams' },
);
const CreateMessageRequestParams = object(
  {
    _meta: requestMeta,
    includeContext: optional(parts20250618.includeContext),
    maxTokens: integer(),
    messages: array(SamplingMessage),
    metadata: optional(anyObject),
    modelPreferences: optional(ModelPreferences),
    stopSequences: optional(array(string())),
    systemPrompt: optional(string()),
    task,
    temperature: optional(number()),
    toolChoice: optional(ToolChoice),
    tools: optional(array(Tool)),
  },
  { name: 'CreateMessageRequestParams' },
);
const CancelledNotificationParams = object(
  { _meta: meta, reason: optional(string()), requestId: optional(requestId) },
  { name: 'CancelledNotificationParams' },
);
const ProgressNotificationParams = object(
  { _meta: meta, message: optional(string()), progress: number(), progressToken: requestId, total: optional(number()) },
  { name: 'ProgressNotificationParams' },
);
const LoggingMessageNotificationParams = object(
  { _meta: meta, data: unknown(), level: loggingLevel, logger: optional(string()) },
  { name: 'LoggingMessageNotificationParams' },
);
const ResourceUpdatedNotificationParams = object(
  { _meta: meta, uri: string() },
  { name: 'ResourceUpdatedNotificationParams' },
);
const TaskStatusNotificationParams = allOf([NotificationParams, Task], { name: 'TaskStatusNotificationParams' });

// Elicitation.
const selectOption = object({ const: string(), title: string() });
const StringSchema = extend(previous.StringSchema, { default: optional(string()) });
const NumberSchema = extend(previous.NumberSchema, { default: optional(number()) });
const BooleanSchema = previous.BooleanSchema;
const UntitledSingleSelectEnumSchema = object(
  { default: optional(string()), description, enum: array(string()), title, type: literal('string') },
  { name: 'UntitledSingleSelectEnumSchema' },
);
const TitledSingleSelectEnumSchema = object(
  { default: optional(string()), description, oneOf: array(selectOption), title, type: literal('string') },
  { name: 'TitledSingleSelectEnumSchema' },
);
const multiSelect = {
  default: optional(array(string())),
  description,
  maxItems: optional(integer()),
  minItems: optional(integer()),
  title,
  type: literal('array'),
};
const UntitledMultiSelectEnumSchema = object(
  { ...multiSelect, items: object({ enum: array(string()), type: literal('string') }) },
  { name: 'UntitledMultiSelectEnumSchema' },
);
const TitledMultiSelectEnumSchema = object(
  { ...multiSelect, items: object({ anyOf: array(selectOption) }) },
  { name: 'TitledMultiSelectEnumSchema' },
);
const LegacyTitledEnumSchema = extend(
  previous.EnumSchema,
  { default: optional(string()) },
  { name: 'LegacyTitledEnumSchema' },
);
const SingleSelectEnumSchema = union([UntitledSingleSelectEnumSchema, TitledSingleSelectEnumSchema], {
  name: 'SingleSelectEnumSchema',
});
const MultiSelectEnumSchema = union([UntitledMultiSelectEnumSchema, TitledMultiSelectEnumSchema], {
  name: 'MultiSelectEnumSchema',
});
const EnumSchema = union(
  [
    UntitledSingleSelectEnumSchema,
    TitledSingleSelectEnumSchema,
    UntitledMultiSelectEnumSchema,
    TitledMultiSelectEnumSchema,
    LegacyTitledEnumSchema,
  ],
  { name: 'EnumSchema' },
);
const PrimitiveSchemaDefinition = union(
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
const requestedSchema = object({
  $schema: optional(string()),
  properties: record(PrimitiveSchemaDefinition),
  required: optional(array(string())),
  type: literal('object'),
});
const ElicitRequestFormParams = object(
  { _meta: requestMeta, message: string(), mode: optional(literal('form')), requestedSchema, task },
  { name: 'ElicitRequestFormParams' },
);
const ElicitRequestURLParams = object(
  { _meta: requestMeta, elicitationId: string(), message: string(), mode: literal('url'), task, url: string() },
  { name: 'ElicitRequestURLParams' },
);
const ElicitRequestParams = union([ElicitRequestURLParams, ElicitRequestFormParams], { name: 'ElicitRequestParams' });
/** See 2025-06-18: numbers with a fraction are accepted where the schema says integer (allow-listed). */
const elicitValue = union([array(string()), string(), number(), boolean()], {
  name: 'string | number | boolean | string[]',
});
const ElicitResult = extend(previous.ElicitResult, { content: optional(record(elicitValue)) });

// Results.
const Result = previous.Result;
const CallToolResult = extend(previous.CallToolResult, { content: array(ContentBlock) });
const CreateMessageResult = object(
  { _meta: meta, content: samplingContent, model: string(), role, stopReason: optional(string()) },
  { name: 'CreateMessageResult' },
);
const CreateTaskResult = object({ _meta: meta, task: Task }, { name: 'CreateTaskResult' });
const GetTaskResult = allOf([Result, Task], { name: 'GetTaskResult' });
const CancelTaskResult = allOf([Result, Task], { name: 'CancelTaskResult' });
const GetTaskPayloadResult = object({ _meta: meta }, { name: 'GetTaskPayloadResult' });
const ListTasksResult = object(
  { _meta: meta, nextCursor: optional(string()), tasks: array(Task) },
  { name: 'ListTasksResult' },
);
const GetPromptResult = extend(previous.GetPromptResult, { messages: array(PromptMessage) });
const InitializeResult = extend(previous.InitializeResult, {
  capabilities: ServerCapabilities,
  serverInfo: Implementation,
});
const ListPromptsResult = extend(previous.ListPromptsResult, { prompts: array(Prompt) });
const ListResourcesResult = extend(previous.ListResourcesResult, { resources: array(Resource) });
const ListResourceTemplatesResult = extend(previous.ListResourceTemplatesResult, {
  resourceTemplates: array(ResourceTemplate),
});
const ListToolsResult = extend(previous.ListToolsResult, { tools: array(Tool) });

// Requests and notifications (with their JSON-RPC envelope).
const taskIdParams = object({ taskId: string() });
const CallToolRequest = modernRequest('CallToolRequest', 'tools/call', CallToolRequestParams, true);
const CancelTaskRequest = modernRequest('CancelTaskRequest', 'tasks/cancel', taskIdParams, true);
const CompleteRequest = modernRequest('CompleteRequest', 'completion/complete', CompleteRequestParams, true);
const CreateMessageRequest = modernRequest(
  'CreateMessageRequest',
  'sampling/createMessage',
  CreateMessageRequestParams,
  true,
);
const ElicitRequest = modernRequest('ElicitRequest', 'elicitation/create', ElicitRequestParams, true);
const GetPromptRequest = modernRequest('GetPromptRequest', 'prompts/get', GetPromptRequestParams, true);
const GetTaskPayloadRequest = modernRequest('GetTaskPayloadRequest', 'tasks/result', taskIdParams, true);
const GetTaskRequest = modernRequest('GetTaskRequest', 'tasks/get', taskIdParams, true);
const InitializeRequest = modernRequest('InitializeRequest', 'initialize', InitializeRequestParams, true);
const ListPromptsRequest = modernRequest('ListPromptsRequest', 'prompts/list', PaginatedRequestParams, false);
const ListResourceTemplatesRequest = modernRequest(
  'ListResourceTemplatesRequest',
  'resources/templates/list',
  PaginatedRequestParams,
  false,
);
const ListResourcesRequest = modernRequest('ListResourcesRequest', 'resources/list', PaginatedRequestParams, false);
const ListRootsRequest = modernRequest('ListRootsRequest', 'roots/list', RequestParams, false);
const ListTasksRequest = modernRequest('ListTasksRequest', 'tasks/list', PaginatedRequestParams, false);
const ListToolsRequest = modernRequest('ListToolsRequest', 'tools/list', PaginatedRequestParams, false);
const PingRequest = modernRequest('PingRequest', 'ping', RequestParams, false);
const ReadResourceRequest = modernRequest('ReadResourceRequest', 'resources/read', ReadResourceRequestParams, true);
const SetLevelRequest = modernRequest('SetLevelRequest', 'logging/setLevel', SetLevelRequestParams, true);
const SubscribeRequest = modernRequest('SubscribeRequest', 'resources/subscribe', SubscribeRequestParams, true);
const UnsubscribeRequest = modernRequest('UnsubscribeRequest', 'resources/unsubscribe', UnsubscribeRequestParams, true);

const CancelledNotification = modernNotification(
  'CancelledNotification',
  'notifications/cancelled',
  CancelledNotificationParams,
  true,
);
const ElicitationCompleteNotification = modernNotification(
  'ElicitationCompleteNotification',
  'notifications/elicitation/complete',
  object({ elicitationId: string() }),
  true,
);
const InitializedNotification = modernNotification(
  'InitializedNotification',
  'notifications/initialized',
  NotificationParams,
  false,
);
const LoggingMessageNotification = modernNotification(
  'LoggingMessageNotification',
  'notifications/message',
  LoggingMessageNotificationParams,
  true,
);
const ProgressNotification = modernNotification(
  'ProgressNotification',
  'notifications/progress',
  ProgressNotificationParams,
  true,
);
const PromptListChangedNotification = modernNotification(
  'PromptListChangedNotification',
  'notifications/prompts/list_changed',
  NotificationParams,
  false,
);
const ResourceListChangedNotification = modernNotification(
  'ResourceListChangedNotification',
  'notifications/resources/list_changed',
  NotificationParams,
  false,
);
const ResourceUpdatedNotification = modernNotification(
  'ResourceUpdatedNotification',
  'notifications/resources/updated',
  ResourceUpdatedNotificationParams,
  true,
);
const RootsListChangedNotification = modernNotification(
  'RootsListChangedNotification',
  'notifications/roots/list_changed',
  NotificationParams,
  false,
);
const TaskStatusNotification = modernNotification(
  'TaskStatusNotification',
  'notifications/tasks/status',
  TaskStatusNotificationParams,
  true,
);
const ToolListChangedNotification = modernNotification(
  'ToolListChangedNotification',
  'notifications/tools/list_changed',
  NotificationParams,
  false,
);

const JSONRPCRequest = object(
  { id: requestId, jsonrpc: jsonrpcVersion, method: string(), params: optional(anyObject) },
  { name: 'JSONRPCRequest' },
);
const JSONRPCNotification = object(
  { jsonrpc: jsonrpcVersion, method: string(), params: optional(anyObject) },
  { name: 'JSONRPCNotification' },
);
const JSONRPCResultResponse = object(
  { id: requestId, jsonrpc: jsonrpcVersion, result: Result },
  { name: 'JSONRPCResultResponse' },
);
const JSONRPCErrorResponse = object(
  { error: ErrorObject, id: optional(requestId), jsonrpc: jsonrpcVersion },
  { name: 'JSONRPCErrorResponse' },
);
const URLElicitationRequiredError = object(
  {
    error: allOf([
      ErrorObject,
      object({ code: literal(-32042), data: object({ elicitations: array(ElicitRequestURLParams) }) }),
    ]),
    id: optional(requestId),
    jsonrpc: jsonrpcVersion,
  },
  { name: 'URLElicitationRequiredError' },
);

/** `tools/call`, `sampling/createMessage` and `elicitation/create` answer `CreateTaskResult` when task-augmented. */
const orTask = (result: Validator, name: string) =>
  union([result, CreateTaskResult], { name: `${name} | CreateTaskResult` });

/** Every type of the 2025-11-25 schema. */
export const types20251125 = {
  Annotations: previous.Annotations,
  AudioContent,
  BaseMetadata: previous.BaseMetadata,
  BlobResourceContents: previous.BlobResourceContents,
  BooleanSchema,
  CallToolRequest,
  CallToolRequestParams,
  CallToolResult,
  CancelTaskRequest,
  CancelTaskResult,
  CancelledNotification,
  CancelledNotificationParams,
  ClientCapabilities,
  ClientNotification: union(
    [
      CancelledNotification,
      InitializedNotification,
      ProgressNotification,
      TaskStatusNotification,
      RootsListChangedNotification,
    ],
    { name: 'ClientNotification' },
  ),
  ClientRequest: union(
    [
      InitializeRequest,
      PingRequest,
      ListResourcesRequest,
      ListResourceTemplatesRequest,
      ReadResourceRequest,
      SubscribeRequest,
      UnsubscribeRequest,
      ListPromptsRequest,
      GetPromptRequest,
      ListToolsRequest,
      CallToolRequest,
      GetTaskRequest,
      GetTaskPayloadRequest,
      CancelTaskRequest,
      ListTasksRequest,
      SetLevelRequest,
      CompleteRequest,
    ],
    { name: 'ClientRequest' },
  ),
  ClientResult: union(
    [
      Result,
      GetTaskResult,
      GetTaskPayloadResult,
      CancelTaskResult,
      ListTasksResult,
      CreateMessageResult,
      previous.ListRootsResult,
      ElicitResult,
    ],
    { name: 'ClientResult' },
  ),
  CompleteRequest,
  CompleteRequestParams,
  CompleteResult: previous.CompleteResult,
  ContentBlock,
  CreateMessageRequest,
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateTaskResult,
  Cursor: previous.Cursor,
  ElicitRequest,
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitRequestURLParams,
  ElicitResult,
  ElicitationCompleteNotification,
  EmbeddedResource,
  EmptyResult: Result,
  EnumSchema,
  Error: ErrorObject,
  GetPromptRequest,
  GetPromptRequestParams,
  GetPromptResult,
  GetTaskPayloadRequest,
  GetTaskPayloadResult,
  GetTaskRequest,
  GetTaskResult,
  Icon,
  Icons,
  ImageContent,
  Implementation,
  InitializeRequest,
  InitializeRequestParams,
  InitializeResult,
  InitializedNotification,
  JSONRPCErrorResponse,
  JSONRPCMessage: union([JSONRPCRequest, JSONRPCNotification, JSONRPCResultResponse, JSONRPCErrorResponse], {
    name: 'JSONRPCMessage',
  }),
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse: union([JSONRPCResultResponse, JSONRPCErrorResponse], { name: 'JSONRPCResponse' }),
  JSONRPCResultResponse,
  LegacyTitledEnumSchema,
  ListPromptsRequest,
  ListPromptsResult,
  ListResourceTemplatesRequest,
  ListResourceTemplatesResult,
  ListResourcesRequest,
  ListResourcesResult,
  ListRootsRequest,
  ListRootsResult: previous.ListRootsResult,
  ListTasksRequest,
  ListTasksResult,
  ListToolsRequest,
  ListToolsResult,
  LoggingLevel: loggingLevel,
  LoggingMessageNotification,
  LoggingMessageNotificationParams,
  ModelHint: previous.ModelHint,
  ModelPreferences,
  MultiSelectEnumSchema,
  Notification: object({ method: string(), params: optional(anyObject) }, { name: 'Notification' }),
  NotificationParams,
  NumberSchema,
  PaginatedRequest: object(
    { id: requestId, jsonrpc: jsonrpcVersion, method: string(), params: optional(PaginatedRequestParams) },
    { name: 'PaginatedRequest' },
  ),
  PaginatedRequestParams,
  PaginatedResult: previous.PaginatedResult,
  PingRequest,
  PrimitiveSchemaDefinition,
  ProgressNotification,
  ProgressNotificationParams,
  ProgressToken: requestId,
  Prompt,
  PromptArgument: previous.PromptArgument,
  PromptListChangedNotification,
  PromptMessage,
  PromptReference: previous.PromptReference,
  ReadResourceRequest,
  ReadResourceRequestParams,
  ReadResourceResult: previous.ReadResourceResult,
  RelatedTaskMetadata,
  Request: object({ method: string(), params: optional(anyObject) }, { name: 'Request' }),
  RequestId: requestId,
  RequestParams,
  Resource,
  ResourceContents: previous.ResourceContents,
  ResourceLink,
  ResourceListChangedNotification,
  ResourceRequestParams,
  ResourceTemplate,
  ResourceTemplateReference: previous.ResourceTemplateReference,
  ResourceUpdatedNotification,
  ResourceUpdatedNotificationParams,
  Result,
  Role: role,
  Root: previous.Root,
  RootsListChangedNotification,
  SamplingMessage,
  SamplingMessageContentBlock,
  ServerCapabilities,
  ServerNotification: union(
    [
      CancelledNotification,
      ProgressNotification,
      ResourceListChangedNotification,
      ResourceUpdatedNotification,
      PromptListChangedNotification,
      ToolListChangedNotification,
      TaskStatusNotification,
      LoggingMessageNotification,
      ElicitationCompleteNotification,
    ],
    { name: 'ServerNotification' },
  ),
  ServerRequest: union(
    [
      PingRequest,
      GetTaskRequest,
      GetTaskPayloadRequest,
      CancelTaskRequest,
      ListTasksRequest,
      CreateMessageRequest,
      ListRootsRequest,
      ElicitRequest,
    ],
    { name: 'ServerRequest' },
  ),
  ServerResult: union(
    [
      Result,
      InitializeResult,
      ListResourcesResult,
      ListResourceTemplatesResult,
      previous.ReadResourceResult,
      ListPromptsResult,
      GetPromptResult,
      ListToolsResult,
      CallToolResult,
      GetTaskResult,
      GetTaskPayloadResult,
      CancelTaskResult,
      ListTasksResult,
      previous.CompleteResult,
    ],
    { name: 'ServerResult' },
  ),
  SetLevelRequest,
  SetLevelRequestParams,
  SingleSelectEnumSchema,
  StringSchema,
  SubscribeRequest,
  SubscribeRequestParams,
  Task,
  TaskAugmentedRequestParams,
  TaskMetadata,
  TaskStatus,
  TaskStatusNotification,
  TaskStatusNotificationParams,
  TextContent,
  TextResourceContents: previous.TextResourceContents,
  TitledMultiSelectEnumSchema,
  TitledSingleSelectEnumSchema,
  Tool,
  ToolAnnotations: previous.ToolAnnotations,
  ToolChoice,
  ToolExecution,
  ToolListChangedNotification,
  ToolResultContent,
  ToolUseContent,
  URLElicitationRequiredError,
  UnsubscribeRequest,
  UnsubscribeRequestParams,
  UntitledMultiSelectEnumSchema,
  UntitledSingleSelectEnumSchema,
};

/** Building blocks reused by 2026-07-28. */
export const parts20251125 = { ...parts20250618, elicitValue, requestedSchema, selectOption, toolSchema };

const taskMethods = {
  'tasks/get': 'GetTaskRequest',
  'tasks/result': 'GetTaskPayloadRequest',
  'tasks/list': 'ListTasksRequest',
  'tasks/cancel': 'CancelTaskRequest',
} as const;

export const revision20251125: RevisionDefinition = {
  version: '2025-11-25',
  types: types20251125,
  typesIncludeEnvelope: true,
  clientRequests: {
    initialize: 'InitializeRequest',
    ping: 'PingRequest',
    'resources/list': 'ListResourcesRequest',
    'resources/templates/list': 'ListResourceTemplatesRequest',
    'resources/read': 'ReadResourceRequest',
    'resources/subscribe': 'SubscribeRequest',
    'resources/unsubscribe': 'UnsubscribeRequest',
    'prompts/list': 'ListPromptsRequest',
    'prompts/get': 'GetPromptRequest',
    'tools/list': 'ListToolsRequest',
    'tools/call': 'CallToolRequest',
    ...taskMethods,
    'logging/setLevel': 'SetLevelRequest',
    'completion/complete': 'CompleteRequest',
  },
  serverRequests: {
    ping: 'PingRequest',
    ...taskMethods,
    'sampling/createMessage': 'CreateMessageRequest',
    'roots/list': 'ListRootsRequest',
    'elicitation/create': 'ElicitRequest',
  },
  clientNotifications: {
    'notifications/cancelled': 'CancelledNotification',
    'notifications/initialized': 'InitializedNotification',
    'notifications/progress': 'ProgressNotification',
    'notifications/tasks/status': 'TaskStatusNotification',
    'notifications/roots/list_changed': 'RootsListChangedNotification',
  },
  serverNotifications: {
    'notifications/cancelled': 'CancelledNotification',
    'notifications/progress': 'ProgressNotification',
    'notifications/resources/list_changed': 'ResourceListChangedNotification',
    'notifications/resources/updated': 'ResourceUpdatedNotification',
    'notifications/prompts/list_changed': 'PromptListChangedNotification',
    'notifications/tools/list_changed': 'ToolListChangedNotification',
    'notifications/tasks/status': 'TaskStatusNotification',
    'notifications/message': 'LoggingMessageNotification',
    'notifications/elicitation/complete': 'ElicitationCompleteNotification',
  },
  results: {
    initialize: 'InitializeResult',
    ping: 'EmptyResult',
    'resources/list': 'ListResourcesResult',
    'resources/templates/list': 'ListResourceTemplatesResult',
    'resources/read': 'ReadResourceResult',
    'resources/subscribe': 'EmptyResult',
    'resources/unsubscribe': 'EmptyResult',
    'prompts/list': 'ListPromptsResult',
    'prompts/get': 'GetPromptResult',
    'tools/list': 'ListToolsResult',
    'tools/call': orTask(CallToolResult, 'CallToolResult'),
    'tasks/get': 'GetTaskResult',
    'tasks/result': 'GetTaskPayloadResult',
    'tasks/list': 'ListTasksResult',
    'tasks/cancel': 'CancelTaskResult',
    'logging/setLevel': 'EmptyResult',
    'completion/complete': 'CompleteResult',
    'sampling/createMessage': orTask(CreateMessageResult, 'CreateMessageResult'),
    'roots/list': 'ListRootsResult',
    'elicitation/create': orTask(ElicitResult, 'ElicitResult'),
  },
  requestEnvelope: 'JSONRPCRequest',
  notificationEnvelope: 'JSONRPCNotification',
  errorResponse: 'JSONRPCErrorResponse',
  batches: false,
};
