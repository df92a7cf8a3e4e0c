// POST /register: Dynamic Client Registration (RFC 7591) of MCP clients, kept by the proxy.

import { readLimitedText } from '../../shared/body';
import { randomToken, sha256Base64Url } from '../../shared/random';
import { type ClientMetadata, clientFromMetadata } from './client-metadata';
import { jsonResponse, MAX_BODY_BYTES, oauthErrorResponse } from './http';
import type { ProxyConfig } from './options';
import type { ProxyClient, ProxyState } from './records';

/**
 * POST /register (RFC 7591): registers an MCP client locally. Every client shares the proxy's one upstream client; what
 * tells them apart is their own client_id, redirect URIs and the consent the user gives each.
 */
export async function handleRegister(request: Request, config: ProxyConfig, state: ProxyState): Promise<Response> {
  const text = await readLimitedText(request, MAX_BODY_BYTES);
  let metadata: unknown;
  try {
    metadata = text === undefined ? undefined : JSON.parse(text);
  } catch {
    metadata = undefined;
  }
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) {
    return oauthErrorResponse(400, 'invalid_client_metadata', 'The body must be a JSON object of at most 64 KiB');
  }
  // RFC 7591 §2: client_secret_basic is the default method when none is named.
  const checked = clientFromMetadata(metadata as ClientMetadata, config, 'client_secret_basic');
  if ('error' in checked) return oauthErrorResponse(400, checked.error, checked.description);

  const clientId = randomToken(16);
  const client: ProxyClient = { client_id: clientId, source: 'dcr', ...checked };
  let secret: string | undefined;
  if (client.token_endpoint_auth_method !== 'none') {
    secret = randomToken(32);
    client.client_secret_hash = await sha256Base64Url(secret);
  }
  await state.saveClient(client, config.clientTtlSeconds);

  const { client_secret_hash: _hash, source: _source, ...published } = client;
  const issuedAt = Math.floor(config.now() / 1000);
  const body: Record<string, unknown> = {
    ...(metadata as ClientMetadata),
    ...published,
    client_id_issued_at: issuedAt,
  };
  delete body.client_secret;
  if (secret !== undefined) {
    body.client_secret = secret;
    body.client_secret_expires_at =
      config.clientTtlSeconds === undefined ? 0 : issuedAt + Math.floor(config.clientTtlSeconds);
  }
  return jsonResponse(body, 201);
}
