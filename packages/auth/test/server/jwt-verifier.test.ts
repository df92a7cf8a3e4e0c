import { createLocalJWKSet, type JWTVerifyGetKey } from 'jose';
import { describe, expect, it } from 'vitest';
import { AuthConfigError, createJwtVerifier } from '../../src/server/index';
import { b64url, createTestIssuer, ISSUER, RESOURCE } from './fixtures/issuer';
import { refusal } from './fixtures/refusal';

const context = { resource: RESOURCE };

describe('createJwtVerifier', async () => {
  const issuer = await createTestIssuer();
  const verifier = createJwtVerifier({ issuer: ISSUER, keySet: issuer.jwks });
  const now = () => Math.floor(Date.now() / 1000);

  it('accepts a good token and maps its claims into AuthInfo', async () => {
    const token = await issuer.mint({ scope: 'mcp:tools files:read' });
    const auth = await verifier.verify(token, context);
    expect(auth).toMatchObject({
      token,
      subject: 'alice',
      clientId: 'app',
      scopes: ['mcp:tools', 'files:read'],
    });
    expect(auth.expiresAt).toBeGreaterThan(now());
    expect(auth.extra).toMatchObject({ claims: { iss: ISSUER } });
  });

  it('reads scp arrays and azp when scope and client_id are absent', async () => {
    const token = await issuer.mint({ client_id: undefined, azp: 'spa', scp: ['a', 'b'] });
    expect(await verifier.verify(token, context)).toMatchObject({ clientId: 'spa', scopes: ['a', 'b'] });
  });

  it('accepts an audience list that contains this resource', async () => {
    const token = await issuer.mint({ aud: ['https://other.example', RESOURCE] });
    expect((await verifier.verify(token, context)).subject).toBe('alice');
  });

  it('refuses an expired token (beyond the clock tolerance) as invalid_token', async () => {
    const error = await refusal(verifier.verify(await issuer.mint({ exp: now() - 60 }), context));
    expect(error.code).toBe('invalid_token');
    expect(error.data.reason).toBe('expired');
  });

  it('tolerates a few seconds of clock skew on exp', async () => {
    const token = await issuer.mint({ exp: now() - 2 });
    expect((await verifier.verify(token, context)).subject).toBe('alice');
  });

  it('refuses a token that is not valid yet (nbf)', async () => {
    const error = await refusal(verifier.verify(await issuer.mint({ nbf: now() + 120 }), context));
    expect(error).toMatchObject({ code: 'invalid_token', data: { reason: 'not_yet_valid', claim: 'nbf' } });
  });

  it('refuses a token for another audience (RFC 8707) as invalid_token', async () => {
    const token = await issuer.mint({ aud: 'https://other.example/mcp' });
    const error = await refusal(verifier.verify(token, context));
    expect(error).toMatchObject({ code: 'invalid_token', data: { reason: 'audience', claim: 'aud' } });
    // The same token is fine for the resource it was minted for.
    expect(await verifier.verify(token, { resource: 'https://other.example/mcp' })).toBeDefined();
  });

  it('refuses a token without aud', async () => {
    const error = await refusal(verifier.verify(await issuer.mint({ aud: undefined }), context));
    expect(error).toMatchObject({ code: 'invalid_token', data: { reason: 'missing_claim', claim: 'aud' } });
  });

  it('refuses a token from another issuer', async () => {
    const error = await refusal(verifier.verify(await issuer.mint({ iss: 'https://evil.example' }), context));
    expect(error).toMatchObject({ code: 'invalid_token', data: { reason: 'issuer', claim: 'iss' } });
  });

  it('refuses a token without exp unless requireExpiry is false', async () => {
    const token = await issuer.mint({ exp: undefined });
    const error = await refusal(verifier.verify(token, context));
    expect(error).toMatchObject({ code: 'invalid_token', data: { reason: 'missing_claim', claim: 'exp' } });
    const lenient = createJwtVerifier({ issuer: ISSUER, keySet: issuer.jwks, requireExpiry: false });
    expect((await lenient.verify(token, context)).expiresAt).toBeUndefined();
  });

  it('refuses a bad signature: a token signed by another key with the same kid', async () => {
    const impostor = await createTestIssuer('key-1');
    const error = await refusal(verifier.verify(await impostor.mint(), context));
    expect(error).toMatchObject({ code: 'invalid_token', data: { reason: 'signature' } });
  });

  it('refuses a token whose payload was altered after signing', async () => {
    const [header, , signature] = (await issuer.mint({ scope: 'read' })).split('.');
    const forged = `${header}.${b64url(JSON.stringify({ iss: ISSUER, aud: RESOURCE, sub: 'root', scope: 'admin', exp: now() + 60 }))}.${signature}`;
    expect((await refusal(verifier.verify(forged, context))).code).toBe('invalid_token');
  });

  it('refuses alg "none" (an unsigned token)', async () => {
    const unsigned = `${b64url(JSON.stringify({ alg: 'none', kid: 'key-1' }))}.${b64url(
      JSON.stringify({ iss: ISSUER, aud: RESOURCE, sub: 'alice', exp: now() + 60 }),
    )}.`;
    const error = await refusal(verifier.verify(unsigned, context));
    expect(error.code).toBe('invalid_token');
    expect(['algorithm', 'malformed']).toContain(error.data.reason);
  });

  it('refuses an algorithm outside the allow-list', async () => {
    const strict = createJwtVerifier({ issuer: ISSUER, keySet: issuer.jwks, algorithms: ['RS256'] });
    const error = await refusal(strict.verify(await issuer.mint(), context));
    expect(error).toMatchObject({ code: 'invalid_token', data: { reason: 'algorithm' } });
  });

  it('refuses an unknown kid and garbage', async () => {
    expect((await refusal(verifier.verify(await issuer.mint({}, { kid: 'other' }), context))).data.reason).toBe(
      'unknown_key',
    );
    expect((await refusal(verifier.verify('not-a-jwt', context))).data.reason).toBe('malformed');
  });

  it('checks typ when asked (RFC 9068 at+jwt)', async () => {
    const typed = createJwtVerifier({ issuer: ISSUER, keySet: issuer.jwks, typ: 'at+jwt' });
    expect((await typed.verify(await issuer.mint({}, { typ: 'at+jwt' }), context)).subject).toBe('alice');
    expect((await refusal(typed.verify(await issuer.mint(), context))).code).toBe('invalid_token');
  });

  it('uses a fixed audience over the request resource when given', async () => {
    const fixed = createJwtVerifier({ issuer: ISSUER, keySet: issuer.jwks, audience: 'api://mcp' });
    expect((await fixed.verify(await issuer.mint({ aud: 'api://mcp' }), context)).subject).toBe('alice');
    expect((await refusal(fixed.verify(await issuer.mint(), context))).data.reason).toBe('audience');
  });

  it('fetches keys from a JWKS URL, and says verifier_unavailable (not invalid_token) when it cannot', async () => {
    const { createServer } = await import('node:http');
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(issuer.jwks));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const remote = createJwtVerifier({ issuer: ISSUER, jwksUrl: `http://127.0.0.1:${port}/jwks` });
      expect((await remote.verify(await issuer.mint(), context)).subject).toBe('alice');
      expect((await remote.verify(await issuer.mint(), context)).subject).toBe('alice');
      expect(hits).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const down = createJwtVerifier({ issuer: ISSUER, jwksUrl: `http://127.0.0.1:${port}/jwks`, jwksTimeoutMs: 500 });
    const error = await refusal(down.verify(await issuer.mint(), context));
    expect(error.code).toBe('verifier_unavailable');
  });

  it('caches accepted tokens (per resource) and checks the signature again only when it must', async () => {
    let lookups = 0;
    const local = createLocalJWKSet(issuer.jwks);
    const getKey: JWTVerifyGetKey = (header, token) => {
      lookups++;
      return local(header, token);
    };
    const cached = createJwtVerifier({ issuer: ISSUER, getKey });
    const token = await issuer.mint({ scope: 'a' });
    const first = await cached.verify(token, context);
    const second = await cached.verify(token, context);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(lookups).toBe(1);
    // Another resource is another question: the audience check runs again (and fails).
    expect((await refusal(cached.verify(token, { resource: 'https://other.example/mcp' }))).data.reason).toBe(
      'audience',
    );
    expect(lookups).toBe(2);
    // Refusals are not remembered as acceptances, and an uncached verifier checks every time.
    const uncached = createJwtVerifier({ issuer: ISSUER, getKey, cache: false });
    await uncached.verify(token, context);
    await uncached.verify(token, context);
    expect(lookups).toBe(4);
  });

  it('fails at setup without a key source or issuer', () => {
    expect(() => createJwtVerifier({ issuer: ISSUER } as never)).toThrow(AuthConfigError);
    expect(() => createJwtVerifier({ keySet: issuer.jwks } as never)).toThrow(/issuer/);
    expect(() => createJwtVerifier({ issuer: ISSUER, jwksUrl: 'jwks.json' })).toThrow(/absolute URL/);
  });
});
