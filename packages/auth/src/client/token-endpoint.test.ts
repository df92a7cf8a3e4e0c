import { decodeProtectedHeader, exportJWK, exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { JWT_BEARER_CLIENT_ASSERTION_TYPE } from './client-assertion';
import { OAuthError } from './oauth-error';
import { basicAuthorization, requestToken, selectTokenEndpointAuthMethod } from './token-endpoint';
import type { AuthorizationServerMetadata, ClientCredentials } from './types';

const ISSUER = 'https://as.example.com';
const metadata: AuthorizationServerMetadata = { issuer: ISSUER, token_endpoint: `${ISSUER}/oauth/token` };
const SECRET = 'top-secret-value';
const OK_BODY = { access_token: 'at-1', token_type: 'Bearer', expires_in: 3600, refresh_token: 'rt-1' };

interface Seen {
  url: string;
  method: string;
  headers: Headers;
  body: URLSearchParams;
}

/** A token endpoint in a function: records each request and answers with `respond`. */
function fakeTokenEndpoint(respond: () => Response = () => Response.json(OK_BODY)) {
  const seen: Seen[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    seen.push({
      url: request.url,
      method: request.method,
      headers: request.headers,
      body: new URLSearchParams(await request.text()),
    });
    return respond();
  };
  return { seen, fetch: fetchFn };
}

async function rejection(promise: Promise<unknown>): Promise<OAuthError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!OAuthError.is(error)) throw new Error(`expected an OAuthError, got ${String(error)}`);
  return error;
}

const grant = { grant_type: 'authorization_code', code: 'c-1', code_verifier: 'v-1' };

describe('requestToken: client authentication on the wire', () => {
  it('client_secret_basic: Authorization header, grant parameters only in the body', async () => {
    const endpoint = fakeTokenEndpoint();
    const tokens = await requestToken({
      authorizationServer: metadata,
      credentials: { clientId: 'client-1', clientSecret: SECRET },
      grant,
      fetch: endpoint.fetch,
    });
    expect(tokens).toEqual(OK_BODY);
    const [seen] = endpoint.seen;
    expect(seen?.url).toBe(metadata.token_endpoint);
    expect(seen?.method).toBe('POST');
    expect(seen?.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(seen?.headers.get('accept')).toBe('application/json');
    expect(seen?.headers.get('authorization')).toBe(`Basic ${btoa(`client-1:${SECRET}`)}`);
    expect([...(seen?.body ?? [])]).toEqual(Object.entries(grant));
  });

  it('client_secret_post: id and secret in the body, no Authorization header', async () => {
    const endpoint = fakeTokenEndpoint();
    await requestToken({
      authorizationServer: { ...metadata, token_endpoint_auth_methods_supported: ['client_secret_post'] },
      credentials: { clientId: 'client-1', clientSecret: SECRET },
      grant,
      fetch: endpoint.fetch,
    });
    const [seen] = endpoint.seen;
    expect(seen?.headers.has('authorization')).toBe(false);
    expect(Object.fromEntries(seen?.body ?? [])).toEqual({ ...grant, client_id: 'client-1', client_secret: SECRET });
  });

  it('none: only client_id in the body', async () => {
    const endpoint = fakeTokenEndpoint();
    await requestToken({
      authorizationServer: { ...metadata, token_endpoint_auth_methods_supported: ['none'] },
      credentials: { clientId: 'public-client' },
      grant,
      fetch: endpoint.fetch,
    });
    const [seen] = endpoint.seen;
    expect(seen?.headers.has('authorization')).toBe(false);
    expect(Object.fromEntries(seen?.body ?? [])).toEqual({ ...grant, client_id: 'public-client' });
  });

  it('private_key_jwt: a signed assertion whose claims verify against the public key', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const endpoint = fakeTokenEndpoint();
    const before = Math.floor(Date.now() / 1000);
    await requestToken({
      authorizationServer: { ...metadata, token_endpoint_auth_methods_supported: ['private_key_jwt'] },
      credentials: { clientId: 'jwt-client', privateKey, keyId: 'key-7' },
      grant: { grant_type: 'client_credentials' },
      fetch: endpoint.fetch,
    });
    const body = endpoint.seen[0]?.body;
    expect(endpoint.seen[0]?.headers.has('authorization')).toBe(false);
    expect(body?.get('client_assertion_type')).toBe(JWT_BEARER_CLIENT_ASSERTION_TYPE);
    expect(body?.has('client_secret')).toBe(false);
    const assertion = body?.get('client_assertion') ?? '';
    const { payload, protectedHeader } = await jwtVerify(assertion, publicKey, {
      issuer: 'jwt-client',
      subject: 'jwt-client',
      audience: ISSUER,
    });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', kid: 'key-7', typ: 'JWT' });
    expect(payload.iat).toBeGreaterThanOrEqual(before);
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(60);
    expect(payload.jti).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('private_key_jwt: a fresh jti on every request', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const endpoint = fakeTokenEndpoint();
    const request = {
      authorizationServer: { ...metadata, token_endpoint_auth_methods_supported: ['private_key_jwt'] },
      credentials: { clientId: 'jwt-client', privateKey },
      grant: { grant_type: 'client_credentials' },
      fetch: endpoint.fetch,
    };
    await requestToken(request);
    await requestToken(request);
    const jtis = endpoint.seen.map((seen) => {
      const [, payload] = (seen.body.get('client_assertion') ?? '').split('.');
      return JSON.parse(atob((payload ?? '').replace(/-/g, '+').replace(/_/g, '/'))).jti;
    });
    expect(jtis[0]).not.toBe(jtis[1]);
  });

  it('passes extra headers through and lets the grant carry its own parameters', async () => {
    const endpoint = fakeTokenEndpoint();
    await requestToken({
      authorizationServer: metadata,
      credentials: { clientId: 'client-1', clientSecret: SECRET },
      grant: { grant_type: 'refresh_token', refresh_token: 'rt', resource: 'https://mcp.example.com/mcp' },
      fetch: endpoint.fetch,
      headers: { DPoP: 'proof' },
    });
    expect(endpoint.seen[0]?.headers.get('dpop')).toBe('proof');
    expect(endpoint.seen[0]?.body.get('resource')).toBe('https://mcp.example.com/mcp');
  });
});

describe('basicAuthorization (RFC 6749 §2.3.1)', () => {
  it('form-urlencodes id and secret before base64', () => {
    const header = basicAuthorization('my client', 'p@ss:word');
    expect(header).toBe(`Basic ${btoa('my%20client:p%40ss%3Aword')}`);
  });

  it('escapes every reserved character, including those encodeURIComponent keeps', () => {
    const secret = "a+b/c=d!e'f(g)h*i~j%k é";
    const decoded = atob(basicAuthorization('id', secret).slice('Basic '.length));
    expect(decoded).toBe('id:a%2Bb%2Fc%3Dd%21e%27f%28g%29h%2Ai~j%25k%20%C3%A9');
    // Both decoders servers use give the secret back.
    const encodedSecret = decoded.slice(decoded.indexOf(':') + 1);
    expect(decodeURIComponent(encodedSecret)).toBe(secret);
    expect(new URLSearchParams(`s=${encodedSecret}`).get('s')).toBe(secret);
  });

  it('leaves plain ASCII ids unchanged', () => {
    expect(basicAuthorization('conformance-test-client', 'conformance-test-secret')).toBe(
      `Basic ${btoa('conformance-test-client:conformance-test-secret')}`,
    );
  });
});

describe('selectTokenEndpointAuthMethod', () => {
  const withMethods = (methods?: string[]) => ({ ...metadata, token_endpoint_auth_methods_supported: methods });
  const cases: Array<[string, ClientCredentials, string[] | undefined, string]> = [
    [
      'secret, list absent: basic (RFC 8414 default)',
      { clientId: 'c', clientSecret: 's' },
      undefined,
      'client_secret_basic',
    ],
    [
      'secret, basic and post: basic',
      { clientId: 'c', clientSecret: 's' },
      ['client_secret_post', 'client_secret_basic'],
      'client_secret_basic',
    ],
    ['secret, post only: post', { clientId: 'c', clientSecret: 's' }, ['client_secret_post'], 'client_secret_post'],
    ['secret, none only: none', { clientId: 'c', clientSecret: 's' }, ['none'], 'none'],
    [
      'key: private_key_jwt',
      { clientId: 'c', privateKey: 'pem' },
      ['client_secret_basic', 'private_key_jwt'],
      'private_key_jwt',
    ],
    ['no secret, no key: none', { clientId: 'c' }, ['client_secret_basic'], 'none'],
    [
      'configured method wins',
      { clientId: 'c', clientSecret: 's', authMethod: 'client_secret_post' },
      ['client_secret_basic'],
      'client_secret_post',
    ],
  ];
  for (const [name, credentials, methods, expected] of cases) {
    it(name, () => {
      expect(selectTokenEndpointAuthMethod(credentials, withMethods(methods))).toBe(expected);
    });
  }

  it('refuses credentials that fit none of the supported methods', () => {
    let error: unknown;
    try {
      selectTokenEndpointAuthMethod({ clientId: 'c', clientSecret: 's' }, withMethods(['private_key_jwt']));
    } catch (caught) {
      error = caught;
    }
    expect(OAuthError.is(error) && error.code).toBe('ERR_CLIENT_AUTHENTICATION');
    expect(JSON.stringify((error as OAuthError).data)).not.toContain('"s"');
  });
});

describe('requestToken: refusing to send', () => {
  it('a configured method whose secret is missing fails before any request', async () => {
    const endpoint = fakeTokenEndpoint();
    const error = await rejection(
      requestToken({
        authorizationServer: metadata,
        credentials: { clientId: 'c', authMethod: 'client_secret_basic' },
        grant,
        fetch: endpoint.fetch,
      }),
    );
    expect(error.code).toBe('ERR_CLIENT_AUTHENTICATION');
    expect(error.data).toMatchObject({ missing: 'clientSecret' });
    expect(endpoint.seen).toHaveLength(0);
  });

  it('credentials of another issuer are never sent', async () => {
    const endpoint = fakeTokenEndpoint();
    const error = await rejection(
      requestToken({
        authorizationServer: metadata,
        credentials: { clientId: 'c', clientSecret: SECRET, issuer: 'https://other.example.com' },
        grant,
        fetch: endpoint.fetch,
      }),
    );
    expect(error.code).toBe('ERR_CLIENT_AUTHENTICATION');
    expect(endpoint.seen).toHaveLength(0);
  });
});

describe('requestToken: responses', () => {
  const credentials = { clientId: 'client-1', clientSecret: SECRET };
  const send = (respond: () => Response, tokenTypes?: string[]) =>
    requestToken({
      authorizationServer: metadata,
      credentials,
      grant,
      fetch: fakeTokenEndpoint(respond).fetch,
      tokenTypes,
    });

  it('an RFC 6749 error body becomes an OAuthError with the server code, description, uri and status', async () => {
    const error = await rejection(
      send(() =>
        Response.json(
          { error: 'invalid_grant', error_description: 'refresh token revoked', error_uri: 'https://as/doc' },
          { status: 400 },
        ),
      ),
    );
    expect(error).toMatchObject({
      code: 'invalid_grant',
      source: 'authorization-server',
      description: 'refresh token revoked',
      uri: 'https://as/doc',
      status: 400,
    });
    expect(error.message).toContain('authorize again');
    expect(error.data).toMatchObject({ tokenEndpoint: metadata.token_endpoint, grantType: 'authorization_code' });
    expect(`${error.message}${JSON.stringify(error.data)}`).not.toContain(SECRET);
  });

  it('an error body with status 200 is still an error', async () => {
    const error = await rejection(send(() => Response.json({ error: 'invalid_client' })));
    expect(error).toMatchObject({ code: 'invalid_client', status: 200, source: 'authorization-server' });
  });

  it('a non-JSON error response is ERR_TOKEN_ENDPOINT_HTTP with a bounded snippet of the body', async () => {
    const page = `<html>${'x'.repeat(500)}</html>`;
    const error = await rejection(
      send(() => new Response(page, { status: 502, headers: { 'content-type': 'text/html' } })),
    );
    expect(error).toMatchObject({ code: 'ERR_TOKEN_ENDPOINT_HTTP', status: 502, source: 'client' });
    expect(error.data.contentType).toBe('text/html');
    expect(String(error.data.body).length).toBeLessThanOrEqual(201);
  });

  it('a 200 that is not JSON is ERR_INVALID_TOKEN_RESPONSE', async () => {
    const error = await rejection(send(() => new Response('access_token=at&token_type=bearer')));
    expect(error.code).toBe('ERR_INVALID_TOKEN_RESPONSE');
  });

  it('a response without access_token is refused, naming the fields but not their values', async () => {
    const error = await rejection(send(() => Response.json({ token_type: 'Bearer', refresh_token: 'rt-secret' })));
    expect(error.code).toBe('ERR_INVALID_TOKEN_RESPONSE');
    expect(error.message).toContain('access_token');
    expect(error.data.fields).toEqual(['token_type', 'refresh_token']);
    expect(JSON.stringify(error.data)).not.toContain('rt-secret');
  });

  it('token_type is compared case-insensitively; another type is refused', async () => {
    await expect(send(() => Response.json({ access_token: 'a', token_type: 'bearer' }))).resolves.toMatchObject({
      access_token: 'a',
    });
    const error = await rejection(send(() => Response.json({ access_token: 'a', token_type: 'mac' })));
    expect(error.code).toBe('ERR_INVALID_TOKEN_RESPONSE');
    expect(error.data.tokenType).toBe('mac');
    expect((await rejection(send(() => Response.json({ access_token: 'a' })))).message).toContain('token_type');
  });

  it('accepts the token types the caller names (N_A for a token exchange)', async () => {
    const tokens = await send(() => Response.json({ access_token: 'jag', token_type: 'N_A' }), ['N_A']);
    expect(tokens.token_type).toBe('N_A');
  });

  it('expires_in sent as a numeric string becomes a number; garbage is refused', async () => {
    const tokens = await send(() => Response.json({ access_token: 'a', token_type: 'Bearer', expires_in: '120' }));
    expect(tokens.expires_in).toBe(120);
    const error = await rejection(
      send(() => Response.json({ access_token: 'a', token_type: 'Bearer', expires_in: 'soon' })),
    );
    expect(error.code).toBe('ERR_INVALID_TOKEN_RESPONSE');
  });

  it('a network failure is ERR_TOKEN_ENDPOINT_UNREACHABLE with the cause', async () => {
    const cause = new TypeError('fetch failed');
    const error = await rejection(
      requestToken({
        authorizationServer: metadata,
        credentials,
        grant,
        fetch: async () => {
          throw cause;
        },
      }),
    );
    expect(error.code).toBe('ERR_TOKEN_ENDPOINT_UNREACHABLE');
    expect(error.cause).toBe(cause);
  });

  it('an aborted request rejects with the abort reason, not a wrapped error', async () => {
    const controller = new AbortController();
    controller.abort(new DOMException('stop', 'AbortError'));
    const fetchFn: typeof fetch = async (_input, init) => {
      init?.signal?.throwIfAborted();
      return Response.json(OK_BODY);
    };
    const error = await requestToken({
      authorizationServer: metadata,
      credentials,
      grant,
      fetch: fetchFn,
      signal: controller.signal,
    }).catch((reason: unknown) => reason);
    expect(OAuthError.is(error)).toBe(false);
    expect((error as DOMException).name).toBe('AbortError');
  });
});

describe('private_key_jwt key forms', () => {
  const asMetadata = (algs?: string[]) => ({
    ...metadata,
    token_endpoint_auth_methods_supported: ['private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: algs,
  });
  async function assertionFor(credentials: ClientCredentials, algs?: string[]): Promise<string> {
    const endpoint = fakeTokenEndpoint();
    await requestToken({
      authorizationServer: asMetadata(algs),
      credentials,
      grant: { grant_type: 'client_credentials' },
      fetch: endpoint.fetch,
    });
    return endpoint.seen[0]?.body.get('client_assertion') ?? '';
  }

  it('a private JWK', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES384', { extractable: true });
    const jwk = await exportJWK(privateKey);
    const assertion = await assertionFor({ clientId: 'c', privateKey: jwk });
    expect(decodeProtectedHeader(assertion).alg).toBe('ES384');
    await expect(jwtVerify(assertion, publicKey, { audience: ISSUER })).resolves.toBeDefined();
  });

  it('a PEM PKCS#8 key with the algorithm the server advertises', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const pem = await exportPKCS8(privateKey);
    const assertion = await assertionFor({ clientId: 'c', privateKey: pem }, ['ES256']);
    expect(decodeProtectedHeader(assertion).alg).toBe('ES256');
    await expect(jwtVerify(assertion, publicKey, { audience: ISSUER, issuer: 'c' })).resolves.toBeDefined();
  });

  it('a PEM key with no algorithm anywhere: found by trying the common ones', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const assertion = await assertionFor({ clientId: 'c', privateKey: await exportPKCS8(privateKey) });
    expect(decodeProtectedHeader(assertion).alg).toBe('ES256');
    await expect(jwtVerify(assertion, publicKey, { audience: ISSUER })).resolves.toBeDefined();
  });

  it('an RSA CryptoKey signs RS256 unless signingAlgorithm says otherwise', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const assertion = await assertionFor({ clientId: 'c', privateKey });
    expect(decodeProtectedHeader(assertion).alg).toBe('RS256');
    await expect(jwtVerify(assertion, publicKey, { audience: ISSUER })).resolves.toBeDefined();
  });

  it('a public JWK is refused with ERR_CLIENT_ASSERTION', async () => {
    const { publicKey } = await generateKeyPair('ES256', { extractable: true });
    const error = await rejection(assertionFor({ clientId: 'c', privateKey: await exportJWK(publicKey) }));
    expect(error.code).toBe('ERR_CLIENT_ASSERTION');
  });

  it('a PEM that is not PKCS#8 is refused, naming its label', async () => {
    const error = await rejection(
      assertionFor({
        clientId: 'c',
        privateKey: '-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----',
      }),
    );
    expect(error.code).toBe('ERR_CLIENT_ASSERTION');
    expect(error.data.pemLabel).toBe('RSA PRIVATE KEY');
  });
});
