import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  clientCredentialsGrant,
  DpopProver,
  findAuthorizationError,
  InMemoryOAuthStore,
  OAuthClient,
  type OAuthClientProvider,
} from '../../src/client/index';
import { browserOf, FakeOAuthWorld, type FakeWorldOptions, rpc } from './fake-oauth-world';

const REDIRECT = 'http://127.0.0.1:8765/callback';

function setup(world: FakeOAuthWorld, provider: Partial<OAuthClientProvider> = {}) {
  const store = new InMemoryOAuthStore();
  const oauth = new OAuthClient({
    provider: { store, redirectUrl: REDIRECT, redirectToAuthorization: browserOf(world), ...provider },
    fetch: world.fetch,
  });
  return { oauth, store };
}

function dpopWorld(options: FakeWorldOptions = {}) {
  return new FakeOAuthWorld({ dpop: { tokenNonce: 'as-nonce-1', resourceNonce: 'rs-nonce-1' }, ...options });
}

describe('OAuthClient with DPoP: the authorization-code flow', () => {
  it('binds code and tokens to the key, answers both nonce challenges once, and sends DPoP with ath', async () => {
    const world = dpopWorld({ challengeScope: 'mcp:read' });
    const prover = await DpopProver.generate();
    const { oauth } = setup(world, { dpop: prover });

    const response = await oauth.fetch(world.serverUrl, rpc('tools/list'));
    expect(response.status).toBe(200);
    const { result } = (await response.json()) as { result: { token: string } };

    // The DPoP challenge carried scope and resource_metadata, and the code is bound to the key (RFC 9449 §10).
    const jkt = await prover.thumbprint();
    const authorize = new URL(world.requestsTo(`${world.issuer}/authorize`)[0]!.url).searchParams;
    expect(authorize.get('dpop_jkt')).toBe(jkt);
    expect(authorize.get('scope')).toBe('mcp:read');
    // Token endpoint: a proof without nonce, refused with use_dpop_nonce, then one with it.
    const tokenRequests = world.requestsTo(`${world.issuer}/token`);
    expect(tokenRequests.map((request) => decodeJwt(request.headers.get('dpop')!).nonce)).toEqual([
      undefined,
      'as-nonce-1',
    ]);
    expect(world.tokens.get(result.token)?.cnf).toEqual({ jkt });
    expect((await oauth.tokens())?.tokenType).toBe('DPoP');

    // MCP server: unauthenticated 401, then DPoP without nonce (use_dpop_nonce), then with it.
    const mcp = world.requestsTo(world.serverUrl.href);
    expect(mcp).toHaveLength(3);
    expect(mcp[0]!.headers.get('authorization')).toBeNull();
    for (const request of mcp.slice(1)) {
      expect(request.headers.get('authorization')).toBe(`DPoP ${result.token}`);
      expect(request.body).toBe(mcp[0]!.body);
    }
    expect(mcp.slice(1).map((request) => decodeJwt(request.headers.get('dpop')!).nonce)).toEqual([
      undefined,
      'rs-nonce-1',
    ]);
    // Every proof the servers accepted had a fresh jti (the fake refuses a replay) and the right htm/htu/ath.
    expect(world.resourceProofs.payloads.at(-1)).toMatchObject({ htm: 'POST', htu: world.serverUrl.href });
  });

  it('uses the remembered nonce afterwards, and answers a rotated nonce with one retry, no new authorization', async () => {
    const world = dpopWorld();
    const { oauth } = setup(world, { dpop: true });
    expect((await oauth.fetch(world.serverUrl, rpc('initialize'))).status).toBe(200);
    const before = world.requests.length;

    expect((await oauth.fetch(world.serverUrl, rpc('tools/list', 2))).status).toBe(200);
    expect(world.requests.length - before).toBe(1);

    world.resourceProofs.nonce = 'rs-nonce-2';
    expect((await oauth.fetch(world.serverUrl, rpc('tools/list', 3))).status).toBe(200);
    const last = world.requests.slice(before + 1);
    expect(last.map((request) => decodeJwt(request.headers.get('dpop')!).nonce)).toEqual(['rs-nonce-1', 'rs-nonce-2']);
    expect(world.requestsTo(`${world.issuer}/authorize`)).toHaveLength(1);
  });

  it('signs htm and htu of the actual request: htu without query and fragment', async () => {
    const world = dpopWorld({ dpop: {} });
    const { oauth } = setup(world, { dpop: true });
    await oauth.fetch(world.serverUrl, rpc('initialize'));
    const url = new URL(world.serverUrl);
    url.search = '?session=abc';
    url.hash = '#part';
    const response = await oauth.fetch(url, rpc('tools/list', 2));
    expect(response.status).toBe(200);
    const proof = decodeJwt(world.requests.at(-1)!.headers.get('dpop')!);
    expect(proof).toMatchObject({ htm: 'POST', htu: 'https://mcp.example.com/mcp' });
  });

  it('refreshes with a proof of the same key (the refresh token is bound too)', async () => {
    const world = dpopWorld({ issueRefreshTokens: true, expiresIn: 30 });
    const prover = await DpopProver.generate();
    const { oauth } = setup(world, { dpop: prover });
    await oauth.fetch(world.serverUrl, rpc('initialize'));
    const first = await oauth.tokens();

    // expires_in 30 s is inside the 60 s refresh skew: the next request refreshes first.
    expect((await oauth.fetch(world.serverUrl, rpc('tools/list', 2))).status).toBe(200);
    const refresh = world.requestsTo(`${world.issuer}/token`).at(-1)!;
    expect(new URLSearchParams(refresh.body).get('grant_type')).toBe('refresh_token');
    expect(refresh.headers.get('dpop')).not.toBeNull();
    const second = await oauth.tokens();
    expect(second?.accessToken).not.toBe(first?.accessToken);
    expect(world.tokens.get(second!.accessToken)?.cnf).toEqual({ jkt: await prover.thumbprint() });
    expect(world.requestsTo(`${world.issuer}/authorize`)).toHaveLength(1);
  });

  it('gives up with ERR_UNAUTHORIZED when the server wants a new nonce again right after the retry', async () => {
    const world = dpopWorld();
    const { oauth } = setup(world, { dpop: true });
    await oauth.fetch(world.serverUrl, rpc('initialize'));
    const authorizations = world.requestsTo(`${world.issuer}/authorize`).length;
    // Every proof now misses the nonce: the server rotates it on each request.
    let rotation = 0;
    const original = world.resourceProofs.check.bind(world.resourceProofs);
    world.resourceProofs.check = (proof, expected) => {
      world.resourceProofs.nonce = `rotating-${++rotation}`;
      return original(proof, expected);
    };
    const error = await oauth.fetch(world.serverUrl, rpc('tools/list', 2)).catch((reason: unknown) => reason);
    expect(findAuthorizationError(error)?.code).toBe('ERR_UNAUTHORIZED');
    expect(rotation).toBe(2);
    // A nonce loop is not a reason to send the user to log in again.
    expect(world.requestsTo(`${world.issuer}/authorize`)).toHaveLength(authorizations);
  });
});

describe('OAuthClient with DPoP: grants and Bearer servers', () => {
  it('passes the prover to a non-interactive grant (GrantContext.dpop)', async () => {
    const world = dpopWorld({ metadata: { token_endpoint_auth_methods_supported: ['client_secret_basic'] } });
    const prover = await DpopProver.generate();
    const { oauth } = setup(world, {
      dpop: prover,
      grant: clientCredentialsGrant(),
      clientCredentials: { clientId: 'bot', clientSecret: 's3cret', issuer: 'https://auth.example.com' },
      redirectUrl: undefined,
      redirectToAuthorization: undefined,
    });
    const response = await oauth.fetch(world.serverUrl, rpc('tools/list'));
    expect(response.status).toBe(200);
    const tokens = await oauth.tokens();
    expect(tokens?.tokenType).toBe('DPoP');
    expect(world.tokens.get(tokens!.accessToken)?.cnf).toEqual({ jkt: await prover.thumbprint() });
  });

  it('keeps working with an authorization server that issues Bearer tokens: Bearer, no proof on MCP requests', async () => {
    const world = new FakeOAuthWorld();
    const { oauth } = setup(world, { dpop: true });
    const response = await oauth.fetch(world.serverUrl, rpc('tools/list'));
    expect(response.status).toBe(200);
    expect((await oauth.tokens())?.tokenType).toBe('Bearer');
    const mcp = world.requestsTo(world.serverUrl.href).at(-1)!;
    expect(mcp.headers.get('authorization')).toMatch(/^Bearer at-/);
    expect(mcp.headers.get('dpop')).toBeNull();
    // The authorization server that ignores DPoP still saw a proof (harmless) and dpop_jkt.
    expect(world.requestsTo(`${world.issuer}/token`)[0]!.headers.get('dpop')).not.toBeNull();
  });

  it('without the option, nothing of DPoP is sent and a DPoP server issues Bearer tokens', async () => {
    const world = dpopWorld();
    const { oauth } = setup(world);
    const response = await oauth.fetch(world.serverUrl, rpc('tools/list'));
    expect(response.status).toBe(200);
    expect(world.requests.some((request) => request.headers.has('dpop'))).toBe(false);
    expect(new URL(world.requestsTo(`${world.issuer}/authorize`)[0]!.url).searchParams.has('dpop_jkt')).toBe(false);
    expect((await oauth.tokens())?.tokenType).toBe('Bearer');
  });

  it('a DPoP server refuses a bound token sent as Bearer (the fake enforces the binding)', async () => {
    const world = dpopWorld();
    const { oauth } = setup(world, { dpop: true });
    await oauth.fetch(world.serverUrl, rpc('initialize'));
    const tokens = await oauth.tokens();
    const stolen = await world.fetch(world.serverUrl, {
      ...rpc('tools/list', 2),
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokens!.accessToken}` },
    });
    expect(stolen.status).toBe(401);
  });
});
