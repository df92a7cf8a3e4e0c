import { decodeJwt, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  crossAppAccessGrant,
  ID_JAG_TOKEN_TYPE,
  ID_TOKEN_TYPE,
  JWT_BEARER_GRANT_TYPE,
  requestIdJag,
  TOKEN_EXCHANGE_GRANT_TYPE,
} from './cross-app-access';
import { OAuthError } from './oauth-error';
import type { GrantContext } from './types';

const IDP = 'https://idp.example.com';
const AS = 'https://auth.mcp.example.com';
const RESOURCE = new URL('https://mcp.example.com/mcp');

let idpKeys: CryptoKeyPair;
let jagKeys: CryptoKeyPair;
beforeAll(async () => {
  idpKeys = await generateKeyPair('ES256');
  jagKeys = await generateKeyPair('ES256');
});

const idTokenFor = (subject: string) =>
  new SignJWT({ email: subject })
    .setProtectedHeader({ alg: 'ES256' })
    .setIssuer(IDP)
    .setSubject(subject)
    .setAudience('idp-client')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(idpKeys.privateKey);

interface Options {
  tokenType?: string;
  issuedTokenType?: string;
}

/**
 * An enterprise IdP (token exchange → ID-JAG) and an MCP authorization server (JWT bearer grant, client_secret_basic
 * for `mcp-client:mcp-secret`) in one fetch function, checking what the suite's mock checks.
 */
function fakeEnterprise(options: Options = {}) {
  const seen: Array<{ url: string; authorization: string | null; body: URLSearchParams }> = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const body = new URLSearchParams(await request.text());
    seen.push({ url: request.url, authorization: request.headers.get('authorization'), body });
    if (request.url === `${IDP}/token`) {
      if (body.get('grant_type') !== TOKEN_EXCHANGE_GRANT_TYPE) return oauthError('unsupported_grant_type');
      if (body.get('client_id') !== 'idp-client') return oauthError('invalid_client', 401);
      const verified = await jwtVerify(body.get('subject_token') ?? '', idpKeys.publicKey, {
        issuer: IDP,
        audience: 'idp-client',
      }).catch(() => undefined);
      if (verified === undefined) return oauthError('invalid_grant');
      const jag = await new SignJWT({
        resource: body.get('resource'),
        client_id: 'mcp-client',
        scope: body.get('scope'),
      })
        .setProtectedHeader({ alg: 'ES256', typ: 'oauth-id-jag+jwt' })
        .setIssuer(IDP)
        .setSubject(verified.payload.sub ?? '')
        .setAudience(body.get('audience') ?? '')
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(jagKeys.privateKey);
      return Response.json({
        access_token: jag,
        issued_token_type: options.issuedTokenType ?? ID_JAG_TOKEN_TYPE,
        token_type: options.tokenType ?? 'N_A',
        expires_in: 300,
      });
    }
    if (request.url === `${AS}/token`) {
      if (request.headers.get('authorization') !== `Basic ${btoa('mcp-client:mcp-secret')}`) {
        return oauthError('invalid_client', 401);
      }
      if (body.get('grant_type') !== JWT_BEARER_GRANT_TYPE) return oauthError('unsupported_grant_type');
      const verified = await jwtVerify(body.get('assertion') ?? '', jagKeys.publicKey, {
        audience: AS,
        typ: 'oauth-id-jag+jwt',
      }).catch(() => undefined);
      if (verified === undefined || verified.payload.resource !== RESOURCE.href) return oauthError('invalid_grant');
      return Response.json({ access_token: `mcp-token-for-${verified.payload.sub}`, token_type: 'Bearer' });
    }
    return new Response('not found', { status: 404 });
  };
  return { seen, fetch: fetchFn };
}

function oauthError(error: string, status = 400): Response {
  return Response.json({ error }, { status });
}

function contextFor(fetchFn: typeof fetch, scope?: string): GrantContext {
  return {
    authorizationServer: {
      issuer: AS,
      token_endpoint: `${AS}/token`,
      token_endpoint_auth_methods_supported: ['client_secret_basic'],
    },
    resource: RESOURCE,
    scope,
    credentials: { clientId: 'mcp-client', clientSecret: 'mcp-secret' },
    fetch: fetchFn,
  };
}

const identityProvider = { tokenEndpoint: `${IDP}/token`, credentials: { clientId: 'idp-client' } };

describe('crossAppAccessGrant', () => {
  it('exchanges the ID token for an ID-JAG, then the ID-JAG for an access token', async () => {
    const enterprise = fakeEnterprise();
    const asked: unknown[] = [];
    const grant = crossAppAccessGrant({
      identityProvider,
      subjectToken: (request) => {
        asked.push({ audience: request.audience, resource: request.resource.href });
        return idTokenFor('alice@example.com');
      },
    });
    expect(grant.grantType).toBe(JWT_BEARER_GRANT_TYPE);
    const tokens = await grant.obtain(contextFor(enterprise.fetch, 'tools:read'));
    expect(tokens).toMatchObject({ access_token: 'mcp-token-for-alice@example.com', token_type: 'Bearer' });
    expect(asked).toEqual([{ audience: AS, resource: RESOURCE.href }]);

    const [exchange, bearer] = enterprise.seen;
    expect(exchange?.url).toBe(`${IDP}/token`);
    expect(exchange?.authorization).toBeNull();
    expect(Object.fromEntries(exchange?.body ?? [])).toMatchObject({
      grant_type: TOKEN_EXCHANGE_GRANT_TYPE,
      requested_token_type: ID_JAG_TOKEN_TYPE,
      subject_token_type: ID_TOKEN_TYPE,
      audience: AS,
      resource: RESOURCE.href,
      scope: 'tools:read',
      client_id: 'idp-client',
    });
    expect(bearer?.url).toBe(`${AS}/token`);
    expect(bearer?.body.get('grant_type')).toBe(JWT_BEARER_GRANT_TYPE);
    expect(bearer?.body.get('resource')).toBe(RESOURCE.href);
    expect(bearer?.body.has('client_id')).toBe(false);
    expect(decodeJwt(bearer?.body.get('assertion') ?? '').aud).toBe(AS);
  });

  it('asks for a fresh subject token on every exchange', async () => {
    const enterprise = fakeEnterprise();
    let calls = 0;
    const grant = crossAppAccessGrant({
      identityProvider,
      subjectToken: () => {
        calls += 1;
        return idTokenFor(`user-${calls}`);
      },
    });
    await grant.obtain(contextFor(enterprise.fetch));
    const second = await grant.obtain(contextFor(enterprise.fetch));
    expect(calls).toBe(2);
    expect(second.access_token).toBe('mcp-token-for-user-2');
  });

  it('an IdP refusing the ID token fails with its invalid_grant, before the authorization server is asked', async () => {
    const enterprise = fakeEnterprise();
    const error = await crossAppAccessGrant({ identityProvider, subjectToken: () => 'not-a-jwt' })
      .obtain(contextFor(enterprise.fetch))
      .catch((reason: unknown) => reason);
    expect(OAuthError.is(error) && [error.code, error.data.tokenEndpoint]).toEqual(['invalid_grant', `${IDP}/token`]);
    expect(enterprise.seen.map((request) => request.url)).toEqual([`${IDP}/token`]);
  });

  it('the authorization server refusing the client fails with invalid_client', async () => {
    const enterprise = fakeEnterprise();
    const context = { ...contextFor(enterprise.fetch), credentials: { clientId: 'mcp-client', clientSecret: 'wrong' } };
    const error = await crossAppAccessGrant({ identityProvider, subjectToken: () => idTokenFor('bob') })
      .obtain(context)
      .catch((reason: unknown) => reason);
    expect(OAuthError.is(error) && [error.code, error.status, error.data.grantType]).toEqual([
      'invalid_client',
      401,
      JWT_BEARER_GRANT_TYPE,
    ]);
  });
});

describe('requestIdJag', () => {
  const request = async (fetchFn: typeof fetch) =>
    requestIdJag({
      identityProvider,
      subjectToken: await idTokenFor('carol'),
      audience: AS,
      resource: RESOURCE,
      fetch: fetchFn,
    });

  it('accepts token_type Bearer from IdPs that do not say N_A', async () => {
    const result = await request(fakeEnterprise({ tokenType: 'Bearer' }).fetch);
    expect(result.issued_token_type).toBe(ID_JAG_TOKEN_TYPE);
  });

  it('refuses a token of another issued_token_type', async () => {
    const error = await request(
      fakeEnterprise({ issuedTokenType: 'urn:ietf:params:oauth:token-type:access_token' }).fetch,
    ).catch((reason: unknown) => reason);
    expect(OAuthError.is(error) && error.code).toBe('ERR_INVALID_TOKEN_RESPONSE');
    expect((error as OAuthError).data.issuedTokenType).toBe('urn:ietf:params:oauth:token-type:access_token');
  });

  it('authenticates at the IdP with the IdP credentials when they carry a secret', async () => {
    const enterprise = fakeEnterprise();
    await requestIdJag({
      identityProvider: {
        tokenEndpoint: `${IDP}/token`,
        credentials: { clientId: 'idp-client', clientSecret: 'idp-secret' },
        authMethodsSupported: ['client_secret_post'],
      },
      subjectToken: await idTokenFor('dave'),
      audience: AS,
      resource: RESOURCE,
      fetch: enterprise.fetch,
    });
    expect(enterprise.seen[0]?.body.get('client_secret')).toBe('idp-secret');
  });
});
