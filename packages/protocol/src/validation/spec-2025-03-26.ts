import { array, boolean, extend, literal, object, optional, string } from './kit.js';
import { union } from './kit-combinators.js';
import type { RevisionDefinition } from './revision-definition.js';
import { methods20241105, parts20241105, types20241105 } from './spec-2024-11-05.js';
import { anyObject, legacyMessage, messageUnions } from './spec-common.js';

// Revision 2025-03-26: 2024-11-05 plus audio content, tool annotations, `completions` server capability, progress
// `message`, and JSON-RPC batches. `Annotated` became `Annotations` (same fields).

const previous = types20241105;

const { Annotations } = parts20241105;
const AudioContent = object(
  { annotations: optional(Annotations), data: string(), mimeType: string(), type: literal('audio') },
  { name: 'AudioContent' },
);
const { TextContent, ImageContent, EmbeddedResource } = previous;
const content = union([TextContent, ImageContent, AudioContent, EmbeddedResource], {
  name: 'TextContent | ImageContent | AudioContent | EmbeddedResource',
});
const samplingContent = union([TextContent, ImageContent, AudioContent], {
  name: 'TextContent | ImageContent | AudioContent',
});

const ToolAnnotations = object(
  {
    destructiveHint: optional(boolean()),
    idempotentHint: optional(boolean()),
    openWorldHint: optional(boolean()),
    readOnlyHint: optional(boolean()),
    title: optional(string()),
  },
  { name: 'ToolAnnotations' },
);
const Tool = extend(previous.Tool, { annotations: optional(ToolAnnotations) });
const ServerCapabilities = extend(previous.ServerCapabilities, { completions: optional(anyObject) });

const CallToolResult = extend(previous.CallToolResult, { content: array(content) });
const PromptMessage = extend(previous.PromptMessage, { content });
const GetPromptResult = extend(previous.GetPromptResult, { messages: array(PromptMessage) });
const SamplingMessage = extend(previous.SamplingMessage, { content: samplingContent });
const CreateMessageRequest = legacyMessage(
  'CreateMessageRequest',
  'sampling/createMessage',
  extend(parts20241105.createMessageParams, { messages: array(SamplingMessage) }),
  true,
);
const CreateMessageResult = extend(previous.CreateMessageResult, { content: samplingContent });
const InitializeResult = extend(previous.InitializeResult, { capabilities: ServerCapabilities });
const ListToolsResult = extend(previous.ListToolsResult, { tools: array(Tool) });
const progressParams = extend(parts20241105.progressParams, { message: optional(string()) });
const ProgressNotification = legacyMessage('ProgressNotification', 'notifications/progress', progressParams, true);

const { JSONRPCRequest, JSONRPCNotification, JSONRPCResponse, JSONRPCError } = previous;
const JSONRPCBatchRequest = array(union([JSONRPCRequest, JSONRPCNotification]), { name: 'JSONRPCBatchRequest' });
const JSONRPCBatchResponse = array(union([JSONRPCResponse, JSONRPCError]), { name: 'JSONRPCBatchResponse' });

const { Annotated: _annotated, ...kept } = previous;

/** The types of the 2025-03-26 schema but the message unions, which follow from the method tables. */
const own = {
  ...kept,
  Annotations,
  AudioContent,
  CallToolResult,
  CreateMessageRequest,
  CreateMessageResult,
  GetPromptResult,
  InitializeResult,
  JSONRPCBatchRequest,
  JSONRPCBatchResponse,
  JSONRPCMessage: union(
    [JSONRPCRequest, JSONRPCNotification, JSONRPCBatchRequest, JSONRPCResponse, JSONRPCError, JSONRPCBatchResponse],
    { name: 'JSONRPCMessage' },
  ),
  ListToolsResult,
  ProgressNotification,
  PromptMessage,
  SamplingMessage,
  ServerCapabilities,
  Tool,
  ToolAnnotations,
};

export const parts20250326 = { ...parts20241105, content, progressParams, samplingContent };

/** Every type of the 2025-03-26 schema. */
export const types20250326 = { ...own, ...messageUnions(own, methods20241105) };

export const revision20250326: RevisionDefinition = {
  version: '2025-03-26',
  types: types20250326,
  typesIncludeEnvelope: false,
  ...methods20241105,
  requestEnvelope: 'JSONRPCRequest',
  notificationEnvelope: 'JSONRPCNotification',
  errorResponse: 'JSONRPCError',
  batches: true,
};
