// The OAuth proxy tests' shared harness: a fake identity provider, the proxy under test, and the browser steps.
import { createLocalJWKSet, jwtVerify, SignJWT } from 'jose';
import { expect } from 'vitest';
import { type CreateOAuthProxyOptions, createOAuthProxy, type OAuthProxy } from '../../../src/server/proxy/oauth-proxy';
import { randomToken, sha256Base64Url } from '../../../src/shared/random';

// A fake upstream identity provider, as Request → Response functions: it knows one client (the proxy), signs the user
// in without asking, and supports PKCE and refresh, but neither DCR nor RFC 8707. No network anywhere.
export const IDP = 'https://idp.example';
export const PROXY = 'https://mcp.example';
export const RESOURCE = 'https://mcp.example/mcp';
export const UPSTREAM_CLIENT = { id: 'proxy-at-idp', secret: 'idp-secret' };

export interface FakeIdp {
  fetch: typeof fetch;
  authorize(url: URL): Response;
  /** Requests the token endpoint received. */
  tokenRequests: URLSearchParams[];
  /** Refresh tokens the IdP still honours. */
  liveRefreshTokens: Set<string>;
  /** What the authorize endpoint answers next (a user denying, say). */
  nextAuthorizeError?: string;
  /** The upstream access token lifetime it reports. */
  expiresIn: number;
  tokenFailure?: boolean;
}

export function fakeIdp(): FakeIdp {
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const idp: FakeIdp = {
    tokenRequests: [],
    liveRefreshTokens: new Set(),
    expiresIn: 3600,
    authorize(url) {
      const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
      const state = url.searchParams.get('state') ?? '';
      if (idp.nextAuthorizeError !== undefined) {
        redirect.searchParams.set('error', idp.nextAuthorizeError);
        redirect.searchParams.set('state', state);
        idp.nextAuthorizeError = undefined;
        return Response.redirect(redirect.href, 302);
      }
      const code = randomToken();
      codes.set(code, { challenge: url.searchParams.get('code_challenge') ?? '', redirectUri: redirect.href });
      redirect.searchParams.set('code', code);
      redirect.searchParams.set('state', state);
      redirect.searchParams.set('iss', IDP);
      return Response.redirect(redirect.href, 302);
    },
    fetch: async (input, init) => {
      const request = new Request(input, init);
      if (request.url !== `${IDP}/token`) return new Response('not found', { status: 404 });
      const form = new URLSearchParams(await request.text());
      idp.tokenRequests.push(form);
      const basic = request.headers.get('authorization');
      if (basic !== `Basic ${btoa(`${UPSTREAM_CLIENT.id}:${UPSTREAM_CLIENT.secret}`)}`) {
        return Response.json({ error: 'invalid_client' }, { status: 401 });
      }
      if (idp.tokenFailure) return Response.json({ error: 'server_error' }, { status: 500 });
      let subject = 'user-42';
      if (form.get('grant_type') === 'authorization_code') {
        const issued = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (issued === undefined || issued.redirectUri !== form.get('redirect_uri')) {
          return Response.json({ error: 'invalid_grant' }, { status: 400 });
        }
        if ((await sha256Base64Url(form.get('code_verifier') ?? '')) !== issued.challenge) {
          return Response.json({ error: 'invalid_grant', error_description: 'pkce' }, { status: 400 });
        }
      } else if (form.get('grant_type') === 'refresh_token') {
        if (!idp.liveRefreshTokens.delete(form.get('refresh_token') ?? '')) {
          return Response.json({ error: 'invalid_grant' }, { status: 400 });
        }
        subject = 'user-42';
      } else {
        return Response.json({ error: 'unsupported_grant_type' }, { status: 400 });
      }
      const refresh = `idp-refresh-${randomToken(8)}`;
      idp.liveRefreshTokens.add(refresh);
      const idToken = await new SignJWT({ sub: subject })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(IDP)
        .setAudience(UPSTREAM_CLIENT.id)
        .sign(new Uint8Array(32));
      return Response.json({
        access_token: `idp-access-${randomToken(8)}`,
        token_type: 'Bearer',
        expires_in: idp.expiresIn,
        refresh_token: refresh,
        id_token: idToken,
      });
    },
  };
  return idp;
}

// A fixed clock: lifetimes are then exact.
export const NOW = Date.UTC(2026, 10, 26, 12);

export function newProxy(idp: FakeIdp, overrides: Partial<CreateOAuthProxyOptions> = {}): OAuthProxy {
  return createOAuthProxy({
    issuer: PROXY,
    resource: RESOURCE,
    scopesSupported: ['mcp:read', 'mcp:admin'],
    upstream: {
      authorizationEndpoint: `${IDP}/authorize`,
      tokenEndpoint: `${IDP}/token`,
      clientId: UPSTREAM_CLIENT.id,
      clientSecret: UPSTREAM_CLIENT.secret,
      issuer: IDP,
      scope: 'openid profile',
    },
    fetch: idp.fetch,
    now: () => NOW,
    onError: (error) => {
      throw error;
    },
    ...overrides,
  });
}

export async function call(proxy: OAuthProxy, request: Request): Promise<Response> {
  const response = await proxy.handle(request);
  if (response === undefined) throw new Error(`the proxy did not answer ${request.method} ${request.url}`);
  return response;
}

export async function register(proxy: OAuthProxy, metadata: Record<string, unknown>): Promise<Response> {
  return call(
    proxy,
    new Request(`${PROXY}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(metadata),
    }),
  );
}

export const CLIENT_REDIRECT = 'http://127.0.0.1:33418/callback';

export async function registerPublic(proxy: OAuthProxy): Promise<string> {
  const response = await register(proxy, {
    client_name: 'Test <Client>',
    redirect_uris: [CLIENT_REDIRECT],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

export interface Pkce {
  verifier: string;
  challenge: string;
}
export async function pkce(): Promise<Pkce> {
  const verifier = randomToken(48);
  return { verifier, challenge: await sha256Base64Url(verifier) };
}

export function authorizeUrl(clientId: string, challenge: string, extra: Record<string, string> = {}): string {
  const url = new URL(`${PROXY}/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: CLIENT_REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'client-state-1',
    scope: 'mcp:read',
    resource: RESOURCE,
    ...extra,
  }).toString();
  return url.href;
}

/** The consent form's fields and the cookie the page set. */
export async function readConsent(response: Response): Promise<{ transaction: string; csrf: string; cookie: string }> {
  expect(response.status).toBe(200);
  const html = await response.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { transaction: field('transaction'), csrf: field('csrf'), cookie };
}

export function consentPost(fields: Record<string, string>, cookie: string): Request {
  return new Request(`${PROXY}/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams(fields),
  });
}

/** Plays the browser: consent page → Allow → the IdP → the proxy callback. Returns the final redirect to the client. */
export async function browse(proxy: OAuthProxy, idp: FakeIdp, url: string, decision = 'approve'): Promise<URL> {
  const consent = await readConsent(await call(proxy, new Request(url)));
  const approved = await call(proxy, consentPost({ ...consent, decision }, consent.cookie));
  expect(approved.status).toBe(302);
  let location = new URL(approved.headers.get('location') ?? '');
  if (location.origin === IDP) {
    const back = idp.authorize(location);
    location = new URL(back.headers.get('location') ?? '');
    expect(location.origin).toBe(PROXY);
    const callback = await call(proxy, new Request(location));
    expect(callback.status).toBe(302);
    location = new URL(callback.headers.get('location') ?? '');
  }
  return location;
}

export function tokenRequest(form: Record<string, string>, headers: Record<string, string> = {}): Request {
  return new Request(`${PROXY}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
}

/** Redeems `code` as the public client `clientId` with its PKCE verifier, at the redirect URI it registered. */
export function codeExchange(
  clientId: string,
  code: string,
  verifier: string,
  extra: Record<string, string> = {},
): Request {
  return tokenRequest({
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    code_verifier: verifier,
    redirect_uri: CLIENT_REDIRECT,
    ...extra,
  });
}

export async function verify(proxy: OAuthProxy, token: string) {
  return jwtVerify(token, createLocalJWKSet(await proxy.jwks()), {
    issuer: PROXY,
    audience: RESOURCE,
    currentDate: new Date(NOW),
  });
}

/** Register, authorize, consent, callback, token: the whole happy path. */
export async function signIn(proxy: OAuthProxy, idp: FakeIdp) {
  const clientId = await registerPublic(proxy);
  const { verifier, challenge } = await pkce();
  const back = await browse(proxy, idp, authorizeUrl(clientId, challenge));
  const code = back.searchParams.get('code') ?? '';
  const response = await call(proxy, codeExchange(clientId, code, verifier, { resource: RESOURCE }));
  expect(response.status).toBe(200);
  const tokens = (await response.json()) as {
    access_token: string;
    refresh_token?: string;
    expires_in: number;
    scope?: string;
  };
  return { clientId, tokens };
}
