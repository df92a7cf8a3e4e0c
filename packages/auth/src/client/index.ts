// @mcpkit/auth/client: the OAuth 2.1 client of MCP's HTTP transports (OAuthClient, createOAuthFetch), the token
// endpoint and the non-interactive grants. Runs anywhere (fetch, WebCrypto); a subpath so clients without
// authorization never load it. Shared shapes (PKCE, metadata types) are on the root entry, @mcpkit/auth.

export {
  AuthorizationError,
  type AuthorizationErrorCode,
  findAuthorizationError,
  UnauthorizedError,
} from './authorization-error';
export { checkAuthorizationResponseIssuer, readAuthorizationCode } from './authorization-response';
export {
  type ClientAssertionKey,
  type ClientAssertionOptions,
  createClientAssertion,
  JWT_BEARER_CLIENT_ASSERTION_TYPE,
} from './client-assertion';
export { type ClientCredentialsGrantOptions, clientCredentialsGrant } from './client-credentials';
export {
  type CrossAppAccessGrantOptions,
  crossAppAccessGrant,
  ID_JAG_TOKEN_TYPE,
  ID_TOKEN_TYPE,
  type IdentityProvider,
  type IdJagRequest,
  JWT_BEARER_GRANT_TYPE,
  requestIdJag,
  type SubjectTokenRequest,
  TOKEN_EXCHANGE_GRANT_TYPE,
} from './cross-app-access';
export {
  type DiscoveryResult,
  discover,
  discoverAuthorizationServerMetadata,
  discoverResourceMetadata,
} from './discovery';
export { accessTokenHash, type DpopProofOptions, DpopProver, isDpopNonceChallenge } from './dpop';
export { OAuthClient, type OAuthClientOptions } from './oauth-client';
export {
  type OAuthClientErrorCode,
  OAuthError,
  type OAuthErrorInit,
  type OAuthErrorSource,
  type OAuthServerErrorCode,
} from './oauth-error';
export { createOAuthFetch } from './oauth-fetch';
export type { OAuthNetworkOptions } from './outbound';
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
export {
  basicAuthorization,
  requestToken,
  selectTokenEndpointAuthMethod,
  type TokenRequest,
} from './token-endpoint';
export type {
  AuthorizationServerMetadata,
  ClientCredentials,
  GrantContext,
  NonInteractiveGrant,
  ProtectedResourceMetadata,
  TokenEndpointAuthMethod,
  TokenResponse,
} from './types';
export {
  type WorkloadAssertionRequest,
  type WorkloadIdentityGrantOptions,
  workloadIdentityGrant,
} from './workload-identity';
export { type BearerChallenge, parseBearerChallenge } from './www-authenticate';
