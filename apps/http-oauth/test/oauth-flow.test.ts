import { createOAuthFetch, InMemoryOAuthStore } from '@mcpkit/auth/client';
import { Client } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningApp, type StartOptions, start } from '../src/start';
import { browse, type Visit } from './browser';

// The whole OAuth flow with mcpkit's own client against the sample, in process, on 127.0.0.1: 401 → discovery → DCR →
// authorize → token → tools/call, step-up, refresh; then the same with the OAuth proxy in front of the demo server.

const CALL = { timeoutMs: 5_000 } as const;
const REDIRECT_URI = 'http://127.0.0.1:8765/callback'; // never listened on: the test's "browser" stops there
const running: RunningApp[] = [];
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  for (const app of running.splice(0)) await app.close();
});

async function startApp(options: StartOptions = {}): Promise<RunningApp> {
  const app = await start({ port: 0, authorizationServerPort: 0, log: () => undefined, ...options });
  running.push(app);
  return app;
}

async function connect(app: RunningApp, visits: Visit[], refreshSkewMs?: number): Promise<Client> {
  const oauthFetch = createOAuthFetch({
    provider: {
      store: new InMemoryOAuthStore(),
      redirectUrl: REDIRECT_URI,
      clientMetadata: { client_name: 'http-oauth test' },
      redirectToAuthorization: (redirect) => browse(redirect, visits),
    },
    ...(refreshSkewMs === undefined ? {} : { refreshSkewMs }),
  });
  const client = new Client({ name: 'http-oauth-test', version: '1.0.0' }, { requestTimeoutMs: 5_000 });
  clients.push(client);
  await client.connect(
    new StreamableHttpClientTransport(app.url, { fetch: oauthFetch, reconnect: { maxAttempts: 0 } }),
    { timeoutMs: 10_000 },
  );
  return client;
}

/** The authorization-code flow by hand, with fetch: register, authorize (auto-approved), redeem. */
async function tokenByHand(issuer: string, resource: string | undefined): Promise<string> {
  const registered = (await (
    await fetch(`${issuer}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' }),
    })
  ).json()) as { client_id: string };
  const verifier = 'v'.repeat(64);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  const authorize = new URL(`${issuer}/authorize`);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: registered.client_id,
    redirect_uri: REDIRECT_URI,
    code_challenge: Buffer.from(digest).toString('base64url'),
    code_challenge_method: 'S256',
    scope: 'mcp:tools',
    ...(resource === undefined ? {} : { resource }),
  }).toString();
  const approved = await fetch(authorize, { redirect: 'manual' });
  const code = new URL(approved.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const form = { grant_type: 'authorization_code', client_id: registered.client_id, code, code_verifier: verifier };
  const response = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  const { access_token } = (await response.json()) as { access_token: string };
  expect(access_token).toMatch(/^ey/);
  return access_token;
}

function listToolsWith(app: RunningApp, token: string): Promise<Response> {
  return fetch(app.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });
}

function identityOf(result: { structuredContent?: unknown }) {
  return result.structuredContent as { subject: string | null; clientId: string | null; scopes: string[] };
}

describe('the protected MCP server', () => {
  it('answers 401 with a challenge that points at its protected resource metadata', async () => {
    const app = await startApp();
    const response = await fetch(app.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] ?? '';
    expect(metadataUrl).toBe(new URL('/.well-known/oauth-protected-resource/mcp', app.url).href);
    const metadata = (await (await fetch(metadataUrl)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      resource: app.url.href,
      authorization_servers: [app.authorizationServer.issuer],
      scopes_supported: ['mcp:tools', 'mcp:admin'],
    });
  });

  it('refuses a token of its own authorization server that was issued for another audience', async () => {
    const app = await startApp();
    // A client that asks for no `resource` gets a token whose aud is its own client id.
    const token = await tokenByHand(app.authorizationServer.issuer, undefined);
    const response = await listToolsWith(app, token);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    expect(response.headers.get('www-authenticate')).toMatch(/aud/);
  });
});

describe('mcpkit’s OAuth client against the demo authorization server', () => {
  it('discovers, registers, authorizes, and calls a tool', async () => {
    const app = await startApp();
    const visits: Visit[] = [];
    const client = await connect(app, visits);
    const whoami = identityOf(await client.callTool({ name: 'whoami' }, CALL));
    expect(whoami.subject).toBe('demo-user');
    expect(whoami.scopes).toContain('mcp:tools');
    expect(whoami.scopes).not.toContain('mcp:admin');
    expect(visits).toHaveLength(1);
    expect(app.authorizationServer.tokenRequests).toEqual(['authorization_code']);
  });

  it('steps up to the scoped tool after 403 insufficient_scope', async () => {
    const app = await startApp();
    const visits: Visit[] = [];
    const client = await connect(app, visits);
    const report = await client.callTool({ name: 'admin_report' }, CALL);
    expect(report.content[0]).toMatchObject({
      type: 'text',
      text: expect.stringContaining('Admin report for demo-user'),
    });
    expect(visits).toHaveLength(2);
    expect(visits[1]?.scope?.split(' ')).toEqual(expect.arrayContaining(['mcp:tools', 'mcp:admin']));
    const whoami = identityOf(await client.callTool({ name: 'whoami' }, CALL));
    expect(whoami.scopes).toEqual(expect.arrayContaining(['mcp:tools', 'mcp:admin']));
  });

  it('refreshes the access token after it expires', async () => {
    // JWT times are whole seconds: a token lives between TTL - 1 and TTL seconds. With a TTL of 1 a refreshed token
    // issued late in a second could expire before the retried call reached the server (a flake under load).
    const app = await startApp({ accessTokenTtlSeconds: 3, clockToleranceSeconds: 0 });
    const visits: Visit[] = [];
    const client = await connect(app, visits, 0);
    await client.callTool({ name: 'whoami' }, CALL);
    await new Promise((resolve) => setTimeout(resolve, 3_200));
    const whoami = identityOf(await client.callTool({ name: 'whoami' }, CALL));
    expect(whoami.subject).toBe('demo-user');
    expect(visits).toHaveLength(1);
    expect(app.authorizationServer.tokenRequests).toContain('refresh_token');
  });
});

describe('the same server fronted by the OAuth proxy', () => {
  it('runs the flow through the proxy: consent, upstream sign-in, proxy-issued token', async () => {
    const app = await startApp({ mode: 'proxy' });
    expect(app.issuer).toBe(app.url.origin);
    const visits: Visit[] = [];
    const client = await connect(app, visits);
    const whoami = identityOf(await client.callTool({ name: 'whoami' }, CALL));
    // The subject comes from the upstream id_token; the client id is the one the MCP client registered at the proxy.
    expect(whoami.subject).toBe('demo-user');
    expect(whoami.clientId).not.toBe('mcp-oauth-proxy');
    expect(visits[0]?.consentPages).toBe(1);
    // Upstream, only the proxy's own client ever redeemed a code.
    expect(app.authorizationServer.tokenRequests).toEqual(['authorization_code']);
  });

  it('steps up and refreshes through the proxy', async () => {
    const app = await startApp({ mode: 'proxy', accessTokenTtlSeconds: 3, clockToleranceSeconds: 0 });
    const visits: Visit[] = [];
    const client = await connect(app, visits, 0);
    const report = await client.callTool({ name: 'admin_report' }, CALL);
    expect(report.isError).not.toBe(true);
    expect(visits).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 3_200));
    const whoami = identityOf(await client.callTool({ name: 'whoami' }, CALL));
    expect(whoami.scopes).toEqual(expect.arrayContaining(['mcp:tools', 'mcp:admin']));
    expect(visits).toHaveLength(2);
    expect(app.authorizationServer.tokenRequests).toContain('refresh_token');
  });

  it('refuses a token straight from the upstream provider, even one with the right audience', async () => {
    const app = await startApp({ mode: 'proxy' });
    // The demo provider issues tokens for the MCP URL too; the MCP server still only trusts its proxy's tokens.
    const upstreamToken = await tokenByHand(app.authorizationServer.issuer, app.url.href);
    const response = await listToolsWith(app, upstreamToken);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });
});
