import { array, boolean, enumOf, extend, integer, literal, number, object, optional, record, string } from './kit.js';
import { union } from './kit-combinators.js';
import type { RevisionDefinition } from './revision-definition.js';
import { methods20241105 } from './spec-2024-11-05.js';
import { parts20250326, types20250326 } from './spec-2025-03-26.js';
import { anyObject, legacyMessage, messageUnions } from './spec-common.js';

// Revision 2025-06-18: batches removed; `_meta` on content, resources, prompts, tools and roots; `title` fields;
// `resource_link` content and the `ContentBlock` union; structured tool output; elicitation (form);
// completion `context`; `Annotations.lastModified`; `ResourceReference` renamed `ResourceTemplateReference`.

const previous = types20250326;
const { meta } = parts20250326;
const title = optional(string());

const Annotations = extend(previous.Annotations, { lastModified: optional(string()) });
const annotations = optional(Annotations);

const TextResourceContents = extend(previous.TextResourceContents, { _meta: meta });
const BlobResourceContents = extend(previous.BlobResourceContents, { _meta: meta });
const ResourceContents = extend(previous.ResourceContents, { _meta: meta });
const resourceContentsUnion = union([TextResourceContents, BlobResourceContents]);

const TextContent = extend(previous.TextContent, { _meta: meta, annotations });
const ImageContent = extend(previous.ImageContent, { _meta: meta, annotations });
const AudioContent = extend(previous.AudioContent, { _meta: meta, annotations });
const EmbeddedResource = extend(previous.EmbeddedResource, {
  _meta: meta,
  annotations,
  resource: resourceContentsUnion,
});
const ResourceLink = object(
  {
    _meta: meta,
    annotations,
    description: optional(string()),
    mimeType: optional(string()),
    name: string(),
    size: optional(integer()),
    title,
    type: literal('resource_link'),
    uri: string(),
  },
  { name: 'ResourceLink' },
);
const ContentBlock = union([TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource], {
  name: 'ContentBlock',
});
const samplingContent = union([TextContent, ImageContent, AudioContent], {
  name: 'TextContent | ImageContent | AudioContent',
});

const BaseMetadata = object({ name: string(), title }, { name: 'BaseMetadata' });
const Implementation = extend(previous.Implementation, { title });
const ClientCapabilities = extend(previous.ClientCapabilities, { elicitation: optional(anyObject) });

const Resource = extend(previous.Resource, { _meta: meta, annotations, title });
const ResourceTemplate = extend(previous.ResourceTemplate, { _meta: meta, annotations, title });
const PromptArgument = extend(previous.PromptArgument, { title });
const Prompt = extend(previous.Prompt, { _meta: meta, arguments: optional(array(PromptArgument)), title });
const PromptMessage = extend(previous.PromptMessage, { content: ContentBlock });
const PromptReference = extend(previous.PromptReference, { title });
const ResourceTemplateReference = extend(previous.ResourceReference, {}, { name: 'ResourceTemplateReference' });
const Root = extend(previous.Root, { _meta: meta });
const SamplingMessage = extend(previous.SamplingMessage, { content: samplingContent });
const Tool = extend(previous.Tool, {
  _meta: meta,
  outputSchema: optional(extend(parts20250326.inputSchema, {}, { name: 'outputSchema' })),
  title,
});

// Elicitation: a flat form of primitive fields.
const describedTitle = { description: optional(string()), title };
const StringSchema = object(
  {
    ...describedTitle,
    format: optional(enumOf(['date', 'date-time', 'email', 'uri'])),
    maxLength: optional(integer()),
    minLength: optional(integer()),
    type: literal('string'),
  },
  { name: 'StringSchema' },
);
const NumberSchema = object(
  {
    ...describedTitle,
    maximum: optional(number()),
    minimum: optional(number()),
    type: enumOf(['integer', 'number']),
  },
  { name: 'NumberSchema' },
);
const BooleanSchema = object(
  { ...describedTitle, default: optional(boolean()), type: literal('boolean') },
  { name: 'BooleanSchema' },
);
const EnumSchema = object(
  { ...describedTitle, enum: array(string()), enumNames: optional(array(string())), type: literal('string') },
  { name: 'EnumSchema' },
);
const PrimitiveSchemaDefinition = union([StringSchema, NumberSchema, BooleanSchema, EnumSchema], {
  name: 'PrimitiveSchemaDefinition',
});
const elicitParams = object({
  message: string(),
  requestedSchema: object({
    properties: record(PrimitiveSchemaDefinition),
    required: optional(array(string())),
    type: literal('object'),
  }),
});
const ElicitRequest = legacyMessage('ElicitRequest', 'elicitation/create', elicitParams, true);
/**
 * The schema says `string | integer | boolean`; schema.ts says `string | number | boolean` and a `NumberSchema` field
 * of type `number` is answered with a fraction. We accept any number (allow-listed in the agreement test).
 */
const elicitValue = union([string(), number(), boolean()], { name: 'string | number | boolean' });
const ElicitResult = object(
  { _meta: meta, action: enumOf(['accept', 'cancel', 'decline']), content: optional(record(elicitValue)) },
  { name: 'ElicitResult' },
);

const CallToolResult = extend(previous.CallToolResult, {
  content: array(ContentBlock),
  structuredContent: optional(anyObject),
});
const GetPromptResult = extend(previous.GetPromptResult, { messages: array(PromptMessage) });
const completeParams = object({
  argument: object({ name: string(), value: string() }),
  context: optional(object({ arguments: optional(record(string())) })),
  ref: union([PromptReference, ResourceTemplateReference]),
});
const CompleteRequest = legacyMessage('CompleteRequest', 'completion/complete', completeParams, true);
const createMessageParams = extend(parts20250326.createMessageParams, { messages: array(SamplingMessage) });
const CreateMessageRequest = legacyMessage('CreateMessageRequest', 'sampling/createMessage', createMessageParams, true);
const CreateMessageResult = extend(previous.CreateMessageResult, { content: samplingContent });
const initializeParams = object({
  capabilities: ClientCapabilities,
  clientInfo: Implementation,
  protocolVersion: string(),
});
const InitializeRequest = legacyMessage('InitializeRequest', 'initialize', initializeParams, true);
const InitializeResult = extend(previous.InitializeResult, { serverInfo: Implementation });
const ListPromptsResult = extend(previous.ListPromptsResult, { prompts: array(Prompt) });
const ListResourcesResult = extend(previous.ListResourcesResult, { resources: array(Resource) });
const ListResourceTemplatesResult = extend(previous.ListResourceTemplatesResult, {
  resourceTemplates: array(ResourceTemplate),
});
const ListRootsResult = extend(previous.ListRootsResult, { roots: array(Root) });
const ListToolsResult = extend(previous.ListToolsResult, { tools: array(Tool) });
const ReadResourceResult = extend(previous.ReadResourceResult, { contents: array(resourceContentsUnion) });

const { JSONRPCRequest, JSONRPCNotification, JSONRPCResponse, JSONRPCError } = previous;
const {
  JSONRPCBatchRequest: _batchRequest,
  JSONRPCBatchResponse: _batchResponse,
  ResourceReference: _resourceReference,
  ...kept
} = previous;

/** The types of the 2025-06-18 schema but the message unions, which follow from the method tables. */
const own = {
  ...kept,
  Annotations,
  AudioContent,
  BaseMetadata,
  BlobResourceContents,
  BooleanSchema,
  CallToolResult,
  ClientCapabilities,
  CompleteRequest,
  ContentBlock,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  EmbeddedResource,
  EnumSchema,
  GetPromptResult,
  ImageContent,
  Implementation,
  InitializeRequest,
  InitializeResult,
  JSONRPCMessage: union([JSONRPCRequest, JSONRPCNotification, JSONRPCResponse, JSONRPCError], {
    name: 'JSONRPCMessage',
  }),
  ListPromptsResult,
  ListResourceTemplatesResult,
  ListResourcesResult,
  ListRootsResult,
  ListToolsResult,
  NumberSchema,
  PrimitiveSchemaDefinition,
  Prompt,
  PromptArgument,
  PromptMessage,
  PromptReference,
  ReadResourceResult,
  Resource,
  ResourceContents,
  ResourceLink,
  ResourceTemplate,
  ResourceTemplateReference,
  Root,
  SamplingMessage,
  StringSchema,
  TextContent,
  TextResourceContents,
  Tool,
};

export const parts20250618 = {
  ...parts20250326,
  completeParams,
  createMessageParams,
  elicitParams,
  elicitValue,
  initializeParams,
  resourceContentsUnion,
  samplingContent,
};

export const methods20250618 = {
  ...methods20241105,
  serverRequests: { ...methods20241105.serverRequests, 'elicitation/create': 'ElicitRequest' },
  results: { ...methods20241105.results, 'elicitation/create': 'ElicitResult' },
} as const;

/** Every type of the 2025-06-18 schema. */
export const types20250618 = { ...own, ...messageUnions(own, methods20250618) };

export const revision20250618: RevisionDefinition = {
  version: '2025-06-18',
  types: types20250618,
  typesIncludeEnvelope: false,
  ...methods20250618,
  requestEnvelope: 'JSONRPCRequest',
  notificationEnvelope: 'JSONRPCNotification',
  errorResponse: 'JSONRPCError',
  batches: false,
};
