import { decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { createClientAssertion } from './client-assertion';
import { OAuthError } from './oauth-error';

async function failure(promise: Promise<unknown>): Promise<OAuthError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!OAuthError.is(error)) throw new Error(`expected an OAuthError, got ${String(error)}`);
  return error;
}

describe('createClientAssertion', () => {
  it('signs iss = sub = client id, aud, iat, exp after the lifetime, a random jti', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const assertion = await createClientAssertion({
      clientId: 'client-9',
      audience: 'https://as.example.com',
      privateKey,
      lifetimeSeconds: 30,
    });
    const { payload } = await jwtVerify(assertion, publicKey, {
      issuer: 'client-9',
      subject: 'client-9',
      audience: 'https://as.example.com',
    });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(30);
    expect(Math.abs((payload.iat ?? 0) - Date.now() / 1000)).toBeLessThan(5);
    expect(typeof payload.jti).toBe('string');
  });

  it('an explicit algorithm overrides the one the key implies', async () => {
    const { publicKey, privateKey } = await generateKeyPair('PS256', { extractable: true });
    const jwk = await exportJWK(privateKey);
    delete jwk.alg;
    const assertion = await createClientAssertion({
      clientId: 'c',
      audience: 'a',
      privateKey: jwk,
      algorithm: 'PS256',
    });
    expect(decodeProtectedHeader(assertion).alg).toBe('PS256');
    await expect(jwtVerify(assertion, publicKey)).resolves.toBeDefined();
  });

  it('reuses the import of the same JWK object, and still honours another explicit algorithm', async () => {
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk = await exportJWK(privateKey);
    const first = await createClientAssertion({ clientId: 'c', audience: 'a', privateKey: jwk });
    const second = await createClientAssertion({ clientId: 'c', audience: 'a', privateKey: jwk, algorithm: 'RS384' });
    expect(decodeProtectedHeader(first).alg).toBe('RS256');
    expect(decodeProtectedHeader(second).alg).toBe('RS384');
  });

  it('an Ed25519 key signs EdDSA', async () => {
    const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const assertion = await createClientAssertion({ clientId: 'c', audience: 'a', privateKey });
    expect(decodeProtectedHeader(assertion).alg).toBe('EdDSA');
    await expect(jwtVerify(assertion, publicKey)).resolves.toBeDefined();
  });

  it('a symmetric CryptoKey has no algorithm to derive: ERR_CLIENT_ASSERTION', async () => {
    const hmac = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    const error = await failure(createClientAssertion({ clientId: 'c', audience: 'a', privateKey: hmac }));
    expect(error.code).toBe('ERR_CLIENT_ASSERTION');
    expect(error.data.keyAlgorithm).toBe('HMAC');
  });

  it('a key that does not fit the explicit algorithm: ERR_CLIENT_ASSERTION with the cause', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const error = await failure(
      createClientAssertion({ clientId: 'c', audience: 'a', privateKey, algorithm: 'RS256' }),
    );
    expect(error.code).toBe('ERR_CLIENT_ASSERTION');
    expect(error.cause).toBeDefined();
  });

  it('a PEM that no algorithm can import names what was tried', async () => {
    const pem = '-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----';
    const error = await failure(createClientAssertion({ clientId: 'c', audience: 'a', privateKey: pem }));
    expect(error.code).toBe('ERR_CLIENT_ASSERTION');
    expect(error.data.triedAlgorithms).toContain('ES256');
    expect(error.message).not.toContain('bm90IGEga2V5');
  });
});

describe('OAuthError', () => {
  it('is recognised by its brand, not by instanceof', () => {
    const error = new OAuthError('invalid_grant', 'm', { source: 'authorization-server', status: 400 });
    const lookalike = Object.assign(Object.create(null), { [Symbol.for('@mcpkit/client/OAuthError')]: true });
    expect(OAuthError.is(error)).toBe(true);
    expect(OAuthError.is(lookalike)).toBe(true);
    expect(OAuthError.is(new Error('x'))).toBe(false);
    expect(error).toMatchObject({ name: 'OAuthError', code: 'invalid_grant', status: 400, data: {} });
  });
});
