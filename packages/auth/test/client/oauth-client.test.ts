import { describe, expect, it } from 'vitest';
import {
  AuthorizationError,
  findAuthorizationError,
  InMemoryOAuthStore,
  OAuthClient,
  type OAuthClientProvider,
  UnauthorizedError,
} from '../../src/client/index';
import { browserOf, FakeOAuthWorld, rpc } from './fake-oauth-world';

const REDIRECT = 'http://127.0.0.1:8765/callback';

function setup(world: FakeOAuthWorld, provider: Partial<OAuthClientProvider> = {}, wantRefreshTokens = true) {
  const store = new InMemoryOAuthStore();
  const oauth = new OAuthClient({
    provider: { store, redirectUrl: REDIRECT, redirectToAuthorization: browserOf(world), ...provider },
    fetch: world.fetch,
    wantRefreshTokens,
  });
  return { oauth, store };
}

async function json(response: Response): Promise<{ result: { method: string; token: string } }> {
  return (await response.json()) as { result: { method: string; token: string } };
}

describe('OAuthClient.fetch: the authorization-code flow', () => {
  it('answers a 401 with discovery, registration, PKCE authorization and one retry carrying the token', async () => {
    const world = new FakeOAuthWorld({ challengeScope: 'mcp:read' });
    const { oauth } = setup(world);
    const response = await oauth.fetch(world.serverUrl, rpc('tools/list'));
    expect(response.status).toBe(200);
    const { result } = await json(response);
    expect(result.token).toMatch(/^at-/);

    const mcp = world.requestsTo(world.serverUrl.href);
    expect(mcp).toHaveLength(2);
    expect(mcp[0]!.headers.get('authorization')).toBeNull();
    expect(mcp[1]!.headers.get('authorization')).toBe(`Bearer ${result.token}`);
    expect(mcp[1]!.body).toBe(mcp[0]!.body);

    const authorize = new URL(world.requestsTo(`${world.issuer}/authorize`)[0]!.url).searchParams;
    expect(authorize.get('code_challenge_method')).toBe('S256');
    expect(authorize.get('resource')).toBe('https://mcp.example.com/mcp');
    expect(authorize.get('scope')).toBe('mcp:read');
    expect(authorize.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const token = new URLSearchParams(world.requestsTo(`${world.issuer}/token`)[0]!.body);
    expect(token.get('resource')).toBe('https://mcp.example.com/mcp');
    expect(token.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const registration = JSON.parse(world.requestsTo(`${world.issuer}/register`)[0]!.body) as Record<string, unknown>;
    expect(registration).toMatchObject({
      redirect_uris: [REDIRECT],
      application_type: 'native',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    });
  });

  it('reuses the token on later requests without asking again', async () => {
    const world = new FakeOAuthWorld();
    const { oauth } = setup(world);
    await oauth.fetch(world.serverUrl, rpc('initialize'));
    const before = world.requests.length;
    const response = await oauth.fetch(world.serverUrl, rpc('tools/list', 2));
    expect(response.status).toBe(200);
    expect(world.requests.length - before).toBe(1);
  });

  it('shares one authorization between concurrent requests that hit 401 together', async () => {
    const world = new FakeOAuthWorld();
    const { oauth } = setup(world);
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, index) => oauth.fetch(world.serverUrl, rpc('tools/list', index))),
    );
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(world.requestsTo(`${world.issuer}/authorize`)).toHaveLength(1);
    expect(world.requestsTo(`${world.issuer}/token`)).toHaveLength(1);
    expect(world.requestsTo(`${world.issuer}/register`)).toHaveLength(1);
  });

  it('never sends the token to another origin (requests there pass through untouched)', async () => {
    const world = new FakeOAuthWorld();
    const { oauth } = setup(world);
    await oauth.fetch(world.serverUrl, rpc('initialize'));
    await oauth.fetch('https://elsewhere.example.com/mcp', rpc('initialize'));
    for (const request of world.requests) {
      const bearer = request.headers.get('authorization')?.startsWith('Bearer ') === true;
      expect(bearer && new URL(request.url).origin !== world.serverUrl.origin, request.url).toBe(false);
    }
    expect(world.requestsTo('https://elsewhere.example.com')).toHaveLength(1);
  });

  it('refuses resource metadata for another resource before any authorization request', async () => {
    const world = new FakeOAuthWorld({ prmResource: 'https://evil.example.com/mcp' });
    const { oauth } = setup(world);
    const failure = await oauth.fetch(world.serverUrl, rpc('initialize')).catch((error: unknown) => error);
    expect(AuthorizationError.is(failure) && failure.code).toBe('ERR_RESOURCE_MISMATCH');
    expect((failure as AuthorizationError).data).toMatchObject({ resource: 'https://evil.example.com/mcp' });
    expect(world.requestsTo(`${world.issuer}/authorize`)).toHaveLength(0);
    expect(world.requestsTo(world.issuer)).toHaveLength(0);
  });

  it('refuses an authorization server without S256 PKCE', async () => {
    const world = new FakeOAuthWorld({ metadata: { code_challenge_methods_supported: ['plain'] } });
    const { oauth } = setup(world);
    const failure = await oauth.fetch(world.serverUrl, rpc('initialize')).catch((error: unknown) => error);
    expect(findAuthorizationError(failure)?.code).toBe('ERR_PKCE_UNSUPPORTED');
    expect(world.requestsTo(`${world.issuer}/authorize`)).toHaveLength(0);
  });

  it('throws ERR_UNAUTHORIZED when the server refuses a token obtained just now', async () => {
    const world = new FakeOAuthWorld();
    // The server forgets every token it sees.
    const forgetful: typeof fetch = async (input, init) => {
      world.tokens.clear();
      return world.fetch(input, init);
    };
    const client = new OAuthClient({
      provider: { redirectUrl: REDIRECT, redirectToAuthorization: browserOf(world) },
      fetch: forgetful,
    });
    const failure = await client.fetch(world.serverUrl, rpc('initialize')).catch((error: unknown) => error);
    expect(findAuthorizationError(failure)?.code).toBe('ERR_UNAUTHORIZED');
  });
});

describe('OAuthClient: the time the user takes to sign in', () => {
  // Issue 25: a 7 s sign-in during connect() made the client settle on the legacy era, and one over 65 s failed
  // initialize with a timeout. onWaitingForUser lets the app hold the client's timeouts while the user is away.
  it('holds while the user is sent to sign in and releases once they are back', async () => {
    const world = new FakeOAuthWorld({ challengeScope: 'mcp:read' });
    const events: string[] = [];
    const browser = browserOf(world);
    const oauth = new OAuthClient({
      provider: {
        store: new InMemoryOAuthStore(),
        redirectUrl: REDIRECT,
        redirectToAuthorization: async (redirect) => {
          events.push('signing in');
          await new Promise((resolve) => setTimeout(resolve, 50));
          return browser(redirect);
        },
      },
      fetch: world.fetch,
      onWaitingForUser: () => {
        events.push('hold');
        return () => events.push('release');
      },
    });
    const response = await oauth.fetch(world.serverUrl, rpc('tools/list'));
    expect(response.status).toBe(200);
    expect(events).toEqual(['hold', 'signing in', 'release']);
  });

  it('releases when the sign-in fails too', async () => {
    const world = new FakeOAuthWorld({ challengeScope: 'mcp:read' });
    let held = 0;
    const oauth = new OAuthClient({
      provider: {
        store: new InMemoryOAuthStore(),
        redirectUrl: REDIRECT,
        redirectToAuthorization: () => Promise.reject(new Error('the user closed the window')),
      },
      fetch: world.fetch,
      onWaitingForUser: () => {
        held++;
        return () => held--;
      },
    });
    await expect(oauth.fetch(world.serverUrl, rpc('tools/list'))).rejects.toThrow('the user closed the window');
    expect(held).toBe(0);
  });
});

describe('OAuthClient.fetch: requests', () => {
  it('replays a Request object (its body is read once) after authorizing', async () => {
    const world = new FakeOAuthWorld();
    const { oauth } = setup(world);
    const response = await oauth.fetch(new Request(world.serverUrl, rpc('tools/list', 7)));
    expect(response.status).toBe(200);
    const mcp = world.requestsTo(world.serverUrl.href);
    expect(mcp.map((request) => request.body)).toEqual([mcp[0]!.body, mcp[0]!.body]);
    expect(JSON.parse(mcp[1]!.body)).toMatchObject({ id: 7, method: 'tools/list' });
  });

  it('stops waiting for a shared authorization when its own signal aborts; the others still get the token', async () => {
    const world = new FakeOAuthWorld();
    let release!: () => void;
    const userDone = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { oauth } = setup(world, {
      redirectToAuthorization: async (redirect) => {
        await userDone; // the user takes their time
        return browserOf(world)(redirect);
      },
    });
    const controller = new AbortController();
    const impatient = oauth.fetch(world.serverUrl, { ...rpc('initialize'), signal: controller.signal });
    const patient = oauth.fetch(world.serverUrl, rpc('tools/list', 2));
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort(new Error('probe timeout'));
    await expect(impatient).rejects.toThrow('probe timeout');
    release();
    expect((await patient).status).toBe(200);
    expect(world.requestsTo(`${world.issuer}/authorize`)).toHaveLength(1);
  });
});

describe('OAuthClient: refresh', () => {
  it('refreshes a token about to expire before sending, without a new authorization', async () => {
    const world = new FakeOAuthWorld({ expiresIn: 30, issueRefreshTokens: true });
    const { oauth } = setup(world);
    await oauth.fetch(world.serverUrl, rpc('initialize'));
    const first = (await oauth.tokens())!;
    // 30 s left is inside the 60 s skew: the next request refreshes first.
    await oauth.fetch(world.serverUrl, rpc('tools/list', 2));
    const second = (await oauth.tokens())!;
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(world.requestsTo(`${world.issuer}/authorize`)).toHaveLength(1);
    const grants = world.requestsTo(`${world.issuer}/token`).map((r) => new URLSearchParams(r.body).get('grant_type'));
    expect(grants).toEqual(['authorization_code', 'refresh_token']);
    const refresh = new URLSearchParams(world.requestsTo(`${world.issuer}/token`)[1]!.body);
    expect(refresh.get('resource')).toBe('https://mcp.example.com/mcp');
  });

  it('refreshes on 401 invalid_token, and authorizes again when the refresh is refused', async () => {
    const world = new FakeOAuthWorld({ issueRefreshTokens: true });
    const { oauth } = setup(world);
    await oauth.fetch(world.serverUrl, rpc('initialize'));
    world.tokens.clear(); // the server revokes every access token
    expect((await oauth.fetch(world.serverUrl, rpc('tools/list', 2))).status).toBe(200);
    expect(world.requestsTo(`${world.issuer}/authorize`)).toHaveLength(1);

    world.tokens.clear();
    world.refreshFails = true;
    expect((await oauth.fetch(world.serverUrl, rpc('tools/list', 3))).status).toBe(200);
    expect(world.requestsTo(`${world.issuer}/authorize`)).toHaveLength(2);
    const grants = world.requestsTo(`${world.issuer}/token`).map((r) => new URLSearchParams(r.body).get('grant_type'));
    expect(grants).toEqual(['authorization_code', 'refresh_token', 'refresh_token', 'authorization_code']);
  });
});

describe('OAuthClient: step-up on 403 insufficient_scope', () => {
  it('authorizes again with the union of held and required scopes, then retries', async () => {
    const world = new FakeOAuthWorld({
      challengeScope: 'mcp:read',
      requiredScopes: { 'tools/call': 'mcp:read mcp:write' },
    });
    const { oauth } = setup(world);
    expect((await oauth.fetch(world.serverUrl, rpc('tools/list'))).status).toBe(200);
    expect((await oauth.fetch(world.serverUrl, rpc('tools/call', 2))).status).toBe(200);
    const scopes = world
      .requestsTo(`${world.issuer}/authorize`)
      .map((request) => new URL(request.url).searchParams.get('scope'));
    expect(scopes).toEqual(['mcp:read', 'mcp:read mcp:write']);
  });

  it('gives up with ERR_STEP_UP_LIMIT after maxStepUps authorizations for one scope', async () => {
    const world = new FakeOAuthWorld({
      challengeScope: 'mcp:admin',
      requiredScopes: { 'tools/list': 'mcp:admin never' },
      deniedScopes: ['never'],
    });
    const oauth = new OAuthClient({
      provider: { redirectUrl: REDIRECT, redirectToAuthorization: browserOf(world) },
      fetch: world.fetch,
      maxStepUps: 2,
    });
    const failure = await oauth.fetch(world.serverUrl, rpc('tools/list')).catch((error: unknown) => error);
    expect(findAuthorizationError(failure)?.code).toBe('ERR_STEP_UP_LIMIT');
    // One authorization for the 401, two step-ups.
    expect(world.requestsTo(`${world.issuer}/authorize`)).toHaveLength(3);
    // A later request for the same scope does not send the user again.
    await oauth.fetch(world.serverUrl, rpc('tools/list', 2)).catch(() => {});
    expect(world.requestsTo(`${world.issuer}/authorize`)).toHaveLength(3);
  });
});

describe('OAuthClient: the web-app path', () => {
  it('throws UnauthorizedError when the provider navigates away, and finish(callbackUrl) completes', async () => {
    const world = new FakeOAuthWorld();
    const store = new InMemoryOAuthStore();
    let sentTo: URL | undefined;
    const provider: OAuthClientProvider = {
      store,
      redirectUrl: 'https://app.example.com/callback',
      redirectToAuthorization: ({ authorizationUrl }) => {
        sentTo = authorizationUrl;
        return undefined;
      },
    };
    const page = new OAuthClient({ provider, fetch: world.fetch, serverUrl: world.serverUrl });
    const failure = await page.fetch(world.serverUrl, rpc('initialize')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UnauthorizedError);
    expect((failure as UnauthorizedError).authorizationUrl.href).toBe(sentTo!.href);
    // A second request while the user is away does not send them again.
    await page.fetch(world.serverUrl, rpc('tools/list', 2)).catch(() => {});
    expect(world.requestsTo(`${world.issuer}/register`)).toHaveLength(1);

    // The callback page: a new OAuthClient over the same store (the page reloaded).
    const callback = await browserOf(world)({ authorizationUrl: sentTo! });
    expect(new URL(callback).searchParams.get('state')).toBe(sentTo!.searchParams.get('state'));
    const after = new OAuthClient({ provider, fetch: world.fetch, serverUrl: world.serverUrl });
    await after.finish(callback);
    expect((await after.fetch(world.serverUrl, rpc('initialize'))).status).toBe(200);
    // The state is single use.
    const replay = await after.finish(callback).catch((error: unknown) => error);
    expect(AuthorizationError.is(replay) && replay.code).toBe('ERR_STATE_MISMATCH');
  });

  it('checks iss before redeeming the code (RFC 9207)', async () => {
    const world = new FakeOAuthWorld({
      responseIss: 'other',
      metadata: { authorization_response_iss_parameter_supported: true },
    });
    const { oauth } = setup(world);
    const failure = await oauth.fetch(world.serverUrl, rpc('initialize')).catch((error: unknown) => error);
    expect(findAuthorizationError(failure)?.code).toBe('ERR_ISS_MISMATCH');
    expect(world.requestsTo(`${world.issuer}/token`)).toHaveLength(0);
  });
});

describe('OAuthClient: registration', () => {
  it('uses a Client ID Metadata Document URL when the server supports them, without registering', async () => {
    const world = new FakeOAuthWorld({ metadata: { client_id_metadata_document_supported: true } });
    const { oauth } = setup(world, { clientMetadataUrl: 'https://app.example.com/client.json' });
    expect((await oauth.fetch(world.serverUrl, rpc('initialize'))).status).toBe(200);
    expect(world.requestsTo(`${world.issuer}/register`)).toHaveLength(0);
    const authorize = new URL(world.requestsTo(`${world.issuer}/authorize`)[0]!.url);
    expect(authorize.searchParams.get('client_id')).toBe('https://app.example.com/client.json');
  });

  it('prefers pre-registered credentials, and never uses them at another issuer', async () => {
    const world = new FakeOAuthWorld({ metadata: { token_endpoint_auth_methods_supported: ['client_secret_post'] } });
    const { oauth } = setup(world, {
      clientCredentials: { clientId: 'pre', clientSecret: 'secret', issuer: 'https://auth.example.com' },
    });
    expect((await oauth.fetch(world.serverUrl, rpc('initialize'))).status).toBe(200);
    expect(world.requestsTo(`${world.issuer}/register`)).toHaveLength(0);
    expect(new URLSearchParams(world.requestsTo(`${world.issuer}/token`)[0]!.body).get('client_secret')).toBe('secret');

    const other = new FakeOAuthWorld({ issuer: 'https://other-auth.example.com' });
    const { oauth: second } = setup(other, {
      clientCredentials: { clientId: 'pre', clientSecret: 'secret', issuer: 'https://auth.example.com' },
    });
    expect((await second.fetch(other.serverUrl, rpc('initialize'))).status).toBe(200);
    expect(other.requestsTo(`${other.issuer}/register`)).toHaveLength(1);
  });

  it('registers again when the server moves to another authorization server', async () => {
    const store = new InMemoryOAuthStore();
    const first = new FakeOAuthWorld();
    await setup(first, { store }).oauth.fetch(first.serverUrl, rpc('initialize'));
    const moved = new FakeOAuthWorld({ issuer: 'https://new-auth.example.com' });
    await setup(moved, { store }).oauth.fetch(moved.serverUrl, rpc('initialize'));
    expect(moved.requestsTo('https://new-auth.example.com/register')).toHaveLength(1);
    expect(store.getClient('https://auth.example.com')?.issuer).toBe('https://auth.example.com');
    expect(store.getClient('https://new-auth.example.com')?.issuer).toBe('https://new-auth.example.com');
  });
});

describe('OAuthClient: scope and offline_access', () => {
  it('adds offline_access only when the authorization server lists it', async () => {
    const listing = new FakeOAuthWorld({
      prmScopes: ['mcp:basic'],
      metadata: { scopes_supported: ['mcp:basic', 'offline_access'] },
    });
    await setup(listing).oauth.fetch(listing.serverUrl, rpc('initialize'));
    const asked = new URL(listing.requestsTo(`${listing.issuer}/authorize`)[0]!.url).searchParams.get('scope');
    expect(asked).toBe('mcp:basic offline_access');

    const silent = new FakeOAuthWorld({ prmScopes: ['mcp:basic'], metadata: { scopes_supported: ['mcp:basic'] } });
    await setup(silent).oauth.fetch(silent.serverUrl, rpc('initialize'));
    expect(new URL(silent.requestsTo(`${silent.issuer}/authorize`)[0]!.url).searchParams.get('scope')).toBe(
      'mcp:basic',
    );

    const unwanted = new FakeOAuthWorld({
      prmScopes: ['mcp:basic'],
      metadata: { scopes_supported: ['offline_access'] },
    });
    await setup(unwanted, {}, false).oauth.fetch(unwanted.serverUrl, rpc('initialize'));
    expect(new URL(unwanted.requestsTo(`${unwanted.issuer}/authorize`)[0]!.url).searchParams.get('scope')).toBe(
      'mcp:basic',
    );
  });

  it('omits scope when neither the challenge nor the resource metadata names one', async () => {
    const world = new FakeOAuthWorld();
    await setup(world).oauth.fetch(world.serverUrl, rpc('initialize'));
    expect(new URL(world.requestsTo(`${world.issuer}/authorize`)[0]!.url).searchParams.has('scope')).toBe(false);
  });
});
