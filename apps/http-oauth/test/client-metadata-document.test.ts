import { describe, expect, it } from 'vitest';
import { createAuthorizationServer } from '../src/authorization-server/authorization-server';

// The demo authorization server's Client ID Metadata Documents: an https client_id is fetched, checked (it names
// itself, lists acceptable redirect URIs, is public) and used for /authorize and /token; nothing else is.

const ISSUER = 'http://127.0.0.1:3001';
const RESOURCE = 'http://127.0.0.1:3000/mcp';
const CLIENT = 'https://app.example.com/oauth/client.json';
const REDIRECT = 'http://127.0.0.1:8765/callback';

/** The authorization server, with `documents` served (by URL) to its metadata document fetches. */
async function serverWith(documents: Record<string, unknown>) {
  const fetched: string[] = [];
  const server = await createAuthorizationServer({
    issuer: ISSUER,
    resources: [RESOURCE],
    scopesSupported: ['mcp:tools'],
    fetchClientMetadata: async (input) => {
      const url = String(input);
      fetched.push(url);
      return url in documents ? Response.json(documents[url]) : new Response('not found', { status: 404 });
    },
  });
  const call = async (path: string, init?: RequestInit) =>
    (await server.handle(new Request(`${ISSUER}${path}`, init))) ?? new Response(null, { status: 404 });
  return { fetched, call };
}

async function s256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return Buffer.from(digest).toString('base64url');
}

const authorizePath = async (clientId: string, verifier: string) =>
  `/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: await s256(verifier),
    code_challenge_method: 'S256',
    resource: RESOURCE,
    state: 'st',
  })}`;

describe('the demo authorization server: Client ID Metadata Documents', () => {
  it('advertises them, authorizes and issues tokens for a client known only by its document URL', async () => {
    const { fetched, call } = await serverWith({
      [CLIENT]: { client_id: CLIENT, client_name: 'Example App', redirect_uris: [REDIRECT] },
    });
    const metadata = (await (await call('/.well-known/oauth-authorization-server')).json()) as Record<string, unknown>;
    expect(metadata.client_id_metadata_document_supported).toBe(true);

    const verifier = 'v'.repeat(43);
    const authorized = await call(await authorizePath(CLIENT, verifier));
    expect(authorized.status).toBe(302);
    const location = new URL(authorized.headers.get('location') ?? '');
    expect(location.origin + location.pathname).toBe(REDIRECT);
    const token = await call('/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: location.searchParams.get('code') ?? '',
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        client_id: CLIENT,
        resource: RESOURCE,
      }),
    });
    expect(token.status).toBe(200);
    expect(((await token.json()) as { token_type: string }).token_type).toBe('Bearer');
    // Fetched once, then kept.
    expect(fetched).toEqual([CLIENT]);
  });

  it('refuses a document that names another client, lists a foreign redirect URI, or asks for a secret', async () => {
    const other = 'https://app.example.com/other.json';
    const foreign = 'https://app.example.com/foreign.json';
    const secret = 'https://app.example.com/secret.json';
    const { call } = await serverWith({
      [other]: { client_id: CLIENT, redirect_uris: [REDIRECT] },
      [foreign]: { client_id: foreign, redirect_uris: ['http://evil.example.com/callback'] },
      [secret]: { client_id: secret, redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_basic' },
    });
    for (const [clientId, reason] of [
      [other, /client_id must be its own URL/],
      [foreign, /redirect_uris/],
      [secret, /token_endpoint_auth_method none/],
    ] as const) {
      const response = await call(await authorizePath(clientId, 'w'.repeat(43)));
      expect(response.status).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toMatch(reason);
    }
  });

  it('fetches only https URLs with a path; an unknown or missing document is an unknown client', async () => {
    const { fetched, call } = await serverWith({});
    for (const clientId of ['http://app.example.com/client.json', 'https://app.example.com', 'plain-id']) {
      const response = await call(await authorizePath(clientId, 'x'.repeat(43)));
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(/Unknown client_id/);
    }
    expect(fetched).toEqual([]);
    const missing = await call(await authorizePath('https://app.example.com/missing.json', 'x'.repeat(43)));
    expect(missing.status).toBe(400);
    expect(await missing.text()).toMatch(/could not be verified/);
  });

  it('never fetches a document on a private address, and says no more than that the client could not be verified', async () => {
    const { fetched, call } = await serverWith({});
    for (const clientId of [
      'https://169.254.169.254/latest/meta-data/x',
      'https://[::1]/client.json',
      'https://10.1.1.1/c',
    ]) {
      const response = await call(await authorizePath(clientId, 'x'.repeat(43)));
      expect(response.status).toBe(400);
      const page = await response.text();
      expect(page).toMatch(/could not be verified/);
      expect(page).not.toContain(clientId);
    }
    expect(fetched).toEqual([]);
  });
});
