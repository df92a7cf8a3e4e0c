import { array, boolean, enumOf, integer, literal, number, object, optional, record, string, unknown } from './kit.js';
import { union } from './kit-combinators.js';
import type { RevisionDefinition } from './revision-definition.js';
import {
  anyObject,
  ErrorObject,
  jsonrpcVersion,
  legacyMessage,
  loggingLevel,
  ModelHint,
  ModelPreferences,
  messageUnions,
  requestId,
  role,
  unitInterval,
} from './spec-common.js';

// Revision 2024-11-05 (schema.json, draft-07). Request and notification types are `{method, params}`; the JSON-RPC
// envelope is `JSONRPCRequest` / `JSONRPCNotification`. Content is text, image and embedded resource.

const Annotations = object(
  { audience: optional(array(role)), priority: optional(unitInterval) },
  { name: 'Annotations' },
);
const Annotated = object({ annotations: optional(Annotations) }, { name: 'Annotated' });

const TextResourceContents = object(
  { mimeType: optional(string()), text: string(), uri: string() },
  { name: 'TextResourceContents' },
);
const BlobResourceContents = object(
  { blob: string(), mimeType: optional(string()), uri: string() },
  { name: 'BlobResourceContents' },
);
const ResourceContents = object({ mimeType: optional(string()), uri: string() }, { name: 'ResourceContents' });
const resourceContentsUnion = union([TextResourceContents, BlobResourceContents]);

const TextContent = object(
  { annotations: optional(Annotations), text: string(), type: literal('text') },
  { name: 'TextContent' },
);
const ImageContent = object(
  { annotations: optional(Annotations), data: string(), mimeType: string(), type: literal('image') },
  { name: 'ImageContent' },
);
const EmbeddedResource = object(
  { annotations: optional(Annotations), resource: resourceContentsUnion, type: literal('resource') },
  { name: 'EmbeddedResource' },
);
const content = union([TextContent, ImageContent, EmbeddedResource], {
  name: 'TextContent | ImageContent | EmbeddedResource',
});
const samplingContent = union([TextContent, ImageContent], { name: 'TextContent | ImageContent' });

const Implementation = object({ name: string(), version: string() }, { name: 'Implementation' });

const ClientCapabilities = object(
  {
    experimental: optional(record(anyObject)),
    roots: optional(object({ listChanged: optional(boolean()) })),
    sampling: optional(anyObject),
  },
  { name: 'ClientCapabilities' },
);
const listChanged = object({ listChanged: optional(boolean()) });
const ServerCapabilities = object(
  {
    experimental: optional(record(anyObject)),
    logging: optional(anyObject),
    prompts: optional(listChanged),
    resources: optional(object({ listChanged: optional(boolean()), subscribe: optional(boolean()) })),
    tools: optional(listChanged),
  },
  { name: 'ServerCapabilities' },
);

const Resource = object(
  {
    annotations: optional(Annotations),
    description: optional(string()),
    mimeType: optional(string()),
    name: string(),
    size: optional(integer()),
    uri: string(),
  },
  { name: 'Resource' },
);
const ResourceTemplate = object(
  {
    annotations: optional(Annotations),
    description: optional(string()),
    mimeType: optional(string()),
    name: string(),
    uriTemplate: string(),
  },
  { name: 'ResourceTemplate' },
);
const PromptArgument = object(
  { description: optional(string()), name: string(), required: optional(boolean()) },
  { name: 'PromptArgument' },
);
const Prompt = object(
  { arguments: optional(array(PromptArgument)), description: optional(string()), name: string() },
  { name: 'Prompt' },
);
const PromptMessage = object({ content, role }, { name: 'PromptMessage' });
const PromptReference = object({ name: string(), type: literal('ref/prompt') }, { name: 'PromptReference' });
const ResourceReference = object({ type: literal('ref/resource'), uri: string() }, { name: 'ResourceReference' });
const Root = object({ name: optional(string()), uri: string() }, { name: 'Root' });
const SamplingMessage = object({ content: samplingContent, role }, { name: 'SamplingMessage' });
const inputSchema = object(
  { properties: optional(record(anyObject)), required: optional(array(string())), type: literal('object') },
  { name: 'inputSchema' },
);
const Tool = object({ description: optional(string()), inputSchema, name: string() }, { name: 'Tool' });

const includeContext = enumOf(['allServers', 'none', 'thisServer']);

// Params shared by several requests and notifications.
const requestParams = object({ _meta: optional(object({ progressToken: optional(requestId) })) });
const notificationParams = object({ _meta: optional(anyObject) });
const paginatedParams = object({ cursor: optional(string()) });
const uriParams = object({ uri: string() });
const meta = optional(anyObject);

const Result = object({ _meta: meta }, { name: 'Result' });
const PaginatedResult = object({ _meta: meta, nextCursor: optional(string()) }, { name: 'PaginatedResult' });

const InitializeRequest = legacyMessage(
  'InitializeRequest',
  'initialize',
  object({ capabilities: ClientCapabilities, clientInfo: Implementation, protocolVersion: string() }),
  true,
);
const InitializeResult = object(
  {
    _meta: meta,
    capabilities: ServerCapabilities,
    instructions: optional(string()),
    protocolVersion: string(),
    serverInfo: Implementation,
  },
  { name: 'InitializeResult' },
);
const PingRequest = legacyMessage('PingRequest', 'ping', requestParams, false);
const ListResourcesRequest = legacyMessage('ListResourcesRequest', 'resources/list', paginatedParams, false);
const ListResourcesResult = object(
  { _meta: meta, nextCursor: optional(string()), resources: array(Resource) },
  { name: 'ListResourcesResult' },
);
const ListResourceTemplatesRequest = legacyMessage(
  'ListResourceTemplatesRequest',
  'resources/templates/list',
  paginatedParams,
  false,
);
const ListResourceTemplatesResult = object(
  { _meta: meta, nextCursor: optional(string()), resourceTemplates: array(ResourceTemplate) },
  { name: 'ListResourceTemplatesResult' },
);
const ReadResourceRequest = legacyMessage('ReadResourceRequest', 'resources/read', uriParams, true);
const ReadResourceResult = object(
  { _meta: meta, contents: array(resourceContentsUnion) },
  { name: 'ReadResourceResult' },
);
const SubscribeRequest = legacyMessage('SubscribeRequest', 'resources/subscribe', uriParams, true);
const UnsubscribeRequest = legacyMessage('UnsubscribeRequest', 'resources/unsubscribe', uriParams, true);
const ListPromptsRequest = legacyMessage('ListPromptsRequest', 'prompts/list', paginatedParams, false);
const ListPromptsResult = object(
  { _meta: meta, nextCursor: optional(string()), prompts: array(Prompt) },
  { name: 'ListPromptsResult' },
);
const GetPromptRequest = legacyMessage(
  'GetPromptRequest',
  'prompts/get',
  object({ arguments: optional(record(string())), name: string() }),
  true,
);
const GetPromptResult = object(
  { _meta: meta, description: optional(string()), messages: array(PromptMessage) },
  { name: 'GetPromptResult' },
);
const ListToolsRequest = legacyMessage('ListToolsRequest', 'tools/list', paginatedParams, false);
const ListToolsResult = object(
  { _meta: meta, nextCursor: optional(string()), tools: array(Tool) },
  { name: 'ListToolsResult' },
);
const CallToolRequest = legacyMessage(
  'CallToolRequest',
  'tools/call',
  object({ arguments: optional(anyObject), name: string() }),
  true,
);
const CallToolResult = object(
  { _meta: meta, content: array(content), isError: optional(boolean()) },
  { name: 'CallToolResult' },
);
const SetLevelRequest = legacyMessage('SetLevelRequest', 'logging/setLevel', object({ level: loggingLevel }), true);
const CompleteRequest = legacyMessage(
  'CompleteRequest',
  'completion/complete',
  object({
    argument: object({ name: string(), value: string() }),
    ref: union([PromptReference, ResourceReference]),
  }),
  true,
);
const CompleteResult = object(
  {
    _meta: meta,
    completion: object({ hasMore: optional(boolean()), total: optional(integer()), values: array(string()) }),
  },
  { name: 'CompleteResult' },
);
const createMessageParams = object({
  includeContext: optional(includeContext),
  maxTokens: integer(),
  messages: array(SamplingMessage),
  metadata: optional(anyObject),
  modelPreferences: optional(ModelPreferences),
  stopSequences: optional(array(string())),
  systemPrompt: optional(string()),
  temperature: optional(number()),
});
const CreateMessageRequest = legacyMessage('CreateMessageRequest', 'sampling/createMessage', createMessageParams, true);
const CreateMessageResult = object(
  { _meta: meta, content: samplingContent, model: string(), role, stopReason: optional(string()) },
  { name: 'CreateMessageResult' },
);
const ListRootsRequest = legacyMessage('ListRootsRequest', 'roots/list', requestParams, false);
const ListRootsResult = object({ _meta: meta, roots: array(Root) }, { name: 'ListRootsResult' });

const CancelledNotification = legacyMessage(
  'CancelledNotification',
  'notifications/cancelled',
  object({ reason: optional(string()), requestId }),
  true,
);
const InitializedNotification = legacyMessage(
  'InitializedNotification',
  'notifications/initialized',
  notificationParams,
  false,
);
const progressParams = object({ progress: number(), progressToken: requestId, total: optional(number()) });
const ProgressNotification = legacyMessage('ProgressNotification', 'notifications/progress', progressParams, true);
const RootsListChangedNotification = legacyMessage(
  'RootsListChangedNotification',
  'notifications/roots/list_changed',
  notificationParams,
  false,
);
const ResourceListChangedNotification = legacyMessage(
  'ResourceListChangedNotification',
  'notifications/resources/list_changed',
  notificationParams,
  false,
);
const ResourceUpdatedNotification = legacyMessage(
  'ResourceUpdatedNotification',
  'notifications/resources/updated',
  uriParams,
  true,
);
const PromptListChangedNotification = legacyMessage(
  'PromptListChangedNotification',
  'notifications/prompts/list_changed',
  notificationParams,
  false,
);
const ToolListChangedNotification = legacyMessage(
  'ToolListChangedNotification',
  'notifications/tools/list_changed',
  notificationParams,
  false,
);
const LoggingMessageNotification = legacyMessage(
  'LoggingMessageNotification',
  'notifications/message',
  object({ data: unknown(), level: loggingLevel, logger: optional(string()) }),
  true,
);

const JSONRPCRequest = object(
  { id: requestId, jsonrpc: jsonrpcVersion, method: string(), params: optional(requestParams) },
  { name: 'JSONRPCRequest' },
);
const JSONRPCNotification = object(
  { jsonrpc: jsonrpcVersion, method: string(), params: optional(notificationParams) },
  { name: 'JSONRPCNotification' },
);
const JSONRPCResponse = object({ id: requestId, jsonrpc: jsonrpcVersion, result: Result }, { name: 'JSONRPCResponse' });
const JSONRPCError = object({ error: ErrorObject, id: requestId, jsonrpc: jsonrpcVersion }, { name: 'JSONRPCError' });

/** Building blocks of this revision that are not schema types of their own, for later revisions to derive from. */
export const parts20241105 = {
  Annotations,
  createMessageParams,
  includeContext,
  inputSchema,
  listChanged,
  meta,
  notificationParams,
  paginatedParams,
  progressParams,
  requestParams,
  resourceContentsUnion,
  uriParams,
};

/** Requests and notifications by method, and the result type of each request. */
export const methods20241105 = {
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
    'logging/setLevel': 'SetLevelRequest',
    'completion/complete': 'CompleteRequest',
  },
  serverRequests: {
    ping: 'PingRequest',
    'sampling/createMessage': 'CreateMessageRequest',
    'roots/list': 'ListRootsRequest',
  },
  clientNotifications: {
    'notifications/cancelled': 'CancelledNotification',
    'notifications/initialized': 'InitializedNotification',
    'notifications/progress': 'ProgressNotification',
    'notifications/roots/list_changed': 'RootsListChangedNotification',
  },
  serverNotifications: {
    'notifications/cancelled': 'CancelledNotification',
    'notifications/progress': 'ProgressNotification',
    'notifications/resources/list_changed': 'ResourceListChangedNotification',
    'notifications/resources/updated': 'ResourceUpdatedNotification',
    'notifications/prompts/list_changed': 'PromptListChangedNotification',
    'notifications/tools/list_changed': 'ToolListChangedNotification',
    'notifications/message': 'LoggingMessageNotification',
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
    'tools/call': 'CallToolResult',
    'logging/setLevel': 'EmptyResult',
    'completion/complete': 'CompleteResult',
    'sampling/createMessage': 'CreateMessageResult',
    'roots/list': 'ListRootsResult',
  },
} as const;

/** Every type of the 2024-11-05 schema but the message unions, which follow from the method tables. */
const own20241105 = {
  Annotated,
  BlobResourceContents,
  CallToolRequest,
  CallToolResult,
  CancelledNotification,
  ClientCapabilities,
  CompleteRequest,
  CompleteResult,
  CreateMessageRequest,
  CreateMessageResult,
  Cursor: string(),
  EmbeddedResource,
  EmptyResult: Result,
  GetPromptRequest,
  GetPromptResult,
  ImageContent,
  Implementation,
  InitializeRequest,
  InitializeResult,
  InitializedNotification,
  JSONRPCError,
  JSONRPCMessage: union([JSONRPCRequest, JSONRPCNotification, JSONRPCResponse, JSONRPCError], {
    name: 'JSONRPCMessage',
  }),
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
  ListPromptsRequest,
  ListPromptsResult,
  ListResourceTemplatesRequest,
  ListResourceTemplatesResult,
  ListResourcesRequest,
  ListResourcesResult,
  ListRootsRequest,
  ListRootsResult,
  ListToolsRequest,
  ListToolsResult,
  LoggingLevel: loggingLevel,
  LoggingMessageNotification,
  ModelHint,
  ModelPreferences,
  Notification: object({ method: string(), params: optional(notificationParams) }, { name: 'Notification' }),
  PaginatedRequest: object({ method: string(), params: optional(paginatedParams) }, { name: 'PaginatedRequest' }),
  PaginatedResult,
  PingRequest,
  ProgressNotification,
  ProgressToken: requestId,
  Prompt,
  PromptArgument,
  PromptListChangedNotification,
  PromptMessage,
  PromptReference,
  ReadResourceRequest,
  ReadResourceResult,
  Request: object({ method: string(), params: optional(requestParams) }, { name: 'Request' }),
  RequestId: requestId,
  Resource,
  ResourceContents,
  ResourceListChangedNotification,
  ResourceReference,
  ResourceTemplate,
  ResourceUpdatedNotification,
  Result,
  Role: role,
  Root,
  RootsListChangedNotification,
  SamplingMessage,
  ServerCapabilities,
  SetLevelRequest,
  SubscribeRequest,
  TextContent,
  TextResourceContents,
  Tool,
  ToolListChangedNotification,
  UnsubscribeRequest,
};

/** Every type of the 2024-11-05 schema. Later revisions reuse the ones that did not change. */
export const types20241105 = { ...own20241105, ...messageUnions(own20241105, methods20241105) };

export const revision20241105: RevisionDefinition = {
  version: '2024-11-05',
  types: types20241105,
  typesIncludeEnvelope: false,
  ...methods20241105,
  requestEnvelope: 'JSONRPCRequest',
  notificationEnvelope: 'JSONRPCNotification',
  errorResponse: 'JSONRPCError',
  batches: false,
};
