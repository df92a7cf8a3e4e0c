// The OAuth proxy's public surface; ../index.ts (@mcpkit/auth/server) re-exports these names.
export { OAuthProxyError, type OAuthProxyErrorCode } from './errors';
export type { ProxyAuthorizationServerMetadata } from './metadata';
export { type CreateOAuthProxyOptions, createOAuthProxy, type OAuthProxy } from './oauth-proxy';
export type {
  OAuthProxyOptions,
  ProxySigningKey,
  UpstreamAuthMethod,
  UpstreamIdentity,
  UpstreamProviderOptions,
  UpstreamTokens,
} from './options';
export { InMemoryOAuthProxyStore, type InMemoryOAuthProxyStoreOptions, type OAuthProxyStore } from './store';
