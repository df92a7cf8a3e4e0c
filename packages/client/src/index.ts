// @mcpkit/client: an MCP client for both protocol eras (2024-11-05 … 2025-11-25 and 2026-07-28). Runs anywhere: no
// Node built-ins at this entry.

export { Client } from './client';
export { McpClientError, type McpClientErrorCode } from './errors';
export type { ClientNotificationHandler, ClientRequestHandler } from './inbound';
export { jsonSchemaValidator } from './json-schema-validator';
export { LeanClient } from './lean-client';
export type { ListKind } from './lists';
export {
  type ClientContext,
  type ClientContextVariableMap,
  type ClientExtension,
  type ClientExtensionContext,
  ClientInboundContext,
  type ClientMiddleware,
  ClientRequestContext,
} from './middleware';
export type {
  CallOptions,
  CallToolOptions,
  ClientOptions,
  ConnectOptions,
  Era,
  InputHandlers,
  InputRequestContext,
  LeanClientOptions,
  LogMessageContext,
  RequestCallOptions,
  ResultSchema,
  TypedCallToolResult,
} from './options';
export type { JsonSchemaValidator, StructuredContentIssue } from './output-schema';
export { ResponseCache, type ResponseCacheOptions } from './response-cache';
export type { SubscribeFilter, Subscription, SubscriptionEnd, SubscriptionNotification } from './subscriptions';
export type { VersionedTransport } from './versioned-transport';
