import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AuthorizationError,
  findAuthorizationError,
  InMemoryOAuthStore,
  OAuthClient,
  OAuthError,
  UnauthorizedError,
} from '@mcpkit/auth/client';
import type { JsonRpcMessage, JsonRpcRequest, Transport } from '@mcpkit/jsonrpc-core';
import { describe, expect, it } from 'vitest';
import { browserOf, FakeOAuthWorld } from '../../auth/test/client/fake-oauth-world';
import { Client } from '../src/index';
import { CLIENT_INFO } from './helpers/harness';

/**
 * A transport over a `fetch`, as the Streamable HTTP transport uses one: each message is a POST, a JSON answer is
 * delivered, and a failed fetch rejects `send` with an ERR_NETWORK error whose `cause` is what fetch threw.
 */
class FetchTransport implements Transport {
  onmessage?: (message: JsonRpcMessage) => void;
  onclose?: (reason?: Error) => void;
  onerror?: (error: Error) => void;
  readonly sent: JsonRpcMessage[] = [];
  constructor(
    readonly url: URL,
    readonly fetch: typeof globalThis.fetch,
  ) {}
  async start(): Promise<void> {}
  async send(message: JsonRpcMessage): Promise<void> {
    this.sent.push(message);
    let response: Response;
    try {
      response = await this.fetch(this.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(message),
      });
    } catch (cause) {
      throw Object.assign(new Error(`POST ${this.url.href} failed`, { cause }), { code: 'ERR_NETWORK' });
    }
    if (response.status === 202) return;
    const answer = (await response.json()) as JsonRpcMessage;
    queueMicrotask(() => this.onmessage?.(answer));
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
  methods(): string[] {
    return this.sent.filter((message): message is JsonRpcRequest => 'method' in message).map((m) => m.method);
  }
}

function failingFetch(error: unknown): typeof fetch {
  return async () => {
    throw error;
  };
}

const SERVER = new URL('https://mcp.example.com/mcp');

describe('negotiate: authorization failures during the era probe', () => {
  it.each([
    ['AuthorizationError', new AuthorizationError('ERR_RESOURCE_MISMATCH', 'wrong resource', { resource: 'x' })],
    ['UnauthorizedError', new UnauthorizedError(new URL('https://auth.example.com/authorize'))],
    ['OAuthError', new OAuthError('invalid_client', 'refused', { source: 'authorization-server', status: 401 })],
  ])('throws a wrapped %s at once: no initialize fallback', async (_name, authError) => {
    const transport = new FetchTransport(SERVER, failingFetch(authError));
    const client = new Client(CLIENT_INFO);
    const error = await client.connect(transport).catch((reason: unknown) => reason);
    expect((error as Error).message).toContain('failed');
    let cause: unknown = error;
    while (cause instanceof Error && cause !== authError) cause = cause.cause;
    expect(cause).toBe(authError);
    expect(transport.methods()).toEqual(['server/discover']);
  });

  it('still falls back to initialize when the probe fails for another reason', async () => {
    let calls = 0;
    const transport = new FetchTransport(SERVER, async (_input, init) => {
      calls++;
      const request = JSON.parse(String(init?.body)) as JsonRpcRequest;
      if (request.method === 'server/discover') throw new TypeError('fetch failed');
      if (request.method === 'initialize') {
        return Response.json({
          jsonrpc: '2.0',
          id: request.id,
          result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } },
        });
      }
      return new Response(null, { status: 202 });
    });
    const client = new Client(CLIENT_INFO);
    await client.connect(transport);
    expect(client.era).toBe('legacy');
    expect(transport.methods()).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
    expect(calls).toBe(3);
    await client.close();
  });

  it('end to end: a refused resource metadata document fails connect after one discovery', async () => {
    const world = new FakeOAuthWorld({ prmResource: 'https://other.example.com/mcp' });
    const oauth = new OAuthClient({
      provider: {
        store: new InMemoryOAuthStore(),
        redirectUrl: 'http://127.0.0.1:8765/callback',
        redirectToAuthorization: browserOf(world),
      },
      fetch: world.fetch,
    });
    const transport = new FetchTransport(world.serverUrl, oauth.fetch);
    const client = new Client(CLIENT_INFO);
    const error = await client.connect(transport).catch((reason: unknown) => reason);
    expect(findAuthorizationError(error)?.code).toBe('ERR_RESOURCE_MISMATCH');
    expect(transport.methods()).toEqual(['server/discover']);
    expect(world.requestsTo(world.prmUrl)).toHaveLength(1);
    expect(world.requestsTo(world.serverUrl.href)).toHaveLength(1);
  });
});

describe('the root entry and the /auth subpath', () => {
  it('no root module imports the /auth subpath (authorization errors are recognised by brand)', async () => {
    const folder = fileURLToPath(new URL('../src/', import.meta.url));
    const files = (await readdir(folder)).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));
    expect(files).toContain('negotiation.ts');
    const offenders: string[] = [];
    for (const name of files) {
      const source = await readFile(join(folder, name), 'utf8');
      if (/from\s+['"](?:\.\/auth(?:\/[^'"]*)?|@mcpkit\/client\/auth)['"]/.test(source)) offenders.push(name);
    }
    expect(offenders).toEqual([]);
  });
});
