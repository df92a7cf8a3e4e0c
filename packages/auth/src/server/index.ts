// @mcpkit/auth/server: the resource-server side of MCP authorization and an OAuth proxy. Web-standard (fetch, WebCrypto),
// no Node built-in; `@mcpkit/server` is an optional peer dependency that only this entry needs.

// Authorization (resource-server side): bearer tokens, verifiers, protected resource metadata.
export type { AuthRefusal } from './auth-responses';
export {
  type AuthenticatedHandler,
  type BearerAuth,
  type BearerAuthOptions,
  type BearerWebSocketOptions,
  createBearerAuth,
} from './bearer-auth';
export { BearerErrorCode, type BearerErrorData } from './bearer-errors';
export { type BearerTokenResult, readBearerToken } from './bearer-token';
export {
  AuthConfigError,
  type AuthConfigErrorData,
  type TokenRefusalReason,
  TokenVerificationError,
  type TokenVerificationErrorCode,
  type TokenVerificationErrorData,
} from './errors';
export {
  createIntrospectionVerifier,
  type IntrospectionClientAuth,
  type IntrospectionVerifierOptions,
} from './introspection-verifier';
export { createJwtVerifier, type JwtKeySource, type JwtVerifierOptions } from './jwt-verifier';
export { type NodeRequestLike, readNodeBearerToken } from './node-request';
// OAuth proxy ("proxy authorization upstream"): an authorization server in front of an existing identity provider.
export {
  type CreateOAuthProxyOptions,
  createOAuthProxy,
  InMemoryOAuthProxyStore,
  type InMemoryOAuthProxyStoreOptions,
  type OAuthProxy,
  OAuthProxyError,
  type OAuthProxyErrorCode,
  type OAuthProxyOptions,
  type OAuthProxyStore,
  type ProxyAuthorizationServerMetadata,
  type ProxySigningKey,
  type UpstreamAuthMethod,
  type UpstreamIdentity,
  type UpstreamProviderOptions,
  type UpstreamTokens,
} from './proxy/index';
export {
  createProtectedResourceMetadataHandler,
  type ProtectedResourceMetadata,
  type ProtectedResourceMetadataHandler,
  type ProtectedResourceMetadataOptions,
  protectedResourceMetadataUrl,
} from './resource-metadata';
export type { ScopeRules } from './scope-table';
export type { TokenCacheOptions } from './token-cache';
export type { TokenVerifier, TokenVerifyContext } from './token-verifier';
export { type BearerChallenge, formatBearerChallenge } from './www-authenticate';
