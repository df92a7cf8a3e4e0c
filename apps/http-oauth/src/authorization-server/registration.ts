// POST /register: Dynamic Client Registration (RFC 7591) for any MCP client, https or loopback redirect URIs only.
import { json, oauthError, randomId } from './oauth-http';
import type { Client, ServerState } from './server-state';

/** https URLs, or http on a loopback host; never a fragment. */
export function redirectUriAllowed(uri: unknown): boolean {
  if (typeof uri !== 'string') return false;
  try {
    const url = new URL(uri);
    if (url.hash !== '') return false;
    return (
      url.protocol === 'https:' ||
      (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname))
    );
  } catch {
    return false;
  }
}

export async function register(request: Request, state: ServerState): Promise<Response> {
  let metadata: Record<string, unknown>;
  try {
    metadata = (await request.json()) as Record<string, unknown>;
  } catch {
    return oauthError(400, 'invalid_client_metadata', 'The body must be JSON client metadata');
  }
  const uris = metadata.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || !uris.every(redirectUriAllowed)) {
    return oauthError(400, 'invalid_redirect_uri', 'redirect_uris: https URLs, or http on 127.0.0.1 / localhost');
  }
  const method = metadata.token_endpoint_auth_method ?? 'client_secret_basic';
  if (method !== 'none' && method !== 'client_secret_basic' && method !== 'client_secret_post') {
    return oauthError(
      400,
      'invalid_client_metadata',
      'token_endpoint_auth_method: none, client_secret_basic or client_secret_post',
    );
  }
  const client: Client = { client_id: randomId(16), redirect_uris: uris as string[] };
  if (method !== 'none') client.client_secret = randomId();
  if (typeof metadata.client_name === 'string') client.client_name = metadata.client_name.slice(0, 100);
  state.clients.set(client.client_id, client);
  const body: Record<string, unknown> = {
    ...metadata,
    ...client,
    token_endpoint_auth_method: method,
    client_id_issued_at: Math.floor(Date.now() / 1000),
  };
  if (client.client_secret !== undefined) body.client_secret_expires_at = 0;
  return json(body, 201);
}
