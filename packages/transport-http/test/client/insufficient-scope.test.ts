// A per-tool 403 names what is missing: the error, the scopes the server asks for, and the challenge itself.
import { Client } from '@mcpkit/client';
import { describe, expect, it } from 'vitest';
import { StreamableHttpClientTransport, StreamableHttpError } from '../../src/index';
import { json, modernRequest, scriptedFetch } from './helpers';

const CHALLENGE =
  'Bearer error="insufficient_scope", scope="weather:read weather:write", resource_metadata="http://mcp.test/.well-known/oauth-protected-resource/mcp", error_description="needs \\"weather:write\\""';

const DISCOVER = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {} },
  ttlMs: 0,
  cacheScope: 'private',
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } },
};

function forbiddenCalls() {
  return scriptedFetch((call) => {
    const body = call.body as { id: number; method: string };
    if (body.method === 'tools/call') {
      return new Response('', { status: 403, headers: { 'www-authenticate': CHALLENGE } });
    }
    return json({ jsonrpc: '2.0', id: body.id, result: DISCOVER });
  });
}

describe('HTTP 403 insufficient_scope', () => {
  it('the transport error names the scopes and carries the challenge', async () => {
    const transport = new StreamableHttpClientTransport('http://mcp.test/mcp', {
      fetch: forbiddenCalls(),
      standaloneStream: false,
    });
    await transport.start();
    const error = await transport.send(modernRequest(3, 'tools/call')).catch((caught: unknown) => caught);
    expect(StreamableHttpError.is(error)).toBe(true);
    expect((error as Error).message).toBe(
      `POST http://mcp.test/mcp answered 'tools/call' (id 3) with HTTP 403 (insufficient_scope; it needs the scopes weather:read weather:write). WWW-Authenticate: ${CHALLENGE}`,
    );
    expect((error as StreamableHttpError).data).toMatchObject({
      status: 403,
      authError: 'insufficient_scope',
      requiredScopes: ['weather:read', 'weather:write'],
      challenge: CHALLENGE,
    });
    await transport.close();
  });

  it('reaches the caller of client.callTool as it is', async () => {
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(
      new StreamableHttpClientTransport('http://mcp.test/mcp', { fetch: forbiddenCalls(), standaloneStream: false }),
    );
    await expect(client.callTool({ name: 'set_forecast', arguments: {} })).rejects.toThrow(
      /answered 'tools\/call' \(id \d+\) with HTTP 403 \(insufficient_scope; it needs the scopes weather:read weather:write\)/,
    );
    await client.close();
  });

  it('a 401 without a scope says what the server answered', async () => {
    const fetch = scriptedFetch(
      () => new Response('', { status: 401, headers: { 'www-authenticate': 'Bearer error="invalid_token"' } }),
    );
    const transport = new StreamableHttpClientTransport('http://mcp.test/mcp', { fetch, standaloneStream: false });
    await transport.start();
    const error = await transport.send(modernRequest(1, 'tools/list')).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(
      /with HTTP 401 \(invalid_token\)\. WWW-Authenticate: Bearer error="invalid_token"$/,
    );
    await transport.close();
  });
});
