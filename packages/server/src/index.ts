// @mcpkit/server: one MCP server definition that serves every session, in both protocol eras.

export { type DispatchContext, type Era, ServerRequestContext } from './context';
export type { InferJsonSchema } from './json-schema-types';
export { ListenStream } from './listen-stream';
export {
  type ArgsOf,
  McpServer,
  type McpServerOptions,
  type PromptConfig,
  type PromptHandler,
  type RegisteredHandle,
  type RegisteredPrompt,
  type RegisteredResource,
  type RegisteredResourceTemplate,
  type RegisteredTool,
  type ResourceHandler,
  type ResourceMetadata,
  type ResourceTemplateHandler,
  type ToolConfig,
  type ToolHandler,
} from './mcp-server';
export { RegistrationError } from './registry';
export { InMemoryNonceStore, type NonceStore } from './request-state';
export { type Completer, ResourceTemplate, type ResourceTemplateCallbacks } from './resource-template';
export {
  type CompiledSchema,
  compileSchema,
  type InferSchema,
  type JsonSchema,
  SchemaError,
  type SchemaInput,
  type SchemaIssue,
} from './schema';
export {
  type CacheableMethod,
  type CacheHint,
  Server,
  type ServerOptions,
  type ServerRequestHandler,
} from './server';
export { type ConnectOptions, ServerSession } from './session';
export { UriTemplate, UriTemplateError, type UriTemplateValue, type UriTemplateVariables } from './uri-template';
