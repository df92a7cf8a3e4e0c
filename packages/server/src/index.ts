// @mcpkit/server: one MCP server definition that serves every session, in both protocol eras.

export {
  type AskOptions,
  type DispatchContext,
  type Era,
  type InputAnswers,
  type InputAsk,
  type InputResultOf,
  type RequestChannel,
  ServerRequestContext,
} from './context';
export type { CacheableMethod, CacheHint } from './era-rules';
export type { ExtensionServer, ScopedMiddleware, ServerExtension, ServerExtensionContext } from './extensions';
export type { HandleOptions } from './handle-options';
export { InputRounds, type InputRoundsOptions } from './input-rounds';
export { compileSchema, jsonSchemaCompiler } from './json-schema';
export type { InferJsonSchema } from './json-schema-types';
export { ListenStream } from './listen-stream';
export { McpServer, type McpServerOptions } from './mcp-server';
export { type BusMessage, type BusUnsubscribe, InProcessMessageBus, type MessageBus } from './message-bus';
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
export { ServerNotificationContext } from './notification-context';
export type { PromptConfig, PromptHandler, RegisteredPrompt } from './prompts';
export type { RegisteredHandle } from './registered-handle';
export { RegistrationError } from './registry';
export { InMemoryNonceStore, type NonceStore } from './request-state';
export { installResourceSubscriptions, resourceSubscriptionsOf } from './resource-subscriptions';
export { type Completer, ResourceTemplate, type ResourceTemplateCallbacks } from './resource-template';
export type {
  RegisteredResource,
  RegisteredResourceTemplate,
  ResourceHandler,
  ResourceMetadata,
  ResourceTemplateHandler,
} from './resources';
export {
  type ArgsOf,
  type CompiledSchema,
  type InferSchema,
  type JsonSchema,
  type JsonSchemaCompiler,
  SchemaError,
  type SchemaInput,
  type SchemaIssue,
} from './schema';
export type { InferShape, StandardSchemaShape } from './schema-shape';
export {
  type HandleNotificationOptions,
  Server,
  type ServerNotificationHandler,
  type ServerOptions,
  type ServerRequestHandler,
} from './server';
export { serverOf } from './server-of';
export { type ConnectOptions, type NegotiatedSession, ServerSession } from './session';
export { ToolResultError } from './tool-result-check';
export { McpToolServer, type McpToolServerOptions } from './tool-server';
export type { RegisteredTool, ToolConfig, ToolHandler } from './tools';
export { UriTemplate, UriTemplateError, type UriTemplateValue, type UriTemplateVariables } from './uri-template';
export type { TemplateVariableName, TemplateVariables } from './uri-template-types';
