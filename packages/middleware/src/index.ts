// @mcpkit/middleware: web-standard middleware for mcpkit servers. No Node built-ins at this entry.

// Deprecated: authorization moved to @mcpkit/auth/server (bearer tokens, verifiers, protected resource metadata, the
// OAuth proxy). These re-exports keep existing imports working for one minor version; they go in the next minor.
/** @deprecated Moved to `@mcpkit/auth/server`; re-exported here for one minor version. */
/** @deprecated Moved to `@mcpkit/auth/server`; re-exported here for one minor version. */
/** @deprecated Moved to `@mcpkit/auth/server`; re-exported here for one minor version. */
/** @deprecated Moved to `@mcpkit/auth/server`; re-exported here for one minor version. */
export type {
  AuthRefusal,
  ScopeRules,
  TokenCacheOptions,
  TokenVerifier,
  TokenVerifyContext,
} from '@mcpkit/auth/server';
/** @deprecated Moved to `@mcpkit/auth/server`; re-exported here for one minor version. */
/** @deprecated Moved to `@mcpkit/auth/server`; re-exported here for one minor version. */
/** @deprecated Moved to `@mcpkit/auth/server`; re-exported here for one minor version. */
/** @deprecated Moved to `@mcpkit/auth/server`; re-exported here for one minor version. */
/** @deprecated Moved to `@mcpkit/auth/server`; re-exported here for one minor version. */
/** @deprecated Moved to `@mcpkit/auth/server`; re-exported here for one minor version. */
/** @deprecated Moved to `@mcpkit/auth/server`; re-exported here for one minor version. */
/** @deprecated Moved to `@mcpkit/auth/server`; re-exported here for one minor version. */
/** @deprecated Moved to `@mcpkit/auth/server`; re-exported here for one minor version. */
/** @deprecated Moved to `@mcpkit/auth/server`; re-exported here for one minor version. */
export {
  AuthConfigError,
  type AuthConfigErrorData,
  type AuthenticatedHandler,
  type BearerAuth,
  type BearerAuthOptions,
  type BearerChallenge,
  BearerErrorCode,
  type BearerErrorData,
  type BearerTokenResult,
  type BearerWebSocketOptions,
  type CreateOAuthProxyOptions,
  createBearerAuth,
  createIntrospectionVerifier,
  createJwtVerifier,
  createOAuthProxy,
  createProtectedResourceMetadataHandler,
  formatBearerChallenge,
  InMemoryOAuthProxyStore,
  type InMemoryOAuthProxyStoreOptions,
  type IntrospectionClientAuth,
  type IntrospectionVerifierOptions,
  type JwtKeySource,
  type JwtVerifierOptions,
  type NodeRequestLike,
  type OAuthProxy,
  OAuthProxyError,
  type OAuthProxyErrorCode,
  type OAuthProxyOptions,
  type OAuthProxyStore,
  type ProtectedResourceMetadata,
  type ProtectedResourceMetadataHandler,
  type ProtectedResourceMetadataOptions,
  type ProxyAuthorizationServerMetadata,
  type ProxySigningKey,
  protectedResourceMetadataUrl,
  readBearerToken,
  readNodeBearerToken,
  type TokenRefusalReason,
  TokenVerificationError,
  type TokenVerificationErrorCode,
  type TokenVerificationErrorData,
  type UpstreamAuthMethod,
  type UpstreamIdentity,
  type UpstreamProviderOptions,
  type UpstreamTokens,
} from '@mcpkit/auth/server';
