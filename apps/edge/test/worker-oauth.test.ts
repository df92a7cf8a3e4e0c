import { Client } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker, type RunningWorkers, startWorkers } from './workerd';

// @mcpkit/middleware's OAuth resource-server helpers inside the Worker: tokens verified with Web Crypto in workerd,
// the identity reaching handlers in the Worker (2026-07-28) and in the session's Durable Object (legacy).

let workers: RunningWorkers;
let token: string;
beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  token = await new SignJWT({ scope: 'mcp' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer('https://auth.example')
    .setAudience('edge')
    .setSubject('alice')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(privateKey);
  workers = await startWorkers(await bundleWorker('test/fixtures/oauth-worker.ts'), {
    bindings: { JWKS: JSON.stringify({ keys: [jwk] }) },
  });
}, 30_000);
afterAll(async () => {
  await workers?.dispose();
});

function textOf(result: unknown): string {
  return (result as { content: Array<{ text: string }> }).content[0]!.text;
}

describe('OAuth resource server in the Worker', () => {
  it('refuses a request without a token: 401 with the resource metadata challenge', async () => {
    const response = await workers.fetchVia('a')(workers.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer .*resource_metadata=/);
  });

  it('refuses a token signed by another key', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer('https://auth.example')
      .setAudience('edge')
      .setSubject('mallory')
      .setExpirationTime('5m')
      .sign(privateKey);
    const response = await workers.fetchVia('a')(workers.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${forged}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
  });

  for (const era of ['modern', 'legacy'] as const) {
    it(`passes the verified identity to the handler (${era}${era === 'legacy' ? ': in the session object' : ''})`, async () => {
      const client = new Client({ name: 'edge-test', version: '1.0.0' });
      const transport = new StreamableHttpClientTransport(workers.url, {
        fetch: workers.fetchVia('b'),
        headers: { authorization: `Bearer ${token}` },
      });
      await client.connect(transport, era === 'modern' ? { era: 'modern' } : { protocolVersion: '2025-11-25' });
      if (era === 'legacy') expect(transport.sessionId).toContain('.');
      expect(textOf(await client.callTool({ name: 'whoami' }))).toBe('alice');
      await client.close();
    });
  }
});
