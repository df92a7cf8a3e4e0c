// Bearer auth on the WebSocket server: refusals at the upgrade, the identity in handlers, per-tool scopes and token
// expiry as JSON-RPC errors. Real connections on 127.0.0.1.

import {
  type BearerAuthOptions,
  BearerErrorCode,
  createBearerAuth,
  createJwtVerifier,
  TokenVerificationError,
} from '@mcpkit/auth/server';
import type { AuthInfo } from '@mcpkit/jsonrpc-core';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestIssuer, ISSUER, type TestIssuer } from '../../../../packages/auth/test/server/fixtures/issuer';
import {
  createProtectedServer,
  legacyInitialize,
  legacyToolCall,
  modernToolCall as modernCall,
  PROTECTED_SCOPES,
} from '../../../../packages/auth/test/server/fixtures/protected-server';
import { openRawWebSocket } from './fixtures/raw-websocket';
import {
  createWebSocketServer,
  type McpWebSocketServer,
  type WebSocketServerOptions,
} from './fixtures/websocket-server';

const METADATA = 'http://127.0.0.1:3000/.well-known/oauth-protected-resource/mcp';

const endpoints: McpWebSocketServer[] = [];
afterEach(async () => {
  await Promise.all(endpoints.splice(0).map((endpoint) => endpoint.close()));
});

/** The protected server on a WebSocket endpoint, bearer auth at the upgrade (`bearerOptions` override the defaults). */
async function serve(
  bearerOptions: Partial<BearerAuthOptions> & Pick<BearerAuthOptions, 'verifier'>,
  ws?: WebSocketServerOptions,
) {
  const { server: mcp, ran } = createProtectedServer('protected-ws');
  const bearer = createBearerAuth({ ...PROTECTED_SCOPES, ...bearerOptions });
  mcp.use(bearer.middleware);
  const endpoint = await createWebSocketServer(mcp, { port: 0, ...bearer.forWebSocket(), ...ws });
  endpoints.push(endpoint);
  return { endpoint, ran, bearer };
}

const bearerHeader = (token: string) => ({ authorization: `Bearer ${token}` });

describe('bearer auth on the WebSocket upgrade', async () => {
  const issuer: TestIssuer = await createTestIssuer();
  const verifier = createJwtVerifier({ issuer: ISSUER, keySet: issuer.jwks });
  const reader = await issuer.mint({ scope: 'mcp:tools' });
  const writer = await issuer.mint({ scope: 'mcp:tools files:write' });

  it('answers an upgrade without a token with 401 and the challenge that leads to the metadata', async () => {
    const { endpoint, ran } = await serve({ verifier });
    const answer = await openRawWebSocket(endpoint.url);
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe(`Bearer resource_metadata="${METADATA}", scope="mcp:tools"`);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers.upgrade).toBeUndefined();
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'unauthorized' });
    expect(endpoint.connections).toBe(0);
    expect(ran).toEqual([]);
  });

  it('answers 401 invalid_token for an expired, forged or foreign-audience token', async () => {
    const { endpoint } = await serve({ verifier });
    const now = Math.floor(Date.now() / 1000);
    const expired = await issuer.mint({ scope: 'mcp:tools', exp: now - 60 });
    const foreign = await issuer.mint({ scope: 'mcp:tools', aud: 'https://other.example.com/mcp' });
    const forged = `${reader.slice(0, reader.lastIndexOf('.'))}.${'A'.repeat(86)}`;
    for (const token of [expired, foreign, forged]) {
      const answer = await openRawWebSocket(endpoint.url, bearerHeader(token));
      expect(answer.status).toBe(401);
      expect(answer.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token", error_description="[^"]+"/);
      expect(answer.headers['www-authenticate']).toContain(`resource_metadata="${METADATA}"`);
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'invalid_token' });
    }
    expect(endpoint.connections).toBe(0);
  });

  it('answers 403 insufficient_scope when the token lacks the required scopes, 400 for a token in the URL', async () => {
    const { endpoint } = await serve({ verifier });
    const bare = await issuer.mint({ scope: 'profile' });
    const answer = await openRawWebSocket(endpoint.url, bearerHeader(bare));
    expect(answer.status).toBe(403);
    expect(answer.headers['www-authenticate']).toContain('error="insufficient_scope"');
    expect(answer.headers['www-authenticate']).toContain('scope="mcp:tools"');
    const inQuery = await openRawWebSocket(`${endpoint.url}?access_token=${reader}`, bearerHeader(reader));
    expect(inQuery.status).toBe(400);
    expect(JSON.parse(inQuery.body)).toMatchObject({ error: 'invalid_request' });
  });

  it('answers 503 without a challenge when the verifier cannot decide, and says so to onError', async () => {
    const errors: unknown[] = [];
    const down = {
      verify: async (): Promise<AuthInfo> => {
        throw new TokenVerificationError('verifier_unavailable', 'JWKS endpoint unreachable', {
          reason: 'unreachable',
        });
      },
    };
    const { endpoint } = await serve({ verifier: down, onError: (error) => errors.push(error) });
    const answer = await openRawWebSocket(endpoint.url, bearerHeader(reader));
    expect(answer.status).toBe(503);
    expect(answer.headers['www-authenticate']).toBeUndefined();
    expect(errors).toHaveLength(1);
  });

  it('hands the verified identity to tools as ctx.auth and checks tool scopes, in both eras', async () => {
    const { endpoint } = await serve({ verifier });
    const modern = await openRawWebSocket(endpoint.url, bearerHeader(reader));
    expect(modern.status).toBe(101);
    modern.send(modernCall('whoami'));
    expect(await modern.next()).toMatchObject({ result: { content: [{ text: 'alice app mcp:tools modern' }] } });
    modern.close();

    const legacy = await openRawWebSocket(endpoint.url, bearerHeader(reader));
    legacy.send(legacyInitialize('2025-06-18'));
    expect(await legacy.next()).toMatchObject({ result: { protocolVersion: '2025-06-18' } });
    legacy.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    legacy.send(legacyToolCall('whoami'));
    expect(await legacy.next()).toMatchObject({ result: { content: [{ text: 'alice app mcp:tools legacy' }] } });
    // The per-tool check does not depend on the era.
    legacy.send(legacyToolCall('delete_file'));
    expect(await legacy.next()).toMatchObject({
      error: { code: BearerErrorCode.InsufficientScope, data: { error: 'insufficient_scope', tool: 'delete_file' } },
    });
    legacy.close();
  });

  it('refuses an under-scoped tools/call with a JSON-RPC error a client can step up from; the connection stays', async () => {
    const { endpoint, ran } = await serve({ verifier });
    const connection = await openRawWebSocket(endpoint.url, bearerHeader(reader));
    const call = modernCall('delete_file');
    connection.send(call);
    const refused = await connection.next();
    expect(refused).toEqual({
      jsonrpc: '2.0',
      id: call.id,
      error: {
        code: BearerErrorCode.InsufficientScope,
        message: expect.stringContaining('"delete_file" needs files:write'),
        data: {
          error: 'insufficient_scope',
          scopes: ['mcp:tools', 'files:write'],
          missingScopes: ['files:write'],
          tool: 'delete_file',
          resourceMetadata: METADATA,
          wwwAuthenticate: expect.stringMatching(
            /^Bearer error="insufficient_scope", error_description="[^"]+", resource_metadata="[^"]+", scope="mcp:tools files:write"$/,
          ),
          httpStatus: 403,
          httpHeaders: { 'www-authenticate': expect.stringContaining('error="insufficient_scope"') },
        },
      },
    });
    expect(ran).toEqual([]);
    connection.send(modernCall('whoami'));
    expect(await connection.next()).toMatchObject({ result: { content: [{ text: 'alice app mcp:tools modern' }] } });
    connection.close();

    // Step-up: a new connection with a token that has the scope.
    const stepped = await openRawWebSocket(endpoint.url, bearerHeader(writer));
    stepped.send(modernCall('delete_file'));
    expect(await stepped.next()).toMatchObject({ result: { content: [{ text: 'deleted' }] } });
    expect(ran).toEqual(['whoami', 'delete_file']);
    stepped.close();
  });

  it('checks a tools/call sent in the same TCP write as the handshake (no window before the check is installed)', async () => {
    const { endpoint, ran } = await serve({ verifier });
    const call = modernCall('delete_file');
    const connection = await openRawWebSocket(endpoint.url, bearerHeader(reader), [call]);
    expect(connection.status).toBe(101);
    expect(await connection.next()).toMatchObject({ id: call.id, error: { code: BearerErrorCode.InsufficientScope } });
    expect(ran).toEqual([]);
    connection.close();
  });

  it('refuses every request once the connection’s token expired: 401 invalid_token, reconnect with a fresh one', async () => {
    let lifetimeSeconds = 0.3;
    const shortLived = {
      verify: async (token: string): Promise<AuthInfo> => ({
        token,
        subject: 'alice',
        clientId: 'app',
        scopes: ['mcp:tools'],
        expiresAt: Date.now() / 1000 + lifetimeSeconds,
      }),
    };
    const { endpoint, ran } = await serve({ verifier: shortLived });
    const connection = await openRawWebSocket(endpoint.url, bearerHeader('opaque-token'));
    connection.send(modernCall('whoami'));
    expect(await connection.next()).toMatchObject({ result: { content: [{ text: 'alice app mcp:tools modern' }] } });
    await new Promise((resolve) => setTimeout(resolve, 350));
    const call = modernCall('whoami');
    connection.send(call);
    expect(await connection.next()).toMatchObject({
      id: call.id,
      error: {
        code: BearerErrorCode.Unauthorized,
        message: expect.stringContaining('expired'),
        data: { error: 'invalid_token', wwwAuthenticate: expect.stringContaining('error="invalid_token"') },
      },
    });
    expect(ran).toEqual(['whoami']);
    connection.close();
    lifetimeSeconds = 300;
    const fresh = await openRawWebSocket(endpoint.url, bearerHeader('opaque-token-2'));
    fresh.send(modernCall('whoami'));
    expect(await fresh.next()).toMatchObject({ result: { content: [{ text: 'alice app mcp:tools modern' }] } });
    fresh.close();
  });

  it('refuses a scoped tool on an anonymous connection (the middleware without authenticate)', async () => {
    const { endpoint, ran } = await serve({ verifier }, { authenticate: undefined });
    const connection = await openRawWebSocket(endpoint.url);
    expect(connection.status).toBe(101);
    const call = modernCall('delete_file');
    connection.send(call);
    expect(await connection.next()).toMatchObject({
      id: call.id,
      error: { code: BearerErrorCode.Unauthorized, data: { error: 'unauthorized', tool: 'delete_file' } },
    });
    expect(ran).toEqual([]);
    connection.close();
  });
});
