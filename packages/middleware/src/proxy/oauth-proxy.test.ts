import { createLocalJWKSet, decodeJwt, jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { type CreateOAuthProxyOptions, createOAuthProxy, type OAuthProxy } from './oauth-proxy';
import { randomToken, sha256Base64Url } from './random-token';

// A fake upstream identity provider, as Request → Response functions: it knows one client (the proxy), signs the user
// in without asking, and supports PKCE and refresh, but neither DCR nor RFC 8707. No network anywhere.
const IDP = 'https://idp.example';
const PROXY = 'https://mcp.example';
const RESOURCE = 'https://mcp.example/mcp';
const UPSTREAM_CLIENT = { id: 'proxy-at-idp', secret: 'idp-secret' };

interface FakeIdp {
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

function fakeIdp(): FakeIdp {
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
const NOW = Date.UTC(2026, 10, 26, 12);

function newProxy(idp: FakeIdp, overrides: Partial<CreateOAuthProxyOptions> = {}): OAuthProxy {
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

async function call(proxy: OAuthProxy, request: Request): Promise<Response> {
  const response = await proxy.handle(request);
  if (response === undefined) throw new Error(`the proxy did not answer ${request.method} ${request.url}`);
  return response;
}

async function register(proxy: OAuthProxy, metadata: Record<string, unknown>): Promise<Response> {
  return call(
    proxy,
    new Request(`${PROXY}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(metadata),
    }),
  );
}

const CLIENT_REDIRECT = 'http://127.0.0.1:33418/callback';

async function registerPublic(proxy: OAuthProxy): Promise<string> {
  const response = await register(proxy, {
    client_name: 'Test <Client>',
    redirect_uris: [CLIENT_REDIRECT],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

interface Pkce {
  verifier: string;
  challenge: string;
}
async function pkce(): Promise<Pkce> {
  const verifier = randomToken(48);
  return { verifier, challenge: await sha256Base64Url(verifier) };
}

function authorizeUrl(clientId: string, challenge: string, extra: Record<string, string> = {}): string {
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
async function readConsent(response: Response): Promise<{ transaction: string; csrf: string; cookie: string }> {
  expect(response.status).toBe(200);
  const html = await response.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { transaction: field('transaction'), csrf: field('csrf'), cookie };
}

function consentPost(fields: Record<string, string>, cookie: string): Request {
  return new Request(`${PROXY}/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams(fields),
  });
}

/** Plays the browser: consent page → Allow → the IdP → the proxy callback. Returns the final redirect to the client. */
async function browse(proxy: OAuthProxy, idp: FakeIdp, url: string, decision = 'approve'): Promise<URL> {
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

function tokenRequest(form: Record<string, string>, headers: Record<string, string> = {}): Request {
  return new Request(`${PROXY}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
}

/** Redeems `code` as the public client `clientId` with its PKCE verifier, at the redirect URI it registered. */
function codeExchange(clientId: string, code: string, verifier: string, extra: Record<string, string> = {}): Request {
  return tokenRequest({
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    code_verifier: verifier,
    redirect_uri: CLIENT_REDIRECT,
    ...extra,
  });
}

async function verify(proxy: OAuthProxy, token: string) {
  return jwtVerify(token, createLocalJWKSet(await proxy.jwks()), {
    issuer: PROXY,
    audience: RESOURCE,
    currentDate: new Date(NOW),
  });
}

/** Register, authorize, consent, callback, token: the whole happy path. */
async function signIn(proxy: OAuthProxy, idp: FakeIdp) {
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

describe('metadata', () => {
  it('describes the proxy’s own endpoints at the RFC 8414 well-known URL', async () => {
    const proxy = newProxy(fakeIdp());
    const response = await call(proxy, new Request(`${PROXY}/.well-known/oauth-authorization-server`));
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toMatchObject({
      issuer: PROXY,
      authorization_endpoint: `${PROXY}/authorize`,
      token_endpoint: `${PROXY}/token`,
      registration_endpoint: `${PROXY}/register`,
      jwks_uri: `${PROXY}/jwks`,
      code_challenge_methods_supported: ['S256'],
      scopes_supported: ['mcp:read', 'mcp:admin'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
  });

  it('inserts the well-known segment before an issuer path, and leaves other paths alone', async () => {
    const proxy = newProxy(fakeIdp(), { issuer: `${PROXY}/oauth` });
    const response = await call(proxy, new Request(`${PROXY}/.well-known/oauth-authorization-server/oauth`));
    expect(await response.json()).toMatchObject({ issuer: `${PROXY}/oauth`, token_endpoint: `${PROXY}/oauth/token` });
    expect(await proxy.handle(new Request(`${PROXY}/mcp`))).toBeUndefined();
    expect((await call(proxy, new Request(`${PROXY}/oauth/token`))).status).toBe(405);
  });

  it('refuses a plain-http issuer that is not loopback', () => {
    expect(() => newProxy(fakeIdp(), { issuer: 'http://mcp.example' })).toThrow(/https/);
  });
});

describe('registration (RFC 7591)', () => {
  it('registers a public client without a secret and a confidential one with a secret', async () => {
    const proxy = newProxy(fakeIdp());
    const open = await register(proxy, {
      redirect_uris: ['https://app.example/cb'],
      token_endpoint_auth_method: 'none',
    });
    expect(open.status).toBe(201);
    const publicClient = (await open.json()) as Record<string, unknown>;
    expect(publicClient.client_id).toMatch(/^[\w-]{20,}$/);
    expect(publicClient.client_secret).toBeUndefined();
    const secret = await register(proxy, { redirect_uris: ['https://app.example/cb'], client_name: 'Server app' });
    const confidential = (await secret.json()) as Record<string, unknown>;
    expect(confidential).toMatchObject({
      token_endpoint_auth_method: 'client_secret_basic',
      client_secret_expires_at: 0,
    });
    expect(typeof confidential.client_secret).toBe('string');
  });

  it('accepts https and loopback http redirect URIs only', async () => {
    const proxy = newProxy(fakeIdp());
    for (const uri of ['http://evil.example/cb', 'https://app.example/cb#x', 'not a url', 'javascript:alert(1)']) {
      const response = await register(proxy, { redirect_uris: [uri] });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_redirect_uri' });
    }
    expect((await register(proxy, {})).status).toBe(400);
    for (const uri of ['http://localhost:9999/cb', 'http://[::1]/cb', 'https://app.example/cb']) {
      expect((await register(proxy, { redirect_uris: [uri], token_endpoint_auth_method: 'none' })).status).toBe(201);
    }
  });

  it('refuses unsupported metadata and bodies that are not JSON objects', async () => {
    const proxy = newProxy(fakeIdp());
    const cases = [
      { redirect_uris: ['https://a.example/cb'], token_endpoint_auth_method: 'private_key_jwt' },
      { redirect_uris: ['https://a.example/cb'], grant_types: ['implicit'] },
      { redirect_uris: ['https://a.example/cb'], scope: 'mcp:read root' },
    ];
    for (const metadata of cases) {
      const response = await register(proxy, metadata);
      expect(await response.json()).toMatchObject({ error: 'invalid_client_metadata' });
    }
    const notJson = await call(proxy, new Request(`${PROXY}/register`, { method: 'POST', body: '[1' }));
    expect(notJson.status).toBe(400);
  });
});

describe('the authorization code flow through the proxy', () => {
  it('signs the user in upstream as the proxy and issues its own token for the MCP server', async () => {
    const idp = fakeIdp();
    const proxy = newProxy(idp);
    const clientId = await registerPublic(proxy);
    const { verifier, challenge } = await pkce();

    const page = await call(proxy, new Request(authorizeUrl(clientId, challenge)));
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax/);
    expect(page.headers.get('set-cookie')).toMatch(/^__Host-/);
    const consent = await readConsent(page);
    const approved = await call(proxy, consentPost({ ...consent, decision: 'approve' }, consent.cookie));
    const upstream = new URL(approved.headers.get('location') ?? '');
    // The upstream request is the proxy's own: its client id, its callback, its PKCE, its state.
    expect(upstream.origin + upstream.pathname).toBe(`${IDP}/authorize`);
    expect(upstream.searchParams.get('client_id')).toBe(UPSTREAM_CLIENT.id);
    expect(upstream.searchParams.get('redirect_uri')).toBe(proxy.callbackUrl);
    expect(upstream.searchParams.get('code_challenge_method')).toBe('S256');
    expect(upstream.searchParams.get('code_challenge')).not.toBe(challenge);
    expect(upstream.searchParams.get('state')).not.toBe('client-state-1');
    expect(upstream.searchParams.get('scope')).toBe('openid profile');
    expect(upstream.searchParams.has('resource')).toBe(false);

    const callback = new URL(idp.authorize(upstream).headers.get('location') ?? '');
    const back = new URL((await call(proxy, new Request(callback))).headers.get('location') ?? '');
    expect(back.origin + back.pathname).toBe(CLIENT_REDIRECT);
    expect(back.searchParams.get('state')).toBe('client-state-1');
    expect(back.searchParams.get('iss')).toBe(PROXY);
    const code = back.searchParams.get('code') ?? '';

    const response = await call(proxy, codeExchange(clientId, code, verifier));
    expect(response.headers.get('cache-control')).toBe('no-store');
    const tokens = (await response.json()) as Record<string, unknown>;
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'mcp:read' });
    expect(String(tokens.access_token)).not.toMatch(/^idp-/);
    expect(String(tokens.refresh_token)).not.toMatch(/^idp-/);
    const { payload, protectedHeader } = await verify(proxy, String(tokens.access_token));
    expect(protectedHeader.typ).toBe('at+jwt');
    expect(payload).toMatchObject({
      iss: PROXY,
      aud: RESOURCE,
      sub: 'user-42',
      client_id: clientId,
      scope: 'mcp:read',
    });
    // The upstream code was redeemed by the proxy with its own verifier and redirect URI.
    expect(idp.tokenRequests[0]?.get('redirect_uri')).toBe(proxy.callbackUrl);
  });

  it('uses a code once, and only with the right verifier, client and resource', async () => {
    const idp = fakeIdp();
    const proxy = newProxy(idp);
    const clientId = await registerPublic(proxy);
    const other = await registerPublic(proxy);
    const codeFor = async (p: Pkce) =>
      (await browse(proxy, idp, authorizeUrl(clientId, p.challenge))).searchParams.get('code') ?? '';
    const exchange = async (form: Record<string, string>) => {
      const response = await call(proxy, tokenRequest({ grant_type: 'authorization_code', ...form }));
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    const p1 = await pkce();
    const code1 = await codeFor(p1);
    expect(
      (await exchange({ client_id: clientId, code: code1, code_verifier: (await pkce()).verifier })).body.error,
    ).toBe('invalid_grant');
    // The failed attempt used the code up: it cannot be retried with the right verifier.
    expect((await exchange({ client_id: clientId, code: code1, code_verifier: p1.verifier })).body.error).toBe(
      'invalid_grant',
    );

    const p2 = await pkce();
    const code2 = await codeFor(p2);
    expect((await exchange({ client_id: other, code: code2, code_verifier: p2.verifier })).body.error).toBe(
      'invalid_grant',
    );

    const p3 = await pkce();
    const code3 = await codeFor(p3);
    const wrongTarget = await exchange({
      client_id: clientId,
      code: code3,
      code_verifier: p3.verifier,
      resource: 'https://other.example/mcp',
    });
    expect(wrongTarget).toMatchObject({ status: 400, body: { error: 'invalid_target' } });

    const p4 = await pkce();
    const code4 = await codeFor(p4);
    expect((await exchange({ client_id: clientId, code: code4, code_verifier: p4.verifier })).status).toBe(200);
    expect((await exchange({ client_id: clientId, code: code4, code_verifier: p4.verifier })).body.error).toBe(
      'invalid_grant',
    );
  });

  it('caps the access token lifetime at the upstream token’s', async () => {
    const idp = fakeIdp();
    idp.expiresIn = 120;
    const { tokens } = await signIn(newProxy(idp), idp);
    expect(tokens.expires_in).toBe(120);
  });

  it('authenticates confidential clients with client_secret_basic', async () => {
    const idp = fakeIdp();
    const proxy = newProxy(idp);
    const registered = (await (
      await register(proxy, { redirect_uris: [CLIENT_REDIRECT], token_endpoint_auth_method: 'client_secret_basic' })
    ).json()) as { client_id: string; client_secret: string };
    const p = await pkce();
    const code =
      (await browse(proxy, idp, authorizeUrl(registered.client_id, p.challenge))).searchParams.get('code') ?? '';
    const form = { grant_type: 'authorization_code', code, code_verifier: p.verifier };
    const wrong = await call(
      proxy,
      tokenRequest(form, { authorization: `Basic ${btoa(`${registered.client_id}:nope`)}` }),
    );
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_client' });
    const missing = await call(proxy, tokenRequest({ ...form, client_id: registered.client_id }));
    expect(missing.status).toBe(401);
  });
});

describe('authorization request checks', () => {
  it('shows an error page, never a redirect, for an unknown client or an unregistered redirect URI', async () => {
    const proxy = newProxy(fakeIdp());
    const clientId = await registerPublic(proxy);
    const { challenge } = await pkce();
    const unknown = await call(proxy, new Request(authorizeUrl('nobody', challenge)));
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('location')).toBeNull();
    const evil = await call(
      proxy,
      new Request(authorizeUrl(clientId, challenge, { redirect_uri: 'https://evil.example/cb' })),
    );
    expect(evil.status).toBe(400);
    expect(evil.headers.get('location')).toBeNull();
  });

  it('lets a loopback redirect URI use another port (RFC 8252)', async () => {
    const proxy = newProxy(fakeIdp());
    const clientId = await registerPublic(proxy);
    const { challenge } = await pkce();
    const page = await call(
      proxy,
      new Request(authorizeUrl(clientId, challenge, { redirect_uri: 'http://127.0.0.1:50000/callback' })),
    );
    expect(page.status).toBe(200);
    const path = await call(
      proxy,
      new Request(authorizeUrl(clientId, challenge, { redirect_uri: 'http://127.0.0.1:50000/other' })),
    );
    expect(path.status).toBe(400);
  });

  it('sends protocol errors back to the client with its state and the proxy’s iss', async () => {
    const proxy = newProxy(fakeIdp());
    const clientId = await registerPublic(proxy);
    const { challenge } = await pkce();
    const cases: [Record<string, string>, string][] = [
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: 'short' }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ resource: 'https://elsewhere.example/mcp' }, 'invalid_target'],
      [{ scope: 'mcp:read everything' }, 'invalid_scope'],
    ];
    for (const [extra, error] of cases) {
      const response = await call(proxy, new Request(authorizeUrl(clientId, challenge, extra)));
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location') ?? '');
      expect(location.origin + location.pathname).toBe(CLIENT_REDIRECT);
      expect(Object.fromEntries(location.searchParams)).toMatchObject({ error, state: 'client-state-1', iss: PROXY });
    }
  });
});

describe('consent (confused deputy protection)', () => {
  it('goes back to the client with access_denied when the user denies', async () => {
    const idp = fakeIdp();
    const proxy = newProxy(idp);
    const clientId = await registerPublic(proxy);
    const back = await browse(proxy, idp, authorizeUrl(clientId, (await pkce()).challenge), 'deny');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('client-state-1');
    expect(idp.tokenRequests).toHaveLength(0);
  });

  it('refuses a consent form posted without the page’s cookie (another site posting it)', async () => {
    const proxy = newProxy(fakeIdp());
    const clientId = await registerPublic(proxy);
    const consent = await readConsent(await call(proxy, new Request(authorizeUrl(clientId, (await pkce()).challenge))));
    const forged = await call(proxy, consentPost({ ...consent, decision: 'approve' }, ''));
    expect(forged.status).toBe(403);
    expect(forged.headers.get('location')).toBeNull();
  });

  it('refuses a callback for a request the user never approved', async () => {
    const idp = fakeIdp();
    const proxy = newProxy(idp);
    const clientId = await registerPublic(proxy);
    const consent = await readConsent(await call(proxy, new Request(authorizeUrl(clientId, (await pkce()).challenge))));
    // An attacker who learned the transaction id sends the user straight upstream, skipping the consent page.
    const skipped = await call(proxy, new Request(`${PROXY}/callback?code=x&state=${consent.transaction}`));
    expect(skipped.status).toBe(400);
    expect(skipped.headers.get('location')).toBeNull();
  });

  it('sends the user straight upstream when consent is turned off', async () => {
    const proxy = newProxy(fakeIdp(), { consent: false });
    const clientId = await registerPublic(proxy);
    const response = await call(proxy, new Request(authorizeUrl(clientId, (await pkce()).challenge)));
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toMatch(/^https:\/\/idp\.example\/authorize\?/);
  });
});

describe('upstream failures', () => {
  it('passes access_denied from the identity provider to the client', async () => {
    const idp = fakeIdp();
    const proxy = newProxy(idp);
    const clientId = await registerPublic(proxy);
    idp.nextAuthorizeError = 'access_denied';
    const back = await browse(proxy, idp, authorizeUrl(clientId, (await pkce()).challenge));
    expect(Object.fromEntries(back.searchParams)).toMatchObject({
      error: 'access_denied',
      state: 'client-state-1',
      iss: PROXY,
    });
  });

  it('answers server_error when the upstream token endpoint fails', async () => {
    const idp = fakeIdp();
    idp.tokenFailure = true;
    const proxy = newProxy(idp);
    const clientId = await registerPublic(proxy);
    const back = await browse(proxy, idp, authorizeUrl(clientId, (await pkce()).challenge));
    expect(back.searchParams.get('error')).toBe('server_error');
    expect(back.searchParams.get('error_description')).toMatch(/refused the authorization_code request \(500/);
    expect(back.searchParams.has('code')).toBe(false);
  });

  it('refuses a callback whose iss is not the upstream issuer (mix-up)', async () => {
    const idp = fakeIdp();
    const proxy = newProxy(idp);
    const clientId = await registerPublic(proxy);
    const consent = await readConsent(await call(proxy, new Request(authorizeUrl(clientId, (await pkce()).challenge))));
    await call(proxy, consentPost({ ...consent, decision: 'approve' }, consent.cookie));
    const response = await call(
      proxy,
      new Request(`${PROXY}/callback?code=x&state=${consent.transaction}&iss=https://evil.example`),
    );
    expect(new URL(response.headers.get('location') ?? '').searchParams.get('error')).toBe('server_error');
    expect(idp.tokenRequests).toHaveLength(0);
  });
});

describe('refresh', () => {
  it('rotates the refresh token and refreshes upstream each time', async () => {
    const idp = fakeIdp();
    const proxy = newProxy(idp);
    const { clientId, tokens } = await signIn(proxy, idp);
    const refresh = (token: string, extra: Record<string, string> = {}) =>
      call(proxy, tokenRequest({ grant_type: 'refresh_token', client_id: clientId, refresh_token: token, ...extra }));

    const first = await refresh(tokens.refresh_token ?? '');
    expect(first.status).toBe(200);
    const renewed = (await first.json()) as { access_token: string; refresh_token: string };
    expect(renewed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await verify(proxy, renewed.access_token)).payload).toMatchObject({ sub: 'user-42', aud: RESOURCE });
    expect(idp.tokenRequests.at(-1)?.get('grant_type')).toBe('refresh_token');

    const narrowed = await refresh(renewed.refresh_token, { scope: '' });
    const narrowedBody = (await narrowed.json()) as { access_token: string; refresh_token: string; scope?: string };
    expect(narrowedBody.scope).toBeUndefined();
    expect(decodeJwt(narrowedBody.access_token).scope).toBeUndefined();
    // The refresh token still carries the original grant, and cannot widen it.
    const widened = await refresh(narrowedBody.refresh_token, { scope: 'mcp:read mcp:admin' });
    expect(await widened.json()).toMatchObject({ error: 'invalid_scope' });
  });

  it('revokes the grant when a rotated-out refresh token comes back (one copy was stolen)', async () => {
    const idp = fakeIdp();
    const proxy = newProxy(idp);
    const { clientId, tokens } = await signIn(proxy, idp);
    const refresh = async (token: string) =>
      (await (
        await call(proxy, tokenRequest({ grant_type: 'refresh_token', client_id: clientId, refresh_token: token }))
      ).json()) as { refresh_token?: string; error?: string; error_description?: string };
    const second = await refresh(tokens.refresh_token ?? '');
    expect(second.refresh_token).toBeDefined();
    const replay = await refresh(tokens.refresh_token ?? '');
    expect(replay).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('already used'),
    });
    // The live token of the family is gone too: whoever holds it must sign in again.
    expect(await refresh(second.refresh_token ?? '')).toMatchObject({ error: 'invalid_grant' });
  });

  it('revokes the tokens issued from a code when the code is replayed', async () => {
    const idp = fakeIdp();
    const proxy = newProxy(idp);
    const clientId = await registerPublic(proxy);
    const p = await pkce();
    const code = (await browse(proxy, idp, authorizeUrl(clientId, p.challenge))).searchParams.get('code') ?? '';
    const form = { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: p.verifier };
    const first = (await (await call(proxy, tokenRequest(form))).json()) as { refresh_token: string };
    const replay = await call(proxy, tokenRequest(form));
    expect(await replay.json()).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringContaining('revoked'),
    });
    const refreshed = await call(
      proxy,
      tokenRequest({ grant_type: 'refresh_token', client_id: clientId, refresh_token: first.refresh_token }),
    );
    expect(await refreshed.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('ends the grant when the identity provider revoked it', async () => {
    const idp = fakeIdp();
    const proxy = newProxy(idp);
    const { clientId, tokens } = await signIn(proxy, idp);
    idp.liveRefreshTokens.clear();
    const response = await call(
      proxy,
      tokenRequest({ grant_type: 'refresh_token', client_id: clientId, refresh_token: tokens.refresh_token ?? '' }),
    );
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses another client’s refresh token', async () => {
    const idp = fakeIdp();
    const proxy = newProxy(idp);
    const { tokens } = await signIn(proxy, idp);
    const other = await registerPublic(proxy);
    const response = await call(
      proxy,
      tokenRequest({ grant_type: 'refresh_token', client_id: other, refresh_token: tokens.refresh_token ?? '' }),
    );
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('Client ID Metadata Documents', () => {
  const DOC_URL = 'https://client.example/oauth/metadata.json';
  const withDocument = (document: Record<string, unknown>): FakeIdp => {
    const idp = fakeIdp();
    const idpFetch = idp.fetch;
    idp.fetch = async (input, init) => {
      const url = new Request(input, init).url;
      return url === DOC_URL ? Response.json(document) : idpFetch(input, init);
    };
    return idp;
  };

  it('accepts an https URL as client_id and runs the whole flow with it', async () => {
    const idp = withDocument({ client_id: DOC_URL, client_name: 'Doc Client', redirect_uris: [CLIENT_REDIRECT] });
    const proxy = newProxy(idp);
    const p = await pkce();
    const page = await call(proxy, new Request(authorizeUrl(DOC_URL, p.challenge)));
    expect(await page.clone().text()).toContain('Doc Client');
    const consent = await readConsent(page);
    const approved = await call(proxy, consentPost({ ...consent, decision: 'approve' }, consent.cookie));
    const callback = new URL(
      idp.authorize(new URL(approved.headers.get('location') ?? '')).headers.get('location') ?? '',
    );
    const code =
      new URL((await call(proxy, new Request(callback))).headers.get('location') ?? '').searchParams.get('code') ?? '';
    const response = await call(
      proxy,
      tokenRequest({ grant_type: 'authorization_code', client_id: DOC_URL, code, code_verifier: p.verifier }),
    );
    expect(response.status).toBe(200);
    const { access_token } = (await response.json()) as { access_token: string };
    expect((await verify(proxy, access_token)).payload.client_id).toBe(DOC_URL);
  });

  it('refuses a document whose client_id is not its own URL', async () => {
    const proxy = newProxy(withDocument({ client_id: 'https://other.example/doc', redirect_uris: [CLIENT_REDIRECT] }));
    const response = await call(proxy, new Request(authorizeUrl(DOC_URL, (await pkce()).challenge)));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('must equal its URL');
  });
});

describe('token endpoint details', () => {
  it('refuses other grant types and bodies that are not forms', async () => {
    const proxy = newProxy(fakeIdp());
    const clientId = await registerPublic(proxy);
    const implicit = await call(proxy, tokenRequest({ grant_type: 'password', client_id: clientId }));
    expect(await implicit.json()).toMatchObject({ error: 'unsupported_grant_type' });
    const jsonBody = await call(
      proxy,
      new Request(`${PROXY}/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
    );
    expect(jsonBody.status).toBe(400);
    expect(await jsonBody.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('answers CORS preflights on the endpoints browsers call with fetch', async () => {
    const proxy = newProxy(fakeIdp());
    const preflight = await call(proxy, new Request(`${PROXY}/token`, { method: 'OPTIONS' }));
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect((await call(proxy, new Request(`${PROXY}/authorize`, { method: 'OPTIONS' }))).status).toBe(405);
  });

  it('accepts client_secret_post, and puts what identify returns into the token', async () => {
    const idp = fakeIdp();
    const proxy = newProxy(idp, {
      identify: (tokens) => ({
        subject: `via-${tokens.access_token.slice(0, 10)}`,
        claims: { email: 'u@example.com', iss: 'forged' },
      }),
      upstream: {
        authorizationEndpoint: `${IDP}/authorize`,
        tokenEndpoint: `${IDP}/token`,
        clientId: UPSTREAM_CLIENT.id,
        clientSecret: UPSTREAM_CLIENT.secret,
        scope: (requested) => ['openid', ...requested.map((s) => `idp.${s}`)].join(' '),
      },
    });
    const registered = (await (
      await register(proxy, { redirect_uris: [CLIENT_REDIRECT], token_endpoint_auth_method: 'client_secret_post' })
    ).json()) as { client_id: string; client_secret: string };
    const p = await pkce();
    const consent = await readConsent(await call(proxy, new Request(authorizeUrl(registered.client_id, p.challenge))));
    const approved = await call(proxy, consentPost({ ...consent, decision: 'approve' }, consent.cookie));
    const upstream = new URL(approved.headers.get('location') ?? '');
    expect(upstream.searchParams.get('scope')).toBe('openid idp.mcp:read');
    const callback = new URL(idp.authorize(upstream).headers.get('location') ?? '');
    const code =
      new URL((await call(proxy, new Request(callback))).headers.get('location') ?? '').searchParams.get('code') ?? '';
    const response = await call(
      proxy,
      tokenRequest({
        grant_type: 'authorization_code',
        client_id: registered.client_id,
        client_secret: registered.client_secret,
        code,
        code_verifier: p.verifier,
      }),
    );
    expect(response.status).toBe(200);
    const { access_token } = (await response.json()) as { access_token: string };
    const { payload } = await verify(proxy, access_token);
    // Registered claims are the proxy's own: identify cannot override iss.
    expect(payload).toMatchObject({ sub: 'via-idp-access', email: 'u@example.com', iss: PROXY });
  });
});
