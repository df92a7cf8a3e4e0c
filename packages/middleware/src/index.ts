// @mcpkit/middleware: web-standard middleware for mcpkit servers. No Node built-ins at this entry.

// Authorization (resource-server side): bearer tokens, verifiers, protected resource metadata.
export type { AuthRefusal } from './auth/auth-responses';
export {
  type AuthenticatedHandler,
  type BearerAuth,
  type BearerAuthOptions,
  type BearerWebSocketOptions,
  createBearerAuth,
} from './auth/bearer-auth';
export { BearerErrorCode, type BearerErrorData } from './auth/bearer-errors';
export { type BearerTokenResult, readBearerToken } from './auth/bearer-token';
export {
  AuthConfigError,
  type AuthConfigErrorData,
  type TokenRefusalReason,
  TokenVerificationError,
  type TokenVerificationErrorCode,
  type TokenVerificationErrorData,
} from './auth/errors';
export {
  createIntrospectionVerifier,
  type IntrospectionClientAuth,
  type IntrospectionVerifierOptions,
} from './auth/introspection-verifier';
export { createJwtVerifier, type JwtKeySource, type JwtVerifierOptions } from './auth/jwt-verifier';
export { type NodeRequestLike, readNodeBearerToken } from './auth/node-request';
export {
  createProtectedResourceMetadataHandler,
  type ProtectedResourceMetadata,
  type ProtectedResourceMetadataHandler,
  type ProtectedResourceMetadataOptions,
  protectedResourceMetadataUrl,
} from './auth/resource-metadata';
export type { ScopeRules } from './auth/scope-table';
export type { TokenCacheOptions } from './auth/token-cache';
export type { TokenVerifier, TokenVerifyContext } from './auth/token-verifier';
export { type BearerChallenge, formatBearerChallenge } from './auth/www-authenticate';

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
