import { AuthorizationError } from './authorization-error';
import type { OAuthClientMetadata, OAuthClientProvider } from './provider';
import type { OAuthStore } from './store';
import type { AuthorizationServerMetadata, ClientCredentials, TokenEndpointAuthMethod } from './types';

// Which client the OAuth client is at an authorization server, in the spec's order: credentials already held for
// that issuer, pre-registered ones, a Client ID Metadata Document URL, then Dynamic Client Registration (RFC 7591).
// Whatever is obtained is stored under the issuer and never used at another one (SEP-2352).

interface ResolveInput {
  authorizationServer: AuthorizationServerMetadata;
  provider: OAuthClientProvider;
  store: OAuthStore;
  fetch: typeof fetch;
  signal?: AbortSignal;
  wantRefreshTokens: boolean;
}

/** `native` for loopback and custom-scheme redirect URIs, `web` otherwise (SEP-837). */
export function applicationTypeOf(redirectUris: readonly string[]): 'native' | 'web' {
  const native = redirectUris.some((uri) => {
    try {
      const url = new URL(uri);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return true;
      return url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
    } catch {
      return false;
    }
  });
  return native ? 'native' : 'web';
}

function preferredAuthMethod(authorizationServer: AuthorizationServerMetadata): TokenEndpointAuthMethod {
  const supported = authorizationServer.token_endpoint_auth_methods_supported;
  // RFC 8414: absent means client_secret_basic only.
  if (supported === undefined) return 'client_secret_basic';
  if (supported.includes('none')) return 'none';
  if (supported.includes('client_secret_basic')) return 'client_secret_basic';
  if (supported.includes('client_secret_post')) return 'client_secret_post';
  return 'client_secret_basic';
}

/** The RFC 7591 registration request: the provider's metadata over derived defaults. */
export function registrationMetadata(input: {
  provider: OAuthClientProvider;
  authorizationServer: AuthorizationServerMetadata;
  wantRefreshTokens: boolean;
}): OAuthClientMetadata {
  const { provider } = input;
  const redirectUris =
    provider.clientMetadata?.redirect_uris ??
    (provider.redirectUrl === undefined ? [] : [String(provider.redirectUrl)]);
  return {
    client_name: 'mcpkit client',
    grant_types: input.wantRefreshTokens ? ['authorization_code', 'refresh_token'] : ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: preferredAuthMethod(input.authorizationServer),
    application_type: applicationTypeOf(redirectUris),
    ...provider.clientMetadata,
    redirect_uris: redirectUris,
  };
}

async function preRegistered(provider: OAuthClientProvider, issuer: string): Promise<ClientCredentials | undefined> {
  const configured = provider.clientCredentials;
  if (configured === undefined) return undefined;
  if (typeof configured === 'function') {
    const credentials = await configured(issuer);
    return credentials === undefined ? undefined : { ...credentials, issuer };
  }
  if (configured.issuer === undefined) {
    // A secret or a key sent to whichever authorization server an MCP server names is a secret given to that server:
    // a value without an issuer is usable only as a public client id.
    if (configured.clientSecret !== undefined || configured.privateKey !== undefined) {
      throw new AuthorizationError(
        'ERR_CREDENTIALS_WITHOUT_ISSUER',
        `The configured clientCredentials carry a ${configured.clientSecret !== undefined ? 'client secret' : 'private key'} ` +
          `but no issuer, and ${issuer} asks for them: they are sent only to the authorization server they were ` +
          'issued by. Set clientCredentials.issuer to it, or pass a function (issuer) => credentials that decides.',
        { issuer, clientId: configured.clientId },
      );
    }
  } else if (configured.issuer !== issuer) return undefined;
  return { ...configured, issuer };
}

async function register(input: ResolveInput): Promise<ClientCredentials> {
  const { authorizationServer } = input;
  const endpoint = authorizationServer.registration_endpoint;
  if (endpoint === undefined) {
    throw new AuthorizationError(
      'ERR_REGISTRATION_FAILED',
      `No client credentials for ${authorizationServer.issuer}: it has no registration endpoint and ` +
        (authorizationServer.client_id_metadata_document_supported === true
          ? 'no clientMetadataUrl is configured'
          : 'does not support Client ID Metadata Documents') +
        '; configure pre-registered clientCredentials',
      { issuer: authorizationServer.issuer },
    );
  }
  const metadata = registrationMetadata(input);
  let response: Response;
  try {
    response = await input.fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(metadata),
      signal: input.signal,
    });
  } catch (error) {
    throw new AuthorizationError(
      'ERR_REGISTRATION_FAILED',
      `Dynamic client registration at ${endpoint} failed: ${(error as Error).message}`,
      { endpoint, issuer: authorizationServer.issuer },
      { cause: error },
    );
  }
  const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!response.ok || typeof body?.client_id !== 'string') {
    throw new AuthorizationError(
      'ERR_REGISTRATION_FAILED',
      `Dynamic client registration at ${endpoint} was refused (HTTP ${response.status}` +
        (typeof body?.error === 'string' ? `, ${body.error}: ${String(body.error_description ?? '')}` : '') +
        ')',
      { endpoint, issuer: authorizationServer.issuer, status: response.status, body, metadata },
    );
  }
  const method =
    (body.token_endpoint_auth_method as TokenEndpointAuthMethod | undefined) ?? metadata.token_endpoint_auth_method;
  return {
    clientId: body.client_id,
    ...(typeof body.client_secret === 'string' && { clientSecret: body.client_secret }),
    ...(method !== undefined && { authMethod: method }),
    ...(typeof body.client_secret_expires_at === 'number' && { clientSecretExpiresAt: body.client_secret_expires_at }),
    issuer: authorizationServer.issuer,
  };
}

function usable(credentials: ClientCredentials | undefined, issuer: string): credentials is ClientCredentials {
  if (credentials === undefined || credentials.issuer !== issuer) return false;
  const expiresAt = credentials.clientSecretExpiresAt;
  return expiresAt === undefined || expiresAt === 0 || expiresAt * 1000 > Date.now();
}

/**
 * The client credentials to use at `authorizationServer`: stored ones for its issuer, else pre-registered, else a
 * Client ID Metadata Document URL (when the server supports them), else registered dynamically. Stored under the
 * issuer.
 *
 * @example
 * ```ts
 * const credentials = await resolveClientCredentials({ authorizationServer, provider, store, fetch, wantRefreshTokens: true });
 * ```
 */
export async function resolveClientCredentials(input: ResolveInput): Promise<ClientCredentials> {
  const issuer = input.authorizationServer.issuer;
  const stored = await input.store.getClient(issuer);
  if (usable(stored, issuer)) return stored;
  let credentials = await preRegistered(input.provider, issuer);
  if (credentials === undefined) {
    const url = input.provider.clientMetadataUrl;
    if (url !== undefined && input.authorizationServer.client_id_metadata_document_supported === true) {
      credentials = { clientId: url, authMethod: 'none', issuer };
    } else {
      credentials = await register(input);
      // Only registered credentials are worth storing: the others are derived from configuration each time.
      await input.store.setClient(issuer, credentials);
    }
  }
  return credentials;
}
