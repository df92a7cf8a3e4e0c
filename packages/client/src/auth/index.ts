// @mcpkit/client/auth: moved to @mcpkit/auth/client. This entry re-exports it, unchanged, for one minor version so that
// existing imports keep working; it goes in the next minor. @mcpkit/client depends on @mcpkit/auth only for this
// entry (ARCHITECTURE.md, "Authorization"); the client's root entry never loads it.

/** @deprecated Import from `@mcpkit/auth`. */
export { createPkcePair, type PkcePair } from '@mcpkit/auth';
export type {
  AuthorizationRedirect,
  AuthorizationServerMetadata,
  ClientCredentials,
  GrantContext,
  NonInteractiveGrant,
  OAuthClientMetadata,
  OAuthClientProvider,
  ProtectedResourceMetadata,
  TokenEndpointAuthMethod,
  TokenResponse,
} from '@mcpkit/auth/client';
/**
 * @deprecated Import from `@mcpkit/auth/client` (and `createPkcePair` from `@mcpkit/auth`): `@mcpkit/client/auth`
 * re-exports them for one minor version only.
 * @example
 * ```ts
 * import { OAuthClient, createOAuthFetch } from '@mcpkit/auth/client';
 * ```
 */
export {
  AuthorizationError,
  type AuthorizationErrorCode,
  accessTokenHash,
  authorizationServerMetadataUrls,
  type BearerChallenge,
  basicAuthorization,
  type ClientAssertionKey,
  type ClientAssertionOptions,
  type ClientCredentialsGrantOptions,
  type CrossAppAccessGrantOptions,
  canonicalResource,
  checkAuthorizationResponseIssuer,
  clientCredentialsGrant,
  createClientAssertion,
  createOAuthFetch,
  crossAppAccessGrant,
  type DiscoveryResult,
  type DpopProofOptions,
  DpopProver,
  discover,
  discoverAuthorizationServerMetadata,
  discoverResourceMetadata,
  findAuthorizationError,
  ID_JAG_TOKEN_TYPE,
  ID_TOKEN_TYPE,
  type IdentityProvider,
  type IdJagRequest,
  InMemoryOAuthStore,
  isDpopNonceChallenge,
  JWT_BEARER_CLIENT_ASSERTION_TYPE,
  JWT_BEARER_GRANT_TYPE,
  OAuthClient,
  type OAuthClientErrorCode,
  type OAuthClientOptions,
  OAuthError,
  type OAuthErrorInit,
  type OAuthErrorSource,
  type OAuthServerErrorCode,
  type OAuthStore,
  type PendingAuthorization,
  parseBearerChallenge,
  protectedResourceMetadataUrls,
  readAuthorizationCode,
  requestIdJag,
  requestToken,
  resourceCovers,
  resourceKey,
  type StoredTokens,
  type SubjectTokenRequest,
  selectScope,
  selectTokenEndpointAuthMethod,
  TOKEN_EXCHANGE_GRANT_TYPE,
  type TokenRequest,
  UnauthorizedError,
  unionScopes,
  type WorkloadAssertionRequest,
  type WorkloadIdentityGrantOptions,
  workloadIdentityGrant,
} from '@mcpkit/auth/client';
