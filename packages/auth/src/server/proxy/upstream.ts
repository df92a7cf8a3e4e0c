// The proxy's own leg as an OAuth client of the upstream provider: the authorization request it redirects the user to,
// and its token requests (code exchange, refresh), authenticated as the one pre-registered upstream client.
import { decodeJwt } from 'jose';
import { OAuthProxyError } from './errors';
import type { ProxyConfig, UpstreamIdentity, UpstreamTokens } from './options';

/** The scope to ask upstream for, from the MCP client's requested scopes and the `upstream.scope` option. */
export function upstreamScope(config: ProxyConfig, requested: readonly string[]): string | undefined {
  const option = config.upstream.scope;
  if (typeof option === 'string') return option;
  if (typeof option === 'function') return option(requested);
  return requested.length === 0 ? undefined : requested.join(' ');
}

/** The upstream authorization URL the user is sent to, with the proxy's client id, callback and PKCE challenge. */
export function upstreamAuthorizationUrl(
  config: ProxyConfig,
  transactionId: string,
  challenge: string,
  requested: readonly string[],
): URL {
  const url = new URL(config.upstream.authorizationEndpoint);
  for (const [name, value] of Object.entries(config.upstream.authorizationParams ?? {}))
    url.searchParams.set(name, value);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', config.upstream.clientId);
  url.searchParams.set('redirect_uri', config.endpoints.callback.href);
  // The transaction id doubles as upstream `state`: random, single-use, and what finds the transaction on return.
  url.searchParams.set('state', transactionId);
  url.searchParams.set('code_challenge', challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  const scope = upstreamScope(config, requested);
  if (scope !== undefined && scope !== '') url.searchParams.set('scope', scope);
  return url;
}

function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

async function tokenRequest(config: ProxyConfig, params: Record<string, string>): Promise<UpstreamTokens> {
  const body = new URLSearchParams(params);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  const { clientId, clientSecret, authMethod } = config.upstream;
  if (authMethod === 'client_secret_basic') {
    headers.authorization = `Basic ${btoa(`${formEncode(clientId)}:${formEncode(clientSecret ?? '')}`)}`;
  } else {
    body.set('client_id', clientId);
    if (authMethod === 'client_secret_post') body.set('client_secret', clientSecret ?? '');
  }
  const endpoint = String(config.upstream.tokenEndpoint);
  let response: Response;
  try {
    response = await config.fetch(endpoint, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(config.upstreamTimeoutMs),
    });
  } catch (cause) {
    throw new OAuthProxyError(
      'ERR_UPSTREAM_UNREACHABLE',
      `The upstream token endpoint ${endpoint} could not be reached`,
      {
        endpoint,
        grantType: params.grant_type,
      },
      { cause },
    );
  }
  let parsed: unknown;
  try {
    parsed = await response.json();
  } catch {
    parsed = undefined;
  }
  const json = (parsed !== null && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
  if (!response.ok || typeof json.access_token !== 'string' || typeof json.token_type !== 'string') {
    throw new OAuthProxyError(
      'ERR_UPSTREAM_TOKEN',
      `The upstream token endpoint refused the ${params.grant_type} request (${response.status}${typeof json.error === 'string' ? ` ${json.error}` : ''})`,
      {
        endpoint,
        grantType: params.grant_type,
        status: response.status,
        error: json.error,
        errorDescription: json.error_description,
      },
    );
  }
  return json as UpstreamTokens;
}

/** Exchanges the upstream authorization code for upstream tokens. Throws {@link OAuthProxyError}. */
export function exchangeUpstreamCode(config: ProxyConfig, code: string, verifier: string): Promise<UpstreamTokens> {
  return tokenRequest(config, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: config.endpoints.callback.href,
    code_verifier: verifier,
  });
}

/**
 * Refreshes upstream tokens. The upstream may rotate its refresh token or not; without a new one, the old one stays.
 * Throws {@link OAuthProxyError} (`ERR_UPSTREAM_TOKEN` when the user's upstream grant is gone).
 */
export async function refreshUpstream(config: ProxyConfig, previous: UpstreamTokens): Promise<UpstreamTokens> {
  if (previous.refresh_token === undefined) {
    throw new OAuthProxyError('ERR_UPSTREAM_TOKEN', 'The upstream provider issued no refresh token for this grant', {
      grantType: 'refresh_token',
    });
  }
  const fresh = await tokenRequest(config, { grant_type: 'refresh_token', refresh_token: previous.refresh_token });
  return fresh.refresh_token === undefined ? { ...fresh, refresh_token: previous.refresh_token } : fresh;
}

/**
 * The default identity: the `sub` of an upstream `id_token`, whose `aud` must name the proxy's upstream client (and
 * `iss` the upstream issuer, when configured). The token came straight from the token endpoint, so its signature is
 * not needed to trust it (OpenID Connect Core §3.1.3.7).
 */
export function identityFromIdToken(config: ProxyConfig, tokens: UpstreamTokens): UpstreamIdentity {
  if (typeof tokens.id_token !== 'string') return {};
  let claims: ReturnType<typeof decodeJwt>;
  try {
    claims = decodeJwt(tokens.id_token);
  } catch {
    return {};
  }
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(config.upstream.clientId)) return {};
  if (config.upstream.issuer !== undefined && claims.iss !== config.upstream.issuer) return {};
  return typeof claims.sub === 'string' ? { subject: claims.sub } : {};
}
