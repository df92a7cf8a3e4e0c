// POST /token: the MCP client redeems the proxy's code (its PKCE verifier checked) or refreshes; the proxy answers with
// access tokens it signs itself, bound to the MCP server (aud), and keeps the upstream tokens to itself.

import { verifyPkce } from '../../shared/pkce';
import { randomToken } from '../../shared/random';
import { authenticateClient } from './client-authentication';
import { jsonResponse, oauthErrorResponse, readForm } from './http';
import { normalizeResource, type ProxyConfig } from './options';
import type { ProxyClient, ProxyGrant, ProxyState } from './records';
import type { TokenSigner } from './token-signer';
import { refreshUpstream } from './upstream';

function resourceProblem(form: URLSearchParams, grant: ProxyGrant): Response | undefined {
  const requested = form.getAll('resource');
  if (requested.length === 0) return undefined;
  let normalized: string | undefined;
  try {
    normalized = requested.length === 1 ? normalizeResource(requested[0] as string) : undefined;
  } catch {
    normalized = undefined;
  }
  if (normalized !== grant.resource) {
    return oauthErrorResponse(400, 'invalid_target', `This grant is for ${grant.resource} only`);
  }
  return undefined;
}

async function issueTokens(
  config: ProxyConfig,
  signer: TokenSigner,
  state: ProxyState,
  grant: ProxyGrant,
  scopes: readonly string[],
): Promise<Response> {
  const now = config.now();
  let lifetime = config.accessTokenTtlSeconds;
  // The proxy's token never outlives the upstream one it stands for.
  if (grant.upstream_expires_at !== undefined)
    lifetime = Math.min(lifetime, Math.floor((grant.upstream_expires_at - now) / 1000));
  lifetime = Math.max(1, lifetime);
  const issuedAt = Math.floor(now / 1000);
  const accessToken = await signer.sign({
    issuer: config.issuer,
    audience: grant.resource,
    clientId: grant.client_id,
    scopes,
    subject: grant.subject,
    extra: grant.claims,
    issuedAt,
    expiresAt: issuedAt + lifetime,
  });
  const body: Record<string, unknown> = { access_token: accessToken, token_type: 'Bearer', expires_in: lifetime };
  if (scopes.length > 0) body.scope = scopes.join(' ');
  // Without an upstream refresh token the proxy could not check, at refresh, that the user's grant still stands.
  if (grant.upstream.refresh_token !== undefined) {
    const refreshToken = randomToken(32);
    await state.saveRefresh(refreshToken, grant, config.refreshTokenTtlSeconds);
    body.refresh_token = refreshToken;
  }
  return jsonResponse(body);
}

async function authorizationCodeGrant(
  form: URLSearchParams,
  client: ProxyClient,
  config: ProxyConfig,
  signer: TokenSigner,
  state: ProxyState,
): Promise<Response> {
  const code = form.get('code');
  const verifier = form.get('code_verifier');
  if (code === null || verifier === null)
    return oauthErrorResponse(400, 'invalid_request', 'code and code_verifier are required');
  const issued = await state.takeCode(code, config.refreshTokenTtlSeconds);
  if (issued === undefined) {
    const replayed = await state.revokeIfReplayed(code);
    const detail = replayed ? 'was already used; the tokens issued from it are revoked' : 'is unknown or expired';
    return oauthErrorResponse(400, 'invalid_grant', `The code ${detail}`);
  }
  if (issued.client_id !== client.client_id)
    return oauthErrorResponse(400, 'invalid_grant', 'The code was issued to another client');
  const redirectUri = form.get('redirect_uri');
  if (redirectUri !== null && redirectUri !== issued.redirect_uri) {
    return oauthErrorResponse(400, 'invalid_grant', 'redirect_uri differs from the authorization request');
  }
  if (!(await verifyPkce(verifier, issued.code_challenge))) {
    return oauthErrorResponse(400, 'invalid_grant', 'The code_verifier does not match the code_challenge');
  }
  const { redirect_uri: _r, code_challenge: _c, ...grant } = issued;
  return resourceProblem(form, grant) ?? issueTokens(config, signer, state, grant, grant.scopes);
}

async function refreshTokenGrant(
  form: URLSearchParams,
  client: ProxyClient,
  config: ProxyConfig,
  signer: TokenSigner,
  state: ProxyState,
): Promise<Response> {
  const token = form.get('refresh_token');
  if (token === null) return oauthErrorResponse(400, 'invalid_request', 'refresh_token is required');
  // Rotation: each refresh token works once (OAuth 2.1 §4.3.1 for public clients).
  const grant = await state.takeRefresh(token, config.refreshTokenTtlSeconds);
  if (grant === undefined) {
    const replayed = await state.revokeIfReplayed(token);
    const detail = replayed ? 'was already used; this grant is revoked, sign in again' : 'is unknown or expired';
    return oauthErrorResponse(400, 'invalid_grant', `The refresh token ${detail}`);
  }
  if (grant.client_id !== client.client_id)
    return oauthErrorResponse(400, 'invalid_grant', 'The refresh token was issued to another client');
  const problem = resourceProblem(form, grant);
  if (problem !== undefined) return problem;
  let scopes = grant.scopes;
  const scope = form.get('scope');
  if (scope !== null) {
    scopes = scope.split(' ').filter((s) => s !== '');
    if (!scopes.every((s) => grant.scopes.includes(s))) {
      return oauthErrorResponse(
        400,
        'invalid_scope',
        `A refresh may only narrow the granted scope (${grant.scopes.join(' ')})`,
      );
    }
  }
  let upstream: ProxyGrant['upstream'];
  try {
    // Refreshing upstream too is what makes a revocation at the identity provider reach MCP clients.
    upstream = await refreshUpstream(config, grant.upstream);
  } catch {
    return oauthErrorResponse(
      400,
      'invalid_grant',
      'The identity provider no longer honours this grant; sign in again',
    );
  }
  const renewed: ProxyGrant = { ...grant, upstream };
  delete renewed.upstream_expires_at;
  if (typeof upstream.expires_in === 'number') renewed.upstream_expires_at = config.now() + upstream.expires_in * 1000;
  return issueTokens(config, signer, state, renewed, scopes);
}

/** POST /token. */
export async function handleToken(
  request: Request,
  config: ProxyConfig,
  signer: TokenSigner,
  state: ProxyState,
): Promise<Response> {
  const form = await readForm(request);
  if (form === undefined) {
    return oauthErrorResponse(
      400,
      'invalid_request',
      'The body must be application/x-www-form-urlencoded, at most 64 KiB',
    );
  }
  const client = await authenticateClient(request, form, config, state);
  if (client instanceof Response) return client;
  switch (form.get('grant_type')) {
    case 'authorization_code':
      return authorizationCodeGrant(form, client, config, signer, state);
    case 'refresh_token':
      return refreshTokenGrant(form, client, config, signer, state);
    default:
      return oauthErrorResponse(
        400,
        'unsupported_grant_type',
        'grant_type must be authorization_code or refresh_token',
      );
  }
}
