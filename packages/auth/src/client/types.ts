// The shapes the OAuth client's parts share: discovery (RFC 9728, RFC 8414), registration, the token endpoint
// (RFC 6749 §3.2) and the grants that run against it. Field names follow the wire (snake_case) so a document can be
// used as parsed, after its checks.

import type { AuthorizationServerMetadata } from '@mcpkit/protocol';
import type { DpopProver } from './dpop';

/** How the client authenticates at the token endpoint (RFC 6749 §2.3, RFC 7523 `private_key_jwt`). */
export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none' | 'private_key_jwt';

export type { AuthorizationServerMetadata, ProtectedResourceMetadata } from '@mcpkit/protocol';

/** The client's credentials at one authorization server (pre-registered, registered dynamically, or a CIMD URL). */
export interface ClientCredentials {
  clientId: string;
  clientSecret?: string;
  /** The method registered or configured; chosen from the server's metadata when absent. */
  authMethod?: TokenEndpointAuthMethod;
  /** For `private_key_jwt`: the signing key (a WebCrypto `CryptoKey`, a private JWK, or a PEM PKCS#8 string). */
  privateKey?: CryptoKey | JsonWebKey | string;
  /** For `private_key_jwt`: the JWS algorithm (default: from the key, else RS256). */
  signingAlgorithm?: string;
  /** For `private_key_jwt`: the `kid` header of the assertion. */
  keyId?: string;
  /** The issuer these credentials were issued by: credentials are never sent to another authorization server. */
  issuer?: string;
  /** When a dynamically registered secret expires (seconds since the epoch; 0 or absent: never). */
  clientSecretExpiresAt?: number;
}

/** A successful token response (RFC 6749 §5.1), checked: `access_token` and `token_type` present. */
export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  id_token?: string;
  /** RFC 8693 token exchange. */
  issued_token_type?: string;
  [key: string]: unknown;
}

/** What a grant needs to obtain tokens once discovery and registration are done. */
export interface GrantContext {
  authorizationServer: AuthorizationServerMetadata;
  /** The RFC 8707 resource indicator: the MCP server's canonical URL. */
  resource: URL;
  /** The scope to ask for (space-separated), or undefined to send none. */
  scope: string | undefined;
  credentials: ClientCredentials;
  fetch: typeof fetch;
  signal?: AbortSignal;
  /** When set, tokens are bound to this DPoP key (RFC 9449): pass it on to `requestToken`. */
  dpop?: DpopProver;
}

/**
 * A grant that obtains tokens without a user at a browser (client credentials, enterprise-managed authorization).
 * The authorization-code flow is built in; a provider that configures one of these uses it instead.
 */
export interface NonInteractiveGrant {
  /** The OAuth `grant_type` it sends at the MCP server's authorization server (for logs and errors). */
  readonly grantType: string;
  obtain(context: GrantContext): Promise<TokenResponse>;
}
