// Client metadata (RFC 7591 §2) as the proxy accepts it, from a registration request or a metadata document.
import type { ProxyConfig } from './options';
import type { ProxyClient } from './records';
import { redirectUriProblem } from './redirect-uri';

const AUTH_METHODS = new Set(['none', 'client_secret_basic', 'client_secret_post']);
const GRANT_TYPES = new Set(['authorization_code', 'refresh_token']);
const MAX_TEXT_FIELD = 200;

/** Client metadata as received (JSON). */
export type ClientMetadata = Record<string, unknown>;

/** Why a registration (or metadata document) is unacceptable, as an RFC 7591 error code and description. */
export interface Refusal {
  error: 'invalid_redirect_uri' | 'invalid_client_metadata';
  description: string;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** Checks client metadata (RFC 7591 §2) and returns the client it describes, or why not. */
export function clientFromMetadata(
  metadata: ClientMetadata,
  config: ProxyConfig,
  defaultAuthMethod: string,
): Omit<ProxyClient, 'client_id' | 'source'> | Refusal {
  const redirectUris = metadata.redirect_uris;
  if (!isStringArray(redirectUris) || redirectUris.length === 0) {
    return { error: 'invalid_redirect_uri', description: 'redirect_uris must be a non-empty array of URLs' };
  }
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem !== undefined) return { error: 'invalid_redirect_uri', description: problem };
  }
  const authMethod = metadata.token_endpoint_auth_method ?? defaultAuthMethod;
  if (typeof authMethod !== 'string' || !AUTH_METHODS.has(authMethod)) {
    return {
      error: 'invalid_client_metadata',
      description: `token_endpoint_auth_method must be one of ${[...AUTH_METHODS].join(', ')}`,
    };
  }
  const grantTypes = metadata.grant_types ?? ['authorization_code'];
  if (!isStringArray(grantTypes) || !grantTypes.every((grant) => GRANT_TYPES.has(grant))) {
    return {
      error: 'invalid_client_metadata',
      description: 'grant_types may only hold authorization_code and refresh_token',
    };
  }
  const responseTypes = metadata.response_types ?? ['code'];
  if (!isStringArray(responseTypes) || !responseTypes.every((type) => type === 'code')) {
    return { error: 'invalid_client_metadata', description: "response_types may only hold 'code'" };
  }
  if (metadata.scope !== undefined) {
    if (typeof metadata.scope !== 'string')
      return { error: 'invalid_client_metadata', description: 'scope must be a string' };
    const unknown = metadata.scope
      .split(' ')
      .filter((s) => s !== '' && config.scopesSupported !== undefined && !config.scopesSupported.includes(s));
    if (unknown.length > 0)
      return { error: 'invalid_client_metadata', description: `unsupported scope: ${unknown.join(' ')}` };
  }
  const client: Omit<ProxyClient, 'client_id' | 'source'> = {
    token_endpoint_auth_method: authMethod as ProxyClient['token_endpoint_auth_method'],
    redirect_uris: redirectUris,
    grant_types: grantTypes,
  };
  // Shown on the consent page: kept short, and only when they are strings.
  if (typeof metadata.client_name === 'string') client.client_name = metadata.client_name.slice(0, MAX_TEXT_FIELD);
  if (typeof metadata.client_uri === 'string') client.client_uri = metadata.client_uri.slice(0, MAX_TEXT_FIELD);
  return client;
}
