// @mcpkit/server: one MCP server definition that serves every session, in both protocol eras.

export { type BusMessage, type BusUnsubscribe, InProcessMessageBus, type MessageBus } from './cluster/message-bus';
export type { CacheableMethod, CacheHint } from './eras/era-rules';
export { InputRounds, type InputRoundsOptions } from './input/input-rounds';
export { InMemoryNonceStore, type NonceStore } from './input/request-state';
export { compileSchema, jsonSchemaCompiler } from './json-schema/json-schema';
export type { InferJsonSchema } from './json-schema/json-schema-types';
export { ListenStream } from './listen/listen-stream';
export { installResourceSubscriptions, resourceSubscriptionsOf } from './listen/resource-subscriptions';
export { McpServer, type McpServerOptions } from './mcp-server/mcp-server';
export { McpToolServer, type McpToolServerOptions } from './mcp-server/tool-server';
export {
  forMethod,
  forPrompt,
  forRequests,
  forResource,
  forTool,
  type NamePattern,
  namePattern,
} from './middleware/filters';
export type { OutboundHook, OutboundMessage, ServerContext, ServerMiddleware } from './middleware/types';
export type { ContextVariableMap } from './middleware/variables';
export type { PromptConfig, PromptHandler, RegisteredPrompt } from './prompts/prompts';
export type { RegisteredHandle } from './registry/registered-handle';
export { RegistrationError } from './registry/registry';
export { type Completer, ResourceTemplate, type ResourceTemplateCallbacks } from './resources/resource-template';
export type {
  RegisteredResource,
  RegisteredResourceTemplate,
  ResourceHandler,
  ResourceMetadata,
  ResourceTemplateHandler,
} from './resources/resources';
export {
  type ArgsOf,
  type CompiledSchema,
  type InferSchema,
  type JsonSchema,
  type JsonSchemaCompiler,
  SchemaError,
  type SchemaInput,
  type SchemaIssue,
} from './schema/schema';
export type { InferShape, StandardSchemaShape } from './schema/schema-shape';
export type { ExtensionServer, ScopedMiddleware, ServerExtension, ServerExtensionContext } from './server/extensions';
export type { HandleOptions } from './server/handle-options';
export {
  type HandleNotificationOptions,
  Server,
  type ServerNotificationHandler,
  type ServerOptions,
  type ServerRequestHandler,
} from './server/server';
export { serverOf } from './server/server-of';
export {
  type AskOptions,
  type DispatchContext,
  type Era,
  type InputAnswers,
  type InputAsk,
  type InputResultOf,
  type RequestChannel,
  ServerRequestContext,
} from './session/context';
export { ServerNotificationContext } from './session/notification-context';
export { type ConnectOptions, type NegotiatedSession, ServerSession } from './session/session';
export { ToolResultError } from './tools/tool-result-check';
export type { RegisteredTool, ToolConfig, ToolHandler } from './tools/tools';
export {
  UriTemplate,
  UriTemplateError,
  type UriTemplateValue,
  type UriTemplateVariables,
} from './uri-template/uri-template';
export type { TemplateVariableName, TemplateVariables } from './uri-template/uri-template-types';
