import {
  BooleanSchema,
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitRequestURLParams,
  ElicitResult,
  EnumSchema,
  elicitValue,
  LegacyTitledEnumSchema,
  MultiSelectEnumSchema,
  NumberSchema,
  PrimitiveSchemaDefinition,
  requestedSchema,
  SingleSelectEnumSchema,
  StringSchema,
  selectOption,
  TitledMultiSelectEnumSchema,
  TitledSingleSelectEnumSchema,
  UntitledMultiSelectEnumSchema,
  UntitledSingleSelectEnumSchema,
} from './elicitation-2025-11-25.js';
import {
  array,
  boolean,
  enumOf,
  extend,
  integer,
  literal,
  number,
  object,
  optional,
  record,
  string,
  unknown,
  type Validator,
} from './kit.js';
import { allOf, nullable, union } from './kit-combinators.js';
import type { RevisionDefinition } from './revision-definition.js';
import { methods20250618, parts20250618, types20250618 } from './spec-2025-06-18.js';
import {
  anyObject,
  ErrorObject,
  jsonrpcVersion,
  loggingLevel,
  ModelPreferences,
  messageUnions,
  modernNotification,
  modernRequest,
  requestId,
  role,
  sharedMessages,
} from './spec-common.js';

// Revision 2025-11-25 (JSON Schema 2020-12). Request and notification types now carry `jsonrpc` (and `id`) and their
// params are types of their own. New: icons, `Implementation.description/websiteUrl`, tasks (experimental), URL-mode
// elicitation, sampling with tools, the titled/multi-select elicitation enums, `JSONRPCErrorResponse` with an
// optional `id`, `notifications/cancelled` with an optional `requestId`.

const previous = types20250618;
const { meta } = parts20250618;
const _title = optional(string());
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
/** The sampling content unions, around a revision's `ToolResultContent` (2026-07-28 widens its `structuredContent`). */
const samplingContentOf = (toolResult: Validator) => {
  const SamplingMessageContentBlock = union([TextContent, ImageContent, AudioContent, ToolUseContent, toolResult], {
    name: 'SamplingMessageContentBlock',
  });
  const samplingContent = union(
    [TextContent, ImageContent, AudioContent, ToolUseContent, toolResult, array(SamplingMessageContentBlock)],
    { name: 'SamplingMessageContentBlock | SamplingMessageContentBlock[]' },
  );
  return { SamplingMessageContentBlock, samplingContent };
};
const { SamplingMessageContentBlock, samplingContent } = samplingContentOf(ToolResultContent);
const SamplingMessage = extend(previous.SamplingMessage, { _meta: meta, content: samplingContent });

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
const CreateMessageRequestParams = extend(
  parts20250618.createMessageParams,
  {
    _meta: requestMeta,
    messages: array(SamplingMessage),
    task,
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

// Results.
const Result = previous.Result;
const CallToolResult = extend(previous.CallToolResult, { content: array(ContentBlock) });
const CreateMessageResult = extend(previous.CreateMessageResult, { content: samplingContent });
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
  false,
);
const taskIdParams = object({ taskId: string() });
const CancelTaskRequest = modernRequest('CancelTaskRequest', 'tasks/cancel', taskIdParams, true);
const CreateMessageRequest = modernRequest(
  'CreateMessageRequest',
  'sampling/createMessage',
  CreateMessageRequestParams,
  true,
);
const ElicitRequest = modernRequest('ElicitRequest', 'elicitation/create', ElicitRequestParams, true);
const GetTaskPayloadRequest = modernRequest('GetTaskPayloadRequest', 'tasks/result', taskIdParams, true);
const GetTaskRequest = modernRequest('GetTaskRequest', 'tasks/get', taskIdParams, true);
const InitializeRequest = modernRequest('InitializeRequest', 'initialize', InitializeRequestParams, true);
const ListRootsRequest = modernRequest('ListRootsRequest', 'roots/list', RequestParams, false);
const ListTasksRequest = modernRequest('ListTasksRequest', 'tasks/list', PaginatedRequestParams, false);
const PingRequest = modernRequest('PingRequest', 'ping', RequestParams, false);
const SetLevelRequest = modernRequest('SetLevelRequest', 'logging/setLevel', SetLevelRequestParams, true);
const SubscribeRequest = modernRequest('SubscribeRequest', 'resources/subscribe', SubscribeRequestParams, true);
const UnsubscribeRequest = modernRequest('UnsubscribeRequest', 'resources/unsubscribe', UnsubscribeRequestParams, true);

const notice = (name: string, method: string) => modernNotification(name, method, NotificationParams, false);
const ElicitationCompleteNotification = modernNotification(
  'ElicitationCompleteNotification',
  'notifications/elicitation/complete',
  object({ elicitationId: string() }),
  true,
);
const InitializedNotification = notice('InitializedNotification', 'notifications/initialized');
const RootsListChangedNotification = notice('RootsListChangedNotification', 'notifications/roots/list_changed');
const TaskStatusNotification = modernNotification(
  'TaskStatusNotification',
  'notifications/tasks/status',
  TaskStatusNotificationParams,
  true,
);

const JSONRPCRequest = extend(previous.JSONRPCRequest, { params: optional(anyObject) });
const JSONRPCNotification = extend(previous.JSONRPCNotification, { params: optional(anyObject) });
const JSONRPCResultResponse = extend(previous.JSONRPCResponse, {}, { name: 'JSONRPCResultResponse' });
const JSONRPCErrorResponse = extend(
  previous.JSONRPCError,
  { id: optional(requestId) },
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

/** The types of the 2025-11-25 schema but the message unions, which follow from the method tables. */
const own = {
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
export const parts20251125 = {
  ...parts20250618,
  elicitValue,
  requestedSchema,
  samplingContentOf,
  selectOption,
  toolSchema,
};

const taskMethods = {
  'tasks/get': 'GetTaskRequest',
  'tasks/result': 'GetTaskPayloadRequest',
  'tasks/list': 'ListTasksRequest',
  'tasks/cancel': 'CancelTaskRequest',
} as const;
const notificationsTasksStatus = { 'notifications/tasks/status': 'TaskStatusNotification' } as const;
const { clientRequests, serverRequests, clientNotifications, serverNotifications, results } = methods20250618;

export const methods20251125 = {
  clientRequests: { ...clientRequests, ...taskMethods },
  serverRequests: { ...serverRequests, ...taskMethods },
  clientNotifications: { ...clientNotifications, ...notificationsTasksStatus },
  serverNotifications: {
    ...serverNotifications,
    ...notificationsTasksStatus,
    'notifications/elicitation/complete': 'ElicitationCompleteNotification',
  },
  results: {
    ...results,
    'tasks/get': 'GetTaskResult',
    'tasks/result': 'GetTaskPayloadResult',
    'tasks/list': 'ListTasksResult',
    'tasks/cancel': 'CancelTaskResult',
  },
} as const;

/** Every type of the 2025-11-25 schema. */
export const types20251125 = { ...own, ...messageUnions(own, methods20251125) };

export const revision20251125: RevisionDefinition = {
  version: '2025-11-25',
  types: types20251125,
  typesIncludeEnvelope: true,
  ...methods20251125,
  results: {
    ...methods20251125.results,
    'tools/call': orTask(CallToolResult, 'CallToolResult'),
    'sampling/createMessage': orTask(CreateMessageResult, 'CreateMessageResult'),
    'elicitation/create': orTask(ElicitResult, 'ElicitResult'),
  },
  requestEnvelope: 'JSONRPCRequest',
  notificationEnvelope: 'JSONRPCNotification',
  errorResponse: 'JSONRPCErrorResponse',
  batches: false,
};
