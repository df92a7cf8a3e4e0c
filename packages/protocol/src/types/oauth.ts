// The OAuth discovery documents MCP authorization is built on, as both sides read and write them: the MCP server (or
// its proxy) publishes them, the client discovers them. Field names follow the wire (snake_case). Types only.

/** Protected resource metadata (RFC 9728 §2), as an MCP server publishes it. */
export interface ProtectedResourceMetadata {
  resource: string;
  authorization_servers?: string[];
  scopes_supported?: string[];
  bearer_methods_supported?: string[];
  resource_name?: string;
  resource_documentation?: string;
  resource_policy_uri?: string;
  resource_tos_uri?: string;
  jwks_uri?: string;
  resource_signing_alg_values_supported?: string[];
  [field: string]: unknown;
}

/** Authorization server metadata (RFC 8414, or OpenID Connect discovery). */
export interface AuthorizationServerMetadata {
  issuer: string;
  authorization_endpoint?: string;
  token_endpoint: string;
  registration_endpoint?: string;
  jwks_uri?: string;
  scopes_supported?: string[];
  response_types_supported?: string[];
  response_modes_supported?: string[];
  grant_types_supported?: string[];
  code_challenge_methods_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
  token_endpoint_auth_signing_alg_values_supported?: string[];
  /** RFC 9207: the server sends `iss` with the authorization response. */
  authorization_response_iss_parameter_supported?: boolean;
  /** Client ID Metadata Documents: an HTTPS URL may be used as `client_id`. */
  client_id_metadata_document_supported?: boolean;
  [field: string]: unknown;
}
