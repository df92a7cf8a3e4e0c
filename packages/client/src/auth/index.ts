// @mcpkit/client/auth: the OAuth 2.1 client of MCP's HTTP transports (OAuthClient, createOAuthFetch), the token
// endpoint and the non-interactive grants. Runs anywhere (fetch, WebCrypto); a subpath so clients without
// authorization never load it.

export {
  AuthorizationError,
  type AuthorizationErrorCode,
  findAuthorizationError,
  UnauthorizedError,
} from './authorization-error';
export { checkAuthorizationResponseIssuer, readAuthorizationCode } from './authorization-response';
export { type ClientAssertionOptions, createClientAssertion } from './client-assertion';
export { type ClientCredentialsGrantOptions, clientCredentialsGrant } from './client-credentials';
export {
  type CrossAppAccessGrantOptions,
  crossAppAccessGrant,
  type IdentityProvider,
  requestIdJag,
} from './cross-app-access';
export {
  type DiscoveryResult,
  discover,
  discoverAuthorizationServerMetadata,
  discoverResourceMetadata,
} from './discovery';
export { OAuthClient, type OAuthClientOptions } from './oauth-client';
export { type OAuthClientErrorCode, OAuthError, type OAuthServerErrorCode } from './oauth-error';
export { createOAuthFetch } from './oauth-fetch';
export { createPkcePair, type PkcePair } from './pkce';
export type { AuthorizationRedirect, OAuthClientMetadata, OAuthClientProvider } from './provider';
export {
  authorizationServerMetadataUrls,
  canonicalResource,
  protectedResourceMetadataUrls,
  resourceCovers,
  resourceKey,
} from './resource-url';
export { selectScope, unionScopes } from './scope';
export { InMemoryOAuthStore, type OAuthStore, type PendingAuthorization, type StoredTokens } from './store';
export { requestToken, selectTokenEndpointAuthMethod, type TokenRequest } from './token-endpoint';
export type {
  AuthorizationServerMetadata,
  ClientCredentials,
  GrantContext,
  NonInteractiveGrant,
  ProtectedResourceMetadata,
  TokenEndpointAuthMethod,
  TokenResponse,
} from './types';
export { type BearerChallenge, parseBearerChallenge } from './www-authenticate';
