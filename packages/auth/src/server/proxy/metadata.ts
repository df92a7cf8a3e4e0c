// The proxy's authorization server metadata (RFC 8414): its own endpoints, never the upstream's.
import type { AuthorizationServerMetadata } from '@mcpkit/protocol';
import type { ProxyConfig } from './options';

/** Authorization server metadata as the proxy publishes it: every member it always sets is required. */
export type ProxyAuthorizationServerMetadata = AuthorizationServerMetadata &
  Required<
    Pick<
      AuthorizationServerMetadata,
      | 'authorization_endpoint'
      | 'registration_endpoint'
      | 'jwks_uri'
      | 'response_types_supported'
      | 'response_modes_supported'
      | 'grant_types_supported'
      | 'token_endpoint_auth_methods_supported'
      | 'code_challenge_methods_supported'
      | 'authorization_response_iss_parameter_supported'
      | 'client_id_metadata_document_supported'
    >
  >;

/** Builds the metadata document once; it only depends on the options. */
export function buildProxyMetadata(config: ProxyConfig): ProxyAuthorizationServerMetadata {
  const metadata: ProxyAuthorizationServerMetadata = {
    issuer: config.issuer,
    authorization_endpoint: config.endpoints.authorize.href,
    token_endpoint: config.endpoints.token.href,
    registration_endpoint: config.endpoints.register.href,
    jwks_uri: config.endpoints.jwks.href,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    code_challenge_methods_supported: ['S256'],
    // The proxy adds `iss` to every authorization response (RFC 9207), so clients can detect mix-up attacks.
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: config.clientIdMetadataDocuments,
  };
  if (config.scopesSupported !== undefined) metadata.scopes_supported = [...config.scopesSupported];
  return metadata;
}
