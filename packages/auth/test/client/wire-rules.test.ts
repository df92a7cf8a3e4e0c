import { describe, expect, it } from 'vitest';
import {
  AuthorizationError,
  checkAuthorizationResponseIssuer,
  parseBearerChallenge,
  readAuthorizationCode,
  resourceKey,
  selectScope,
  unionScopes,
} from '../../src/client/index';
import { createPkcePair } from '../../src/index';

describe('parseBearerChallenge', () => {
  it('reads quoted and token parameters, case-insensitively', () => {
    const challenge = parseBearerChallenge(
      'bearer Resource_Metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="a b", error=insufficient_scope',
    );
    expect(challenge).toMatchObject({
      resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource',
      scope: 'a b',
      error: 'insufficient_scope',
    });
  });

  it('finds the Bearer challenge among others and unescapes quoted pairs', () => {
    const challenge = parseBearerChallenge(
      'Basic realm="x, y", DPoP algs="ES256", Bearer error_description="say \\"hi\\"", realm="mcp"',
    );
    expect(challenge?.errorDescription).toBe('say "hi"');
    expect(challenge?.params.realm).toBe('mcp');
  });

  it('returns undefined without a Bearer challenge, and tolerates a bare scheme or token68', () => {
    expect(parseBearerChallenge('Basic realm="x"')).toBeUndefined();
    expect(parseBearerChallenge(null)).toBeUndefined();
    expect(parseBearerChallenge('Bearer')?.params).toEqual({});
    expect(parseBearerChallenge('Negotiate abc==, Bearer scope="s"')?.scope).toBe('s');
  });
});

describe('RFC 9207 iss: the spec table', () => {
  const issuer = 'https://auth.example.com';
  const cases = [
    { advertised: true, iss: issuer, ok: true },
    { advertised: true, iss: undefined, ok: false },
    { advertised: true, iss: 'https://auth.example.com/', ok: false }, // exact comparison, no normalisation
    { advertised: false, iss: issuer, ok: true },
    { advertised: false, iss: 'https://evil.example.com', ok: false },
    { advertised: false, iss: undefined, ok: true },
  ];
  for (const { advertised, iss, ok } of cases) {
    it(`${advertised ? 'advertised' : 'not advertised'}, iss ${iss ?? 'absent'}: ${ok ? 'proceed' : 'reject'}`, () => {
      const params = new URLSearchParams({ code: 'c', ...(iss !== undefined && { iss }) });
      const check = () =>
        checkAuthorizationResponseIssuer(params, {
          issuer,
          authorization_response_iss_parameter_supported: advertised,
        });
      if (ok) expect(check).not.toThrow();
      else expect(check).toThrow(expect.objectContaining({ code: 'ERR_ISS_MISMATCH' }));
    });
  }

  it('checks iss before reading an error response', () => {
    const params = new URLSearchParams({ error: 'access_denied', iss: 'https://evil.example.com' });
    expect(() => readAuthorizationCode(params, { issuer })).toThrow(
      expect.objectContaining({ code: 'ERR_ISS_MISMATCH' }),
    );
    const denied = () => readAuthorizationCode(new URLSearchParams({ error: 'access_denied' }), { issuer });
    expect(denied).toThrow(AuthorizationError);
    expect(denied).toThrow(expect.objectContaining({ code: 'ERR_AUTHORIZATION_DENIED' }));
  });
});

describe('PKCE', () => {
  it('creates a 43-character verifier and its S256 challenge, fresh each time', async () => {
    const pair = await createPkcePair();
    expect(pair.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(pair.verifier)));
    const expected = btoa(String.fromCharCode(...digest))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    expect(pair.challenge).toBe(expected);
    expect((await createPkcePair()).verifier).not.toBe(pair.verifier);
  });

  it('matches the RFC 7636 Appendix B example', async () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    const { sha256Base64Url } = await import('../../src/shared/random');
    expect(await sha256Base64Url(verifier)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });
});

describe('scope selection', () => {
  const as = { issuer: 'https://a', token_endpoint: 'https://a/token' };
  it('takes the challenge scope, else the PRM scopes_supported, else none', () => {
    const prm = { resource: 'https://m', scopes_supported: ['x', 'y'] };
    expect(
      selectScope({ challengeScope: 'c', resourceMetadata: prm, authorizationServer: as, wantRefreshTokens: true }),
    ).toBe('c');
    expect(selectScope({ resourceMetadata: prm, authorizationServer: as, wantRefreshTokens: true })).toBe('x y');
    expect(selectScope({ authorizationServer: as, wantRefreshTokens: true })).toBeUndefined();
  });

  it('adds offline_access only when advertised, wanted, and some scope is requested', () => {
    const offline = { ...as, scopes_supported: ['offline_access'] };
    expect(selectScope({ challengeScope: 'c', authorizationServer: offline, wantRefreshTokens: true })).toBe(
      'c offline_access',
    );
    expect(selectScope({ challengeScope: 'c', authorizationServer: offline, wantRefreshTokens: false })).toBe('c');
    expect(selectScope({ authorizationServer: offline, wantRefreshTokens: true })).toBeUndefined();
  });

  it('unions scopes without duplicates', () => {
    expect(unionScopes('a b', undefined, 'b  c')).toBe('a b c');
    expect(unionScopes(undefined, '')).toBeUndefined();
  });
});

describe('resourceKey', () => {
  it('drops fragment, query and a trailing slash; lower-cases the host', () => {
    expect(resourceKey('https://MCP.example.com/mcp?x=1#frag')).toBe('https://mcp.example.com/mcp');
    expect(resourceKey('https://mcp.example.com/')).toBe('https://mcp.example.com');
  });
});

describe('registration metadata (RFC 7591)', () => {
  it('derives application_type from the redirect URI and the auth method from the server', async () => {
    const { registrationMetadata, applicationTypeOf } = await import('../../src/client/registration');
    expect(applicationTypeOf(['http://127.0.0.1:8765/cb'])).toBe('native');
    expect(applicationTypeOf(['http://localhost/cb'])).toBe('native');
    expect(applicationTypeOf(['com.example.app:/callback'])).toBe('native');
    expect(applicationTypeOf(['https://app.example.com/callback'])).toBe('web');
    const metadata = registrationMetadata({
      provider: { redirectUrl: 'https://app.example.com/callback', clientMetadata: { client_name: 'App' } },
      authorizationServer: {
        issuer: 'https://a',
        token_endpoint: 'https://a/token',
        token_endpoint_auth_methods_supported: ['client_secret_post'],
      },
      wantRefreshTokens: false,
    });
    expect(metadata).toEqual({
      client_name: 'App',
      redirect_uris: ['https://app.example.com/callback'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
      application_type: 'web',
    });
  });
});
