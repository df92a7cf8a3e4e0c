import type { AuthInfo, JsonRpcRequest } from '@mcpkit/jsonrpc-core';
import { McpServer } from '@mcpkit/server';
import { describe, expect, it } from 'vitest';
import {
  AuthConfigError,
  createBearerAuth,
  createJwtVerifier,
  formatBearerChallenge,
  readBearerToken,
  TokenVerificationError,
  type TokenVerifier,
} from '../../src/server/index';
import { createTestIssuer, ISSUER, RESOURCE } from './fixtures/issuer';

const METADATA_URL = 'http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp';

function requestWith(authorization?: string, url = RESOURCE): Request {
  return new Request(url, {
    method: 'POST',
    headers: authorization === undefined ? {} : { authorization },
  });
}

/** The auth-params of a WWW-Authenticate Bearer challenge, parsed strictly enough for tests. */
function challengeOf(response: Response): Record<string, string> {
  const header = response.headers.get('www-authenticate');
  expect(header).toMatch(/^Bearer( |$)/);
  const params: Record<string, string> = {};
  for (const match of header!.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) params[match[1]!] = match[2]!;
  return params;
}

function toolCall(name: string): JsonRpcRequest {
  return { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {} } };
}

describe('createBearerAuth: authenticate', async () => {
  const issuer = await createTestIssuer();
  const bearer = createBearerAuth({
    resource: RESOURCE,
    verifier: createJwtVerifier({ issuer: ISSUER, keySet: issuer.jwks }),
    requiredScopes: ['mcp:tools'],
  });

  it('returns the identity for a good token', async () => {
    const token = await issuer.mint({ scope: 'mcp:tools' });
    const auth = (await bearer.authenticate(requestWith(`Bearer ${token}`))) as AuthInfo;
    expect(auth).toMatchObject({ token, subject: 'alice', clientId: 'app', scopes: ['mcp:tools'] });
  });

  it('accepts the scheme in any case', async () => {
    const token = await issuer.mint({ scope: 'mcp:tools' });
    expect(await bearer.authenticate(requestWith(`bearer ${token}`))).not.toBeInstanceOf(Response);
  });

  it('answers 401 without an error code but with resource_metadata and scope when the token is missing', async () => {
    for (const request of [requestWith(), requestWith('Basic dXNlcjpwYXNz')]) {
      const response = (await bearer.authenticate(request)) as Response;
      expect(response.status).toBe(401);
      expect(challengeOf(response)).toEqual({ resource_metadata: METADATA_URL, scope: 'mcp:tools' });
      expect(await response.json()).toMatchObject({ error: 'unauthorized' });
    }
  });

  it('answers 400 invalid_request for a malformed Authorization header', async () => {
    for (const header of ['Bearer', 'Bearer ', 'Bearer a b', 'Bearer tok"en', 'Bearer a, Bearer b']) {
      const response = (await bearer.authenticate(requestWith(header))) as Response;
      expect(response.status, header).toBe(400);
      expect(challengeOf(response).error).toBe('invalid_request');
      expect(await response.json()).toMatchObject({ error: 'invalid_request' });
    }
  });

  it('never takes the token from the query string (400 invalid_request)', async () => {
    const token = await issuer.mint({ scope: 'mcp:tools' });
    for (const request of [
      requestWith(undefined, `${RESOURCE}?access_token=${token}`),
      requestWith(`Bearer ${token}`, `${RESOURCE}?x=1&access_token=${token}`),
    ]) {
      const response = (await bearer.authenticate(request)) as Response;
      expect(response.status).toBe(400);
      expect((await response.json()).error_description).toMatch(/Authorization header/);
    }
  });

  it('answers 401 invalid_token for expired, not-yet-valid, wrong-audience and wrong-issuer tokens', async () => {
    const now = Math.floor(Date.now() / 1000);
    const tokens = {
      expired: await issuer.mint({ scope: 'mcp:tools', exp: now - 60 }),
      early: await issuer.mint({ scope: 'mcp:tools', nbf: now + 600 }),
      audience: await issuer.mint({ scope: 'mcp:tools', aud: 'https://other.example/mcp' }),
      issuer: await issuer.mint({ scope: 'mcp:tools', iss: 'https://evil.example' }),
      signature: await (await createTestIssuer()).mint({ scope: 'mcp:tools' }),
    };
    for (const [name, token] of Object.entries(tokens)) {
      const response = (await bearer.authenticate(requestWith(`Bearer ${token}`))) as Response;
      expect(response.status, name).toBe(401);
      const challenge = challengeOf(response);
      expect(challenge.error, name).toBe('invalid_token');
      expect(challenge.resource_metadata).toBe(METADATA_URL);
      expect(challenge.error_description).toBeTruthy();
      expect(await response.json()).toMatchObject({ error: 'invalid_token' });
    }
  });

  it('answers 403 insufficient_scope naming the required scopes when the token lacks them', async () => {
    const token = await issuer.mint({ scope: 'files:read' });
    const response = (await bearer.authenticate(requestWith(`Bearer ${token}`))) as Response;
    expect(response.status).toBe(403);
    expect(challengeOf(response)).toMatchObject({
      error: 'insufficient_scope',
      scope: 'mcp:tools',
      resource_metadata: METADATA_URL,
    });
    expect(await response.json()).toMatchObject({ error: 'insufficient_scope' });
  });

  it('refuses an AuthInfo past its expiresAt even when a custom verifier let it through', async () => {
    const lax = createBearerAuth({
      resource: RESOURCE,
      verifier: { verify: async (token) => ({ token, expiresAt: Math.floor(Date.now() / 1000) - 1 }) },
    });
    const response = (await lax.authenticate(requestWith('Bearer abc'))) as Response;
    expect(response.status).toBe(401);
    expect(challengeOf(response).error).toBe('invalid_token');
  });

  it('answers 503 (no challenge) when the verifier cannot decide, 500 when it breaks, and reports both', async () => {
    const seen: unknown[] = [];
    const make = (verifier: TokenVerifier) =>
      createBearerAuth({ resource: RESOURCE, verifier, onError: (error) => seen.push(error) });
    const unavailable = make({
      verify: async () => {
        throw new TokenVerificationError('verifier_unavailable', 'JWKS down', { reason: 'unreachable' });
      },
    });
    const broken = make({
      verify: async () => {
        throw new TypeError('bug');
      },
    });
    const first = (await unavailable.authenticate(requestWith('Bearer abc'))) as Response;
    expect(first.status).toBe(503);
    expect(first.headers.get('www-authenticate')).toBeNull();
    const second = (await broken.authenticate(requestWith('Bearer abc'))) as Response;
    expect(second.status).toBe(500);
    expect(seen).toHaveLength(2);
  });

  it('checks its options at setup', () => {
    const verifier = { verify: async (token: string) => ({ token }) };
    expect(() => createBearerAuth({ resource: 'mcp', verifier })).toThrow(AuthConfigError);
    expect(() => createBearerAuth({ resource: 'http://mcp.example.com/mcp', verifier })).toThrow(/https/);
    expect(() => createBearerAuth({ resource: RESOURCE } as never)).toThrow(/verifier/);
    expect(createBearerAuth({ resource: 'https://mcp.example.com', verifier }).resourceMetadataUrl).toBe(
      'https://mcp.example.com/.well-known/oauth-protected-resource',
    );
  });
});

describe('createBearerAuth: middleware (per-tool, per-prompt, per-resource scopes, step-up)', () => {
  const bearer = createBearerAuth({
    resource: RESOURCE,
    verifier: { verify: async (token) => ({ token }) },
    requiredScopes: ['mcp:tools'],
    toolScopes: { delete_file: ['files:write'], constructor_tool: [], 'admin_*': ['admin'] },
    promptScopes: { secrets: ['secrets:read'] },
    resourceScopes: { 'file:///private/*': ['files:read'] },
  });
  const reader: AuthInfo = { token: 't', scopes: ['mcp:tools'] };
  const writer: AuthInfo = { token: 't', scopes: ['mcp:tools', 'files:write'] };
  const server = new McpServer({ name: 'scoped', version: '1.0.0' });
  for (const name of ['echo', 'constructor', 'delete_file', 'admin_reset']) {
    server.registerTool(name, {}, () => ({ content: [{ type: 'text', text: name }] }));
  }
  server.registerPrompt('secrets', {}, () => ({ messages: [] }));
  server.registerResource('private', 'file:///private/a.txt', {}, (uri) => ({ contents: [{ uri, text: 'a' }] }));
  server.use(bearer.middleware);
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const run = async (method: string, params: Record<string, unknown>, auth: AuthInfo | undefined) => {
    const request: JsonRpcRequest = { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } };
    const response = (await server.handle(request, { info: auth === undefined ? {} : { auth } })) as {
      result?: unknown;
      error?: { code: number; message: string; data: Record<string, unknown> };
    };
    return response;
  };

  it('lets through tools without extra scopes, other methods, and a token with the scopes', async () => {
    expect((await run('tools/call', toolCall('echo').params as never, reader)).result).toBeDefined();
    expect((await run('tools/call', toolCall('constructor').params as never, reader)).result).toBeDefined();
    expect((await run('tools/list', {}, reader)).result).toBeDefined();
    expect((await run('tools/call', toolCall('delete_file').params as never, writer)).result).toBeDefined();
  });

  it('refuses 403 insufficient_scope naming every scope the call needs, with the HTTP status and challenge', async () => {
    const { error } = await run('tools/call', toolCall('delete_file').params as never, reader);
    expect(error).toMatchObject({
      code: 403,
      data: {
        error: 'insufficient_scope',
        scopes: ['mcp:tools', 'files:write'],
        missingScopes: ['files:write'],
        tool: 'delete_file',
        httpStatus: 403,
      },
    });
    expect(error!.message).toMatch(/files:write/);
    const challenge = (error!.data.httpHeaders as Record<string, string>)['www-authenticate']!;
    expect(challengeOf(new Response(null, { headers: { 'www-authenticate': challenge } }))).toMatchObject({
      error: 'insufficient_scope',
      scope: 'mcp:tools files:write',
      resource_metadata: METADATA_URL,
    });
  });

  it('refuses 401 with the needed scope when no identity came with the call', async () => {
    const { error } = await run('tools/call', toolCall('delete_file').params as never, undefined);
    expect(error).toMatchObject({ code: 401, data: { error: 'unauthorized', scopes: ['mcp:tools', 'files:write'] } });
  });

  it('checks tools by glob, prompts by name and resources by URI glob', async () => {
    expect((await run('tools/call', toolCall('admin_reset').params as never, reader)).error?.data).toMatchObject({
      tool: 'admin_reset',
      missingScopes: ['admin'],
    });
    expect((await run('prompts/get', { name: 'secrets' }, reader)).error?.data).toMatchObject({
      prompt: 'secrets',
      missingScopes: ['secrets:read'],
    });
    expect((await run('resources/read', { uri: 'file:///private/a.txt' }, reader)).error?.data).toMatchObject({
      resource: 'file:///private/a.txt',
      missingScopes: ['files:read'],
    });
    const full: AuthInfo = { token: 't', scopes: ['mcp:tools', 'secrets:read', 'files:read'] };
    expect((await run('prompts/get', { name: 'secrets' }, full)).result).toBeDefined();
    expect((await run('resources/read', { uri: 'file:///private/a.txt' }, full)).result).toBeDefined();
  });

  it("refuses every request once a long-lived connection's token expired", async () => {
    const expired: AuthInfo = { token: 't', scopes: ['mcp:tools'], expiresAt: Math.floor(Date.now() / 1000) - 1 };
    expect((await run('tools/list', {}, expired)).error).toMatchObject({ code: 401, data: { error: 'invalid_token' } });
  });
});

describe('readBearerToken and formatBearerChallenge', () => {
  it('reads the token from the header only', () => {
    expect(readBearerToken(requestWith('Bearer abc.def-ghi_~+/=='))).toEqual({
      kind: 'token',
      token: 'abc.def-ghi_~+/==',
    });
    expect(readBearerToken(requestWith('DPoP abc'))).toEqual({ kind: 'missing' });
    expect(readBearerToken(requestWith()).kind).toBe('missing');
  });

  it('quotes values and strips characters RFC 6750 forbids in error_description', () => {
    expect(
      formatBearerChallenge({ error: 'invalid_token', errorDescription: 'bad "token"\n\\ é', scope: ['a', 'b'] }),
    ).toBe('Bearer error="invalid_token", error_description="bad token ", scope="a b"');
    expect(formatBearerChallenge({})).toBe('Bearer');
  });
});
