import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, generateKeyPair, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { clientCredentialsGrant } from './client-credentials';
import { accessTokenHash, DpopProver, isDpopNonceChallenge } from './dpop';
import { OAuthError } from './oauth-error';
import { requestToken } from './token-endpoint';

const ISSUER = 'https://as.example.com';
const metadata = { issuer: ISSUER, token_endpoint: `${ISSUER}/token` };

async function verifyProof(proof: string) {
  const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt' });
  return { payload, protectedHeader };
}

describe('DpopProver.proof', () => {
  it('signs typ dpop+jwt with the public JWK only, and htm, htu, iat, jti', async () => {
    const dpop = await DpopProver.generate();
    const proof = await dpop.proof({ method: 'post', url: 'https://user:pw@mcp.example.com:8443/mcp?x=1#frag' });
    const { payload, protectedHeader } = await verifyProof(proof);
    expect(protectedHeader.alg).toBe('ES256');
    expect(Object.keys(protectedHeader.jwk ?? {}).sort()).toEqual(['crv', 'kty', 'x', 'y']);
    expect(payload).toMatchObject({ htm: 'POST', htu: 'https://mcp.example.com:8443/mcp' });
    expect(Math.abs((payload.iat ?? 0) - Date.now() / 1000)).toBeLessThan(5);
    expect(payload.jti).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(payload.ath).toBeUndefined();
    expect(payload.nonce).toBeUndefined();
  });

  it('adds ath for a resource request (RFC 9449 §7.1 example value)', async () => {
    const token = 'Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU';
    expect(await accessTokenHash(token)).toBe('fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo');
    const dpop = await DpopProver.generate();
    const headers = await dpop.resourceHeaders({
      method: 'GET',
      url: 'https://mcp.example.com/mcp',
      accessToken: token,
    });
    expect(headers.Authorization).toBe(`DPoP ${token}`);
    expect((await verifyProof(headers.DPoP ?? '')).payload.ath).toBe('fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo');
  });

  it('uses the last nonce of the same origin only', async () => {
    const dpop = await DpopProver.generate();
    expect(dpop.rememberNonce('https://as.example.com/token', new Response(null))).toBe(false);
    dpop.rememberNonce('https://as.example.com/token', new Response(null, { headers: { 'DPoP-Nonce': 'n-1' } }));
    dpop.rememberNonce('https://as.example.com/other', new Response(null, { headers: { 'DPoP-Nonce': 'n-2' } }));
    const sameOrigin = await verifyProof(await dpop.proof({ method: 'POST', url: 'https://as.example.com/token' }));
    const otherOrigin = await verifyProof(await dpop.proof({ method: 'POST', url: 'https://mcp.example.com/mcp' }));
    expect(sameOrigin.payload.nonce).toBe('n-2');
    expect(otherOrigin.payload.nonce).toBeUndefined();
  });

  it('keeps a bounded number of nonces', async () => {
    const dpop = await DpopProver.generate();
    for (let index = 0; index < 40; index++) {
      dpop.rememberNonce(
        `https://s${index}.example.com`,
        new Response(null, { headers: { 'DPoP-Nonce': `n${index}` } }),
      );
    }
    const first = await verifyProof(await dpop.proof({ method: 'GET', url: 'https://s0.example.com' }));
    const last = await verifyProof(await dpop.proof({ method: 'GET', url: 'https://s39.example.com' }));
    expect(first.payload.nonce).toBeUndefined();
    expect(last.payload.nonce).toBe('n39');
  });

  it('wraps an existing key pair, deriving its algorithm; the thumbprint is RFC 7638 of the public key', async () => {
    const keyPair = await generateKeyPair('RS256');
    const dpop = new DpopProver(keyPair);
    expect(dpop.algorithm).toBe('RS256');
    const proof = await dpop.proof({ method: 'GET', url: 'https://mcp.example.com/' });
    expect(decodeProtectedHeader(proof).alg).toBe('RS256');
    expect(await dpop.thumbprint()).toBe(await calculateJwkThumbprint(keyPair.publicKey));
  });
});

describe('isDpopNonceChallenge', () => {
  const challenge = (header: string, nonce: string | null = 'n', status = 401) =>
    new Response(null, {
      status,
      headers: { 'WWW-Authenticate': header, ...(nonce !== null && { 'DPoP-Nonce': nonce }) },
    });

  it('reads the DPoP challenge, also next to a Bearer one', () => {
    expect(isDpopNonceChallenge(challenge('DPoP error="use_dpop_nonce", error_description="fresh nonce"'))).toBe(true);
    expect(isDpopNonceChallenge(challenge('Bearer realm="mcp", DPoP algs="ES256", error="use_dpop_nonce"'))).toBe(true);
  });

  it('does not take another scheme’s error, a missing nonce header or another status', () => {
    expect(isDpopNonceChallenge(challenge('Bearer error="use_dpop_nonce", DPoP algs="ES256"'))).toBe(false);
    expect(isDpopNonceChallenge(challenge('DPoP error="use_dpop_nonce"', null))).toBe(false);
    expect(isDpopNonceChallenge(challenge('DPoP error="use_dpop_nonce"', 'n', 400))).toBe(false);
    expect(isDpopNonceChallenge(challenge('DPoP error="invalid_token"'))).toBe(false);
  });
});

describe('requestToken with DPoP', () => {
  /** A token endpoint that demands DPoP with nonce `server-nonce`, binding tokens to the proof key. */
  function dpopTokenEndpoint(options: { alwaysNewNonce?: boolean } = {}) {
    const proofs: string[] = [];
    const assertions: string[] = [];
    const fetchFn: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const body = new URLSearchParams(await request.text());
      const proof = request.headers.get('dpop') ?? '';
      proofs.push(proof);
      assertions.push(body.get('client_assertion') ?? '');
      const { payload } = await verifyProof(proof);
      if (payload.htm !== 'POST' || payload.htu !== metadata.token_endpoint) {
        return Response.json({ error: 'invalid_dpop_proof' }, { status: 400 });
      }
      if (options.alwaysNewNonce === true || payload.nonce !== 'server-nonce') {
        return Response.json(
          { error: 'use_dpop_nonce' },
          { status: 400, headers: { 'DPoP-Nonce': options.alwaysNewNonce ? `n-${proofs.length}` : 'server-nonce' } },
        );
      }
      return Response.json({ access_token: 'bound', token_type: 'DPoP' }, { headers: { 'DPoP-Nonce': 'next-nonce' } });
    };
    return { proofs, assertions, fetch: fetchFn };
  }

  it('retries once with the nonce, rebuilding the client assertion, and accepts token_type DPoP', async () => {
    const endpoint = dpopTokenEndpoint();
    const dpop = await DpopProver.generate();
    const { privateKey } = await generateKeyPair('ES256');
    const tokens = await requestToken({
      authorizationServer: { ...metadata, token_endpoint_auth_methods_supported: ['private_key_jwt'] },
      credentials: { clientId: 'c', privateKey },
      grant: { grant_type: 'client_credentials' },
      fetch: endpoint.fetch,
      dpop,
    });
    expect(tokens).toMatchObject({ access_token: 'bound', token_type: 'DPoP' });
    expect(endpoint.proofs).toHaveLength(2);
    expect(endpoint.assertions[0]).not.toBe(endpoint.assertions[1]);
    // The nonce of the success response is kept for the next request to this server.
    expect((await verifyProof(await dpop.proof({ method: 'POST', url: metadata.token_endpoint }))).payload.nonce).toBe(
      'next-nonce',
    );
  });

  it('does not retry a second time: the second use_dpop_nonce is the error', async () => {
    const endpoint = dpopTokenEndpoint({ alwaysNewNonce: true });
    const error = await requestToken({
      authorizationServer: metadata,
      credentials: { clientId: 'c', clientSecret: 's' },
      grant: { grant_type: 'client_credentials' },
      fetch: endpoint.fetch,
      dpop: await DpopProver.generate(),
    }).catch((reason: unknown) => reason);
    expect(OAuthError.is(error) && error.code).toBe('use_dpop_nonce');
    expect(endpoint.proofs).toHaveLength(2);
  });

  it('a grant passes the context’s prover on', async () => {
    const endpoint = dpopTokenEndpoint();
    const tokens = await clientCredentialsGrant().obtain({
      authorizationServer: metadata,
      resource: new URL('https://mcp.example.com/mcp'),
      scope: undefined,
      credentials: { clientId: 'c', clientSecret: 's' },
      fetch: endpoint.fetch,
      dpop: await DpopProver.generate(),
    });
    expect(tokens.token_type).toBe('DPoP');
  });

  it('without DPoP, a DPoP token type is refused', async () => {
    const error = await requestToken({
      authorizationServer: metadata,
      credentials: { clientId: 'c', clientSecret: 's' },
      grant: { grant_type: 'client_credentials' },
      fetch: async () => Response.json({ access_token: 'bound', token_type: 'DPoP' }),
    }).catch((reason: unknown) => reason);
    expect(OAuthError.is(error) && error.code).toBe('ERR_INVALID_TOKEN_RESPONSE');
  });
});
