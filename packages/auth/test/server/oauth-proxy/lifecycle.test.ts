// The OAuth proxy: upstream failures, refresh and revocation, Client ID Metadata Documents, token endpoint details.
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  authorizeUrl,
  browse,
  CLIENT_REDIRECT,
  call,
  consentPost,
  type FakeIdp,
  fakeIdp,
  IDP,
  newProxy,
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

  it('refuses a document whose client_id is not its own URL, and says only that the client could not be verified', async () => {
    const proxy = newProxy(withDocument({ client_id: 'https://other.example/doc', redirect_uris: [CLIENT_REDIRECT] }));
    const response = await call(proxy, new Request(authorizeUrl(DOC_URL, (await pkce()).challenge)));
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).toContain('The client could not be verified.');
    expect(page).not.toContain('must equal');
  });

  // An unauthenticated caller picks the URL: the proxy must not become a probe of the network it runs in.
  for (const url of [
    'https://169.254.169.254/latest/meta-data/iam/security-credentials/',
    'https://[::ffff:a9fe:a9fe]/latest/meta-data/',
    'https://10.0.0.7/client.json',
    'https://[::1]/client.json',
    'https://2130706433/client.json',
    'https://[fd00::5]/client.json',
  ]) {
    it(`never fetches a client_id URL on a private address: ${url}`, async () => {
      const fetched: string[] = [];
      const idp = fakeIdp();
      const idpFetch = idp.fetch;
      idp.fetch = async (input, init) => {
        fetched.push(new Request(input, init).url);
        return idpFetch(input, init);
      };
      const response = await call(newProxy(idp), new Request(authorizeUrl(url, (await pkce()).challenge)));
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('The client could not be verified.');
      expect(fetched).toEqual([]);
    });
  }

  it('reads at most 5 KiB of a document, and gives up on a slow one after upstreamTimeoutMs', async () => {
    const huge = fakeIdp();
    let pulled = 0;
    huge.fetch = async () =>
      new Response(
        new ReadableStream({
          pull(controller) {
            pulled += 1024;
            controller.enqueue(new Uint8Array(1024).fill(0x20));
            if (pulled > 200 * 1024 * 1024) controller.close();
          },
        }),
        { headers: { 'content-type': 'application/json' } },
      );
    const big = await call(newProxy(huge), new Request(authorizeUrl(DOC_URL, (await pkce()).challenge)));
    expect(await big.text()).toContain('The client could not be verified.');
    expect(pulled).toBeLessThan(64 * 1024);

    const slow = fakeIdp();
    slow.fetch = async (_input, init) =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{'));
            init?.signal?.addEventListener('abort', () => controller.error(init.signal?.reason));
          },
        }),
      );
    const started = Date.now();
    const drip = await call(
      newProxy(slow, { upstreamTimeoutMs: 300 }),
      new Request(authorizeUrl(DOC_URL, (await pkce()).challenge)),
    );
    expect(await drip.text()).toContain('The client could not be verified.');
    expect(Date.now() - started).toBeLessThan(5_000);
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
