// Client authentication at the token endpoint (RFC 6749 §2.3).

import { sha256Base64Url, timingSafeEqual } from '../../shared/random';
import { findClient } from './client-lookup';
import { oauthErrorResponse } from './http';
import type { ProxyConfig } from './options';
import type { ProxyClient, ProxyState } from './records';

/**
 * Authenticates a client at the token endpoint (RFC 6749 §2.3): HTTP Basic or form credentials for confidential
 * clients, a `client_id` alone for public ones. Returns the client, or the error response to send.
 */
export async function authenticateClient(
  request: Request,
  form: URLSearchParams,
  config: ProxyConfig,
  state: ProxyState,
): Promise<ProxyClient | Response> {
  let clientId = form.get('client_id') ?? undefined;
  let secret = form.get('client_secret') ?? undefined;
  const authorization = request.headers.get('authorization');
  if (authorization?.toLowerCase().startsWith('basic ')) {
    let decoded: string;
    try {
      decoded = atob(authorization.slice(6).trim());
    } catch {
      return oauthErrorResponse(401, 'invalid_client', 'The Basic authorization header is not valid base64', {
        'www-authenticate': 'Basic',
      });
    }
    const colon = decoded.indexOf(':');
    // RFC 6749 §2.3.1: both parts are form-urlencoded before they are joined.
    const basicId = decodeURIComponent(decoded.slice(0, colon < 0 ? decoded.length : colon).replace(/\+/g, ' '));
    if (clientId !== undefined && clientId !== basicId) {
      return oauthErrorResponse(400, 'invalid_request', 'client_id in the body and in the Basic header differ');
    }
    clientId = basicId;
    secret = colon < 0 ? '' : decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
  }
  if (clientId === undefined) return oauthErrorResponse(401, 'invalid_client', 'No client_id was sent');
  let client: ProxyClient | undefined;
  try {
    client = await findClient(clientId, config, state);
  } catch {
    client = undefined;
  }
  if (client === undefined)
    return oauthErrorResponse(401, 'invalid_client', `Unknown client_id '${clientId}'; register again`);
  if (client.token_endpoint_auth_method === 'none') {
    // A public client proves itself with PKCE; a secret it sends anyway is ignored.
    return client;
  }
  if (secret === undefined || client.client_secret_hash === undefined) {
    return oauthErrorResponse(
      401,
      'invalid_client',
      `Client '${clientId}' must authenticate with ${client.token_endpoint_auth_method}`,
      {
        'www-authenticate': 'Basic',
      },
    );
  }
  if (!timingSafeEqual(await sha256Base64Url(secret), client.client_secret_hash)) {
    return oauthErrorResponse(401, 'invalid_client', 'The client secret is wrong', { 'www-authenticate': 'Basic' });
  }
  return client;
}
