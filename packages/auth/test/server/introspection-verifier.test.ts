import { describe, expect, it } from 'vitest';
import { createIntrospectionVerifier, type IntrospectionVerifierOptions } from '../../src/server/index';
import { RESOURCE } from './fixtures/issuer';
import { refusal } from './fixtures/refusal';

const ENDPOINT = 'https://auth.example.test/introspect';
const context = { resource: RESOURCE };
const now = () => Math.floor(Date.now() / 1000);

/** A fake introspection endpoint: answers from `tokens`, records every call. */
function fakeEndpoint(tokens: Record<string, Record<string, unknown>>, status = 200) {
  const calls: { authorization: string | null; form: URLSearchParams }[] = [];
  const fetch = (async (_url: URL, init: RequestInit) => {
    const form = new URLSearchParams(init.body as URLSearchParams);
    calls.push({ authorization: new Headers(init.headers).get('authorization'), form });
    if (status !== 200) return new Response('nope', { status });
    const answer = tokens[form.get('token') ?? ''] ?? { active: false };
    return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

function verifierWith(
  tokens: Record<string, Record<string, unknown>>,
  options: Partial<IntrospectionVerifierOptions> = {},
  status = 200,
) {
  const endpoint = fakeEndpoint(tokens, status);
  const verifier = createIntrospectionVerifier({
    endpoint: ENDPOINT,
    clientAuth: { method: 'client_secret_basic', clientId: 'mcp server', clientSecret: 's3cr:t' },
    fetch: endpoint.fetch,
    ...options,
  });
  return { verifier, calls: endpoint.calls };
}

describe('createIntrospectionVerifier', () => {
  const active = {
    active: true,
    aud: RESOURCE,
    sub: 'alice',
    client_id: 'app',
    scope: 'mcp:tools files:read',
    exp: now() + 300,
  };

  it('maps an active answer into AuthInfo and authenticates with client_secret_basic (form-encoded)', async () => {
    const { verifier, calls } = verifierWith({ good: active });
    expect(await verifier.verify('good', context)).toMatchObject({
      token: 'good',
      subject: 'alice',
      clientId: 'app',
      scopes: ['mcp:tools', 'files:read'],
      expiresAt: active.exp,
    });
    expect(calls[0]!.form.get('token_type_hint')).toBe('access_token');
    expect(atob(calls[0]!.authorization!.slice('Basic '.length))).toBe('mcp+server:s3cr%3At');
  });

  it('sends client_secret_post credentials in the form', async () => {
    const { verifier, calls } = verifierWith(
      { good: active },
      { clientAuth: { method: 'client_secret_post', clientId: 'srv', clientSecret: 'x' } },
    );
    await verifier.verify('good', context);
    expect(calls[0]!.authorization).toBeNull();
    expect(calls[0]!.form.get('client_id')).toBe('srv');
    expect(calls[0]!.form.get('client_secret')).toBe('x');
  });

  it('refuses an inactive token as invalid_token and does not cache the refusal', async () => {
    const tokens: Record<string, Record<string, unknown>> = {};
    const { verifier, calls } = verifierWith(tokens);
    expect(await refusal(verifier.verify('later', context))).toMatchObject({
      code: 'invalid_token',
      data: { reason: 'inactive' },
    });
    tokens.later = active;
    expect((await verifier.verify('later', context)).subject).toBe('alice');
    expect(calls).toHaveLength(2);
  });

  it('refuses the wrong audience, a missing audience, and an expired answer', async () => {
    const { verifier } = verifierWith({
      other: { ...active, aud: 'https://other.example/mcp' },
      none: { ...active, aud: undefined },
      old: { ...active, exp: now() - 60 },
      early: { ...active, nbf: now() + 600 },
    });
    expect((await refusal(verifier.verify('other', context))).data.reason).toBe('audience');
    expect((await refusal(verifier.verify('none', context))).data.reason).toBe('audience');
    expect((await refusal(verifier.verify('old', context))).data.reason).toBe('expired');
    expect((await refusal(verifier.verify('early', context))).data.reason).toBe('not_yet_valid');
  });

  it('accepts a missing audience only when audience is false, and checks iss when asked', async () => {
    const { verifier } = verifierWith(
      { none: { ...active, aud: undefined, iss: 'https://evil.example' } },
      { audience: false },
    );
    expect((await verifier.verify('none', context)).subject).toBe('alice');
    const strict = verifierWith(
      { none: { ...active, iss: 'https://evil.example' } },
      { issuer: 'https://auth.example.test' },
    );
    expect((await refusal(strict.verifier.verify('none', context))).data.reason).toBe('issuer');
  });

  it('caches active answers: one call for repeated and concurrent verifications of a token', async () => {
    const { verifier, calls } = verifierWith({ good: active, other: { ...active, sub: 'bob' } });
    const results = await Promise.all([1, 2, 3].map(() => verifier.verify('good', context)));
    expect(results.map((auth) => auth.subject)).toEqual(['alice', 'alice', 'alice']);
    await verifier.verify('good', context);
    expect((await verifier.verify('other', context)).subject).toBe('bob');
    expect(calls).toHaveLength(2);
  });

  it('keeps a cached answer no longer than the token lives', async () => {
    const exp = now() + 2;
    const { verifier, calls } = verifierWith({ brief: { ...active, exp } }, { clockToleranceSeconds: 0 });
    await verifier.verify('brief', context);
    await verifier.verify('brief', context);
    expect(calls).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, exp * 1000 - Date.now() + 50));
    // Past its exp the cache forgets it and the endpoint is asked again (which now says expired).
    expect((await refusal(verifier.verify('brief', context))).data.reason).toBe('expired');
    expect(calls).toHaveLength(2);
  });

  it('bounds the cache in entries (oldest out) and can be turned off', async () => {
    const tokens = { a: active, b: active, c: active };
    const small = verifierWith(tokens, { cache: { maxEntries: 2 } });
    for (const token of ['a', 'b', 'c', 'c', 'b', 'a']) await small.verifier.verify(token, context);
    // a, b, c miss; c, b hit; a was evicted when c came in.
    expect(small.calls.map((call) => call.form.get('token'))).toEqual(['a', 'b', 'c', 'a']);
    const off = verifierWith(tokens, { cache: false });
    await off.verifier.verify('a', context);
    await off.verifier.verify('a', context);
    expect(off.calls).toHaveLength(2);
  });

  it('does not reuse an answer accepted for one resource for another', async () => {
    const { verifier, calls } = verifierWith({ good: active });
    await verifier.verify('good', context);
    expect((await refusal(verifier.verify('good', { resource: 'https://other.example/mcp' }))).data.reason).toBe(
      'audience',
    );
    expect(calls).toHaveLength(2);
  });

  it('says verifier_unavailable when the endpoint fails or cannot be reached', async () => {
    const failing = verifierWith({ good: active }, {}, 401);
    const error = await refusal(failing.verifier.verify('good', context));
    expect(error).toMatchObject({ code: 'verifier_unavailable', data: { reason: 'bad_response' } });
    expect(error.message).toMatch(/401.*clientAuth/);
    const unreachable = createIntrospectionVerifier({
      endpoint: 'http://127.0.0.1:9/introspect',
      clientAuth: { method: 'bearer', token: 't' },
      timeoutMs: 1000,
    });
    expect((await refusal(unreachable.verify('good', context))).code).toBe('verifier_unavailable');
  });
});
