import { generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { JWT_BEARER_GRANT_TYPE } from './cross-app-access';
import { OAuthError } from './oauth-error';
import { createOAuthFetch } from './oauth-fetch';
import type { GrantContext } from './types';
import { workloadIdentityGrant } from './workload-identity';

const AS = 'https://auth.example.com';
const MCP = new URL('https://mcp.example.com/mcp');
const PLATFORM = 'https://platform.example.com';

const platformKeys = await generateKeyPair('ES256');

/** A JWT the platform issued to the workload `job-7`, for `audience`. */
function platformToken(audience: string, expiresIn = '5m'): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256' })
    .setIssuer(PLATFORM)
    .setSubject('job-7')
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(platformKeys.privateKey);
}

/**
 * An MCP server (401 until a token of this authorization server is presented) and its authorization server, which
 * trusts the platform's key for the JWT bearer grant and answers `invalid_scope` for the scope `forbidden`.
 */
function fakeWorld() {
  const tokenRequests: URLSearchParams[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.href === MCP.href) {
      if (request.headers.get('authorization') === 'Bearer wif-token-for-job-7') return Response.json({ ok: true });
      return new Response(null, {
        status: 401,
        headers: {
          'www-authenticate': `Bearer resource_metadata="${MCP.origin}/.well-known/oauth-protected-resource/mcp"`,
        },
      });
    }
    if (url.href === `${MCP.origin}/.well-known/oauth-protected-resource/mcp`) {
      return Response.json({ resource: MCP.href, authorization_servers: [AS] });
    }
    if (url.href === `${AS}/.well-known/oauth-authorization-server`) {
      return Response.json({
        issuer: AS,
        token_endpoint: `${AS}/token`,
        grant_types_supported: [JWT_BEARER_GRANT_TYPE],
        token_endpoint_auth_methods_supported: ['none'],
      });
    }
    if (url.href === `${AS}/token` && request.method === 'POST') {
      const body = new URLSearchParams(await request.text());
      tokenRequests.push(body);
      if (body.get('grant_type') !== JWT_BEARER_GRANT_TYPE) {
        return Response.json({ error: 'unsupported_grant_type' }, { status: 400 });
      }
      if (body.get('scope')?.split(' ').includes('forbidden')) {
        return Response.json({ error: 'invalid_scope' }, { status: 400 });
      }
      const verified = await jwtVerify(body.get('assertion') ?? '', platformKeys.publicKey, {
        issuer: PLATFORM,
        audience: AS,
      }).catch(() => undefined);
      if (verified === undefined) return Response.json({ error: 'invalid_grant' }, { status: 400 });
      return Response.json({ access_token: `wif-token-for-${verified.payload.sub}`, token_type: 'Bearer' });
    }
    return new Response('not found', { status: 404 });
  };
  return { tokenRequests, fetch: fetchFn };
}

function contextFor(fetchFn: typeof fetch, scope?: string): GrantContext {
  return {
    authorizationServer: { issuer: AS, token_endpoint: `${AS}/token`, token_endpoint_auth_methods_supported: ['none'] },
    resource: MCP,
    scope,
    credentials: { clientId: 'workload-client' },
    fetch: fetchFn,
  };
}

describe('workloadIdentityGrant', () => {
  it('presents the platform JWT as a jwt-bearer assertion with scope, resource and client_id', async () => {
    const world = fakeWorld();
    const asked: unknown[] = [];
    const grant = workloadIdentityGrant({
      assertion: (request) => {
        asked.push({ audience: request.audience, resource: request.resource.href });
        return platformToken(request.audience);
      },
    });
    expect(grant.grantType).toBe(JWT_BEARER_GRANT_TYPE);
    const tokens = await grant.obtain(contextFor(world.fetch, 'reports:read'));
    expect(tokens).toMatchObject({ access_token: 'wif-token-for-job-7', token_type: 'Bearer' });
    expect(asked).toEqual([{ audience: AS, resource: MCP.href }]);
    const sent = Object.fromEntries(world.tokenRequests[0] ?? []);
    expect(sent).toMatchObject({
      grant_type: JWT_BEARER_GRANT_TYPE,
      scope: 'reports:read',
      resource: MCP.href,
      client_id: 'workload-client',
    });
    expect(sent.assertion?.split('.')).toHaveLength(3);
  });

  it('asks the platform for a fresh assertion on every token request', async () => {
    const world = fakeWorld();
    let calls = 0;
    const grant = workloadIdentityGrant({
      assertion: ({ audience }) => {
        calls += 1;
        return platformToken(audience);
      },
    });
    await grant.obtain(contextFor(world.fetch));
    await grant.obtain(contextFor(world.fetch));
    expect(calls).toBe(2);
    expect(world.tokenRequests[0]?.get('assertion')).not.toBe(world.tokenRequests[1]?.get('assertion'));
  });

  it('surfaces the refusal of an expired or wrong-audience assertion, once, without another grant', async () => {
    for (const assertion of [() => platformToken(AS, '-60s'), () => platformToken('https://wrong.example')]) {
      const world = fakeWorld();
      const error = await workloadIdentityGrant({ assertion })
        .obtain(contextFor(world.fetch))
        .catch((reason: unknown) => reason);
      expect(OAuthError.is(error) && [error.code, error.source]).toEqual(['invalid_grant', 'authorization-server']);
      expect(world.tokenRequests.map((body) => body.get('grant_type'))).toEqual([JWT_BEARER_GRANT_TYPE]);
    }
  });

  it('surfaces invalid_scope; refuses an assertion that is not a JWT before sending anything', async () => {
    const world = fakeWorld();
    const scoped = await workloadIdentityGrant({ assertion: ({ audience }) => platformToken(audience) })
      .obtain(contextFor(world.fetch, 'forbidden'))
      .catch((reason: unknown) => reason);
    expect(OAuthError.is(scoped) && scoped.code).toBe('invalid_scope');
    const notJwt = await workloadIdentityGrant({ assertion: () => 'opaque-token' })
      .obtain(contextFor(world.fetch))
      .catch((reason: unknown) => reason);
    expect(OAuthError.is(notJwt) && notJwt.code).toBe('ERR_CLIENT_ASSERTION');
    expect(world.tokenRequests).toHaveLength(1);
  });

  it('runs the whole flow through createOAuthFetch: 401 → discovery → grant → retry', async () => {
    const world = fakeWorld();
    const fetchWithAuth = createOAuthFetch({
      serverUrl: MCP,
      fetch: world.fetch,
      provider: {
        clientCredentials: { clientId: 'workload-client' },
        grant: workloadIdentityGrant({ assertion: ({ audience }) => platformToken(audience) }),
      },
    });
    const response = await fetchWithAuth(MCP, { method: 'POST', body: '{}' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(world.tokenRequests).toHaveLength(1);
  });
});
