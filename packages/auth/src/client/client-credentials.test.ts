import { generateKeyPair, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { clientCredentialsGrant } from './client-credentials';
import { OAuthError } from './oauth-error';
import type { AuthorizationServerMetadata, ClientCredentials, GrantContext } from './types';

const ISSUER = 'https://auth.example.com';
const RESOURCE = new URL('https://mcp.example.com/mcp');

/**
 * An authorization server's token endpoint over Request/Response: accepts client_credentials from `client-1`
 * (secret `s3cret` by Basic or post, or an assertion signed by `publicKey`) and issues `cc-token-<n>`.
 */
function fakeAuthorizationServer(publicKey?: CryptoKey) {
  const requests: URLSearchParams[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.url !== `${ISSUER}/token` || request.method !== 'POST')
      return new Response('not found', { status: 404 });
    const body = new URLSearchParams(await request.text());
    requests.push(body);
    if (body.get('grant_type') !== 'client_credentials') {
      return Response.json({ error: 'unsupported_grant_type' }, { status: 400 });
    }
    const authorization = request.headers.get('authorization');
    let authenticated = false;
    if (authorization?.startsWith('Basic ')) {
      authenticated = atob(authorization.slice(6)) === 'client-1:s3cret';
    } else if (body.has('client_secret')) {
      authenticated = body.get('client_id') === 'client-1' && body.get('client_secret') === 's3cret';
    } else if (body.has('client_assertion') && publicKey !== undefined) {
      const verified = await jwtVerify(body.get('client_assertion') ?? '', publicKey, {
        audience: ISSUER,
        issuer: 'client-1',
        subject: 'client-1',
      }).catch(() => undefined);
      authenticated = verified !== undefined;
    }
    if (!authenticated) return Response.json({ error: 'invalid_client' }, { status: 401 });
    return Response.json({
      access_token: `cc-token-${requests.length}`,
      token_type: 'Bearer',
      expires_in: 3600,
      ...(body.has('scope') && { scope: body.get('scope') }),
    });
  };
  return { requests, fetch: fetchFn };
}

function contextFor(
  server: ReturnType<typeof fakeAuthorizationServer>,
  credentials: ClientCredentials,
  metadata: Partial<AuthorizationServerMetadata> = {},
): GrantContext {
  return {
    authorizationServer: { issuer: ISSUER, token_endpoint: `${ISSUER}/token`, ...metadata },
    resource: RESOURCE,
    scope: 'tools:read tools:call',
    credentials,
    fetch: server.fetch,
  };
}

describe('clientCredentialsGrant', () => {
  it('obtains a token with client_secret_basic, sending scope and resource', async () => {
    const server = fakeAuthorizationServer();
    const grant = clientCredentialsGrant();
    expect(grant.grantType).toBe('client_credentials');
    const tokens = await grant.obtain(contextFor(server, { clientId: 'client-1', clientSecret: 's3cret' }));
    expect(tokens).toMatchObject({ access_token: 'cc-token-1', token_type: 'Bearer', scope: 'tools:read tools:call' });
    expect(Object.fromEntries(server.requests[0] ?? [])).toEqual({
      grant_type: 'client_credentials',
      scope: 'tools:read tools:call',
      resource: RESOURCE.href,
    });
  });

  it('uses client_secret_post when that is all the server supports', async () => {
    const server = fakeAuthorizationServer();
    await clientCredentialsGrant().obtain(
      contextFor(
        server,
        { clientId: 'client-1', clientSecret: 's3cret' },
        { token_endpoint_auth_methods_supported: ['client_secret_post'] },
      ),
    );
    expect(server.requests[0]?.get('client_secret')).toBe('s3cret');
  });

  it('authenticates with private_key_jwt', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const server = fakeAuthorizationServer(publicKey);
    const tokens = await clientCredentialsGrant().obtain(
      contextFor(
        server,
        { clientId: 'client-1', privateKey },
        { token_endpoint_auth_methods_supported: ['private_key_jwt'] },
      ),
    );
    expect(tokens.access_token).toBe('cc-token-1');
  });

  it('omits scope when none is selected, and lets options replace or extend the request', async () => {
    const server = fakeAuthorizationServer();
    const credentials = { clientId: 'client-1', clientSecret: 's3cret' };
    await clientCredentialsGrant().obtain({ ...contextFor(server, credentials), scope: undefined });
    expect(server.requests[0]?.has('scope')).toBe(false);
    await clientCredentialsGrant({ scope: 'admin', parameters: { audience: 'api', grant_type: 'ignored' } }).obtain(
      contextFor(server, credentials),
    );
    expect(Object.fromEntries(server.requests[1] ?? [])).toEqual({
      audience: 'api',
      grant_type: 'client_credentials',
      scope: 'admin',
      resource: RESOURCE.href,
    });
  });

  it('refuses a public client before contacting the server', async () => {
    const server = fakeAuthorizationServer();
    const error = await clientCredentialsGrant()
      .obtain(contextFor(server, { clientId: 'public' }))
      .catch((reason: unknown) => reason);
    expect(OAuthError.is(error) && error.code).toBe('ERR_CLIENT_AUTHENTICATION');
    expect(server.requests).toHaveLength(0);
  });

  it('surfaces the server refusing the credentials as invalid_client', async () => {
    const server = fakeAuthorizationServer();
    const error = await clientCredentialsGrant()
      .obtain(contextFor(server, { clientId: 'client-1', clientSecret: 'wrong' }))
      .catch((reason: unknown) => reason);
    expect(OAuthError.is(error) && [error.code, error.status, error.source]).toEqual([
      'invalid_client',
      401,
      'authorization-server',
    ]);
  });
});
