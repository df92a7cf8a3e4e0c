// POST /token: authorization_code (PKCE S256 checked) and refresh_token (rotated); JWT access tokens signed with jose.
import { SignJWT } from 'jose';
import { ClientMetadataError, findClient } from './client-lookup';
import { json, oauthError, randomId, s256 } from './oauth-http';
import type { Client, RefreshGrant, ServerState } from './server-state';

async function authenticate(request: Request, form: URLSearchParams, state: ServerState): Promise<Client | Response> {
  let clientId = form.get('client_id');
  let secret = form.get('client_secret');
  const header = request.headers.get('authorization');
  if (header?.startsWith('Basic ')) {
    const decoded = Buffer.from(header.slice(6), 'base64').toString();
    const colon = decoded.indexOf(':');
    clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
    secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
  }
  let client: Client | undefined;
  try {
    client = clientId === null ? undefined : await findClient(clientId, state);
  } catch (error) {
    if (error instanceof ClientMetadataError) return oauthError(401, 'invalid_client', error.message);
    throw error;
  }
  if (client === undefined) return oauthError(401, 'invalid_client', 'Unknown client; register again');
  if (client.client_secret !== undefined && client.client_secret !== secret) {
    return oauthError(401, 'invalid_client', 'Wrong or missing client secret');
  }
  return client;
}

async function issue(state: ServerState, clientId: string, grant: RefreshGrant, nonce?: string): Promise<Response> {
  const { issuer } = state.options;
  const now = Math.floor(Date.now() / 1000);
  const ttl = state.accessTokenTtlSeconds;
  const header = { alg: 'ES256', kid: state.key.publicJwk.kid as string, typ: 'at+jwt' };
  const accessToken = await new SignJWT({ client_id: clientId, scope: grant.scopes.join(' ') })
    .setProtectedHeader(header)
    .setIssuer(issuer)
    // RFC 8707: the audience is the MCP server the client named; without one, the token is only good for the client.
    .setAudience(grant.resource ?? clientId)
    .setSubject(state.subject)
    .setIssuedAt(now)
    .setExpirationTime(now + ttl)
    .setJti(randomId(16))
    .sign(state.key.privateKey);
  const refreshToken = randomId();
  state.refreshTokens.set(refreshToken, grant);
  const body: Record<string, unknown> = {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: ttl,
    refresh_token: refreshToken,
    scope: grant.scopes.join(' '),
  };
  if (grant.scopes.includes('openid')) {
    // OpenID Connect: who signed in, for clients (like the OAuth proxy) that need the user's identity.
    const idToken = new SignJWT(nonce === undefined ? {} : { nonce })
      .setProtectedHeader({ alg: 'ES256', kid: header.kid })
      .setIssuer(issuer)
      .setAudience(clientId)
      .setSubject(state.subject)
      .setIssuedAt(now)
      .setExpirationTime(now + 300);
    body.id_token = await idToken.sign(state.key.privateKey);
  }
  return json(body);
}

export async function token(request: Request, state: ServerState): Promise<Response> {
  const form = new URLSearchParams(await request.text());
  const client = await authenticate(request, form, state);
  if (client instanceof Response) return client;
  const grantType = form.get('grant_type') ?? '';
  state.tokenRequests.push(grantType);
  if (grantType === 'authorization_code') {
    const code = state.codes.take(form.get('code') ?? '');
    if (code === undefined || code.clientId !== client.client_id) {
      return oauthError(400, 'invalid_grant', 'The code is unknown, expired, used, or not yours');
    }
    const redirectUri = form.get('redirect_uri');
    if (redirectUri !== null && redirectUri !== code.redirectUri) {
      return oauthError(400, 'invalid_grant', 'redirect_uri differs from the authorization request');
    }
    if ((await s256(form.get('code_verifier') ?? '')) !== code.challenge) {
      return oauthError(400, 'invalid_grant', 'code_verifier does not match the code_challenge (PKCE)');
    }
    const resource = form.get('resource') ?? code.resource;
    if (resource !== code.resource) return oauthError(400, 'invalid_target', 'resource differs from the authorization');
    return issue(state, client.client_id, { clientId: client.client_id, scopes: code.scopes, resource }, code.nonce);
  }
  if (grantType === 'refresh_token') {
    const grant = state.refreshTokens.take(form.get('refresh_token') ?? '');
    if (grant === undefined || grant.clientId !== client.client_id) {
      return oauthError(400, 'invalid_grant', 'The refresh token is unknown, expired, used, or not yours');
    }
    const resource = form.get('resource') ?? grant.resource;
    if (resource !== grant.resource) return oauthError(400, 'invalid_target', 'resource differs from the grant');
    return issue(state, client.client_id, grant);
  }
  return oauthError(400, 'unsupported_grant_type', 'grant_type: authorization_code or refresh_token');
}
