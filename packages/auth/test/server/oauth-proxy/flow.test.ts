// The OAuth proxy: metadata, registration, the authorization code flow, request checks and consent.
import { describe, expect, it } from 'vitest';
import {
  authorizeUrl,
  browse,
  CLIENT_REDIRECT,
  call,
  codeExchange,
  consentPost,
  fakeIdp,
  IDP,
  newProxy,
  type Pkce,
  PROXY,
  pkce,
  RESOURCE,
  readConsent,
  register,
  registerPublic,
  signIn,
  tokenRequest,
  UPSTREAM_CLIENT,
  verify,
} from './harness';

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
