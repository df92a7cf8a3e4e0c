import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import { buildRequestMeta, standardHeadersFor } from '@mcpkit/protocol';
import { createStreamableHttpHandler } from '@mcpkit/transport-http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  InMemoryRateLimitStore,
  MiddlewareErrorCode,
  type RateLimitErrorData,
  rateLimit,
} from '../src/rate-limit/index';
import { closePairs, pair } from './fixtures/memory-pair';
import { testServer } from './fixtures/servers';

afterEach(closePairs);

async function refusal(call: Promise<unknown>): Promise<JsonRpcError & { data: RateLimitErrorData }> {
  const error = await call.then(
    () => {
      throw new Error('expected the call to be refused');
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(JsonRpcError);
  return error as JsonRpcError & { data: RateLimitErrorData };
}

describe('rateLimit', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`refuses past the burst with 429, the retry delay and the HTTP status and header in data (${era})`, async () => {
      let now = 1_000_000;
      const { server, calls } = testServer();
      server.use(rateLimit({ limit: { capacity: 2, refillPerSecond: 0.5 }, now: () => now }));
      const { client } = await pair(server, { era, messageInfo: { auth: { token: 't', subject: 'ada' } } });
      await client.callTool({ name: 'echo', arguments: { text: '1' } });
      await client.callTool({ name: 'echo', arguments: { text: '2' } });
      const error = await refusal(client.callTool({ name: 'echo', arguments: { text: '3' } }));
      expect(error.code).toBe(MiddlewareErrorCode.RateLimited);
      expect(error.code).toBe(429);
      expect(error.message).toBe('Rate limit exceeded: 2 requests, 0.5 more per second; retry in 2 s');
      expect(error.data).toEqual({
        retryAfterMs: 2_000,
        limit: 'caller',
        capacity: 2,
        refillPerSecond: 0.5,
        httpStatus: 429,
        httpHeaders: { 'retry-after': '2' },
      });
      expect(calls).toEqual(['echo', 'echo']);
      now += 2_000; // one token back
      await client.callTool({ name: 'echo', arguments: { text: '4' } });
      expect(calls).toHaveLength(3);
    });
  }

  it('gives every principal its own bucket, and never limits the handshake', async () => {
    const { server } = testServer();
    server.use(rateLimit({ limit: { capacity: 1, refillPerSecond: 0 } }));
    const ada = await pair(server, { era: 'legacy', messageInfo: { auth: { token: 'a', subject: 'ada' } } });
    const bob = await pair(server, { era: 'legacy', messageInfo: { auth: { token: 'b', subject: 'bob' } } });
    await ada.client.callTool({ name: 'echo', arguments: {} });
    await bob.client.callTool({ name: 'echo', arguments: {} });
    await refusal(ada.client.callTool({ name: 'echo', arguments: {} }));
    // initialize and ping are exempt: both clients connected although each bucket holds one token.
    await ada.client.ping();
  });

  it('limits a tool per caller on top of the caller limit, and names the tool', async () => {
    const { server } = testServer();
    server.use(
      rateLimit({
        now: () => 0,
        limit: { capacity: 100, refillPerSecond: 1 },
        tools: { delete_all: { capacity: 1, refillPerSecond: 0.1 } },
      }),
    );
    const { client } = await pair(server, { era: 'modern', sessionId: 's-1' });
    await client.callTool({ name: 'delete_all', arguments: {} });
    const error = await refusal(client.callTool({ name: 'delete_all', arguments: {} }));
    expect(error.message).toBe(
      'Rate limit exceeded for tool "delete_all": 1 requests, 0.1 more per second; retry in 10 s',
    );
    expect(error.data).toMatchObject({ limit: 'tool', tool: 'delete_all', retryAfterMs: 10_000 });
    await client.callTool({ name: 'echo', arguments: {} }); // other tools are not affected
  });

  it('keys by session or by the forwarded address when asked', async () => {
    const { server } = testServer();
    const store = new InMemoryRateLimitStore();
    const seen: string[] = [];
    server.use(
      rateLimit({
        limit: { capacity: 5, refillPerSecond: 1 },
        by: 'address',
        store: {
          take: (key, bucket, cost, now) => {
            seen.push(key);
            return store.take(key, bucket, cost, now);
          },
        },
      }),
    );
    const { client } = await pair(server, {
      era: 'modern',
      messageInfo: { request: { headers: { 'x-forwarded-for': '203.0.113.9, 10.0.0.1' } } },
    });
    await client.callTool({ name: 'echo', arguments: {} });
    expect(seen).toEqual(['mcp:address:203.0.113.9']);
  });

  it('refuses a configuration without limits, and a bad limit, at once', () => {
    expect(() => rateLimit({})).toThrow(TypeError);
    expect(() => rateLimit({ limit: { capacity: 0, refillPerSecond: 1 } })).toThrow(RangeError);
  });

  it('the in-memory store refills over time and drops the least recently used bucket past its bound', () => {
    const store = new InMemoryRateLimitStore({ maxBuckets: 2 });
    const spec = { capacity: 2, refillPerSecond: 1 };
    expect(store.takeNow('a', spec, 2, 0)).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0 });
    expect(store.takeNow('a', spec, 1, 500)).toEqual({ allowed: false, remaining: 0, retryAfterMs: 500 });
    expect(store.takeNow('a', spec, 1, 1_000).allowed).toBe(true);
    store.takeNow('b', spec, 1, 1_000);
    store.takeNow('a', spec, 0, 1_000); // a is now the most recently used
    store.takeNow('c', spec, 1, 1_000); // evicts b
    expect(store.size).toBe(2);
    expect(store.takeNow('b', spec, 2, 1_000).allowed).toBe(true); // b starts full again
    expect(store.takeNow('x', { capacity: 1, refillPerSecond: 0 }, 2, 0).retryAfterMs).toBe(Infinity);
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`over HTTP, a request refused before its handler gets status 429 with Retry-After (${era})`, async () => {
      const { server } = testServer();
      server.use(rateLimit({ limit: { capacity: 1, refillPerSecond: 0.5 }, now: () => 0 }));
      const handler = createStreamableHttpHandler(server);
      const meta =
        era === 'modern' ? { _meta: buildRequestMeta({ protocolVersion: '2026-07-28', clientCapabilities: {} }) } : {};
      let headers: Record<string, string> = {
        host: '127.0.0.1:3000',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      if (era === 'legacy') {
        const init = await handler.handle(
          new Request('http://127.0.0.1:3000/mcp', {
            method: 'POST',
            headers,
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 0,
              method: 'initialize',
              params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
            }),
          }),
        );
        headers = {
          ...headers,
          'mcp-session-id': init.headers.get('mcp-session-id')!,
          'mcp-protocol-version': '2025-11-25',
        };
      }
      const call = (id: number) => {
        const body = {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'echo', arguments: { text: 'x' }, ...meta },
        };
        return handler.handle(
          new Request('http://127.0.0.1:3000/mcp', {
            method: 'POST',
            headers: era === 'modern' ? { ...headers, ...standardHeadersFor(body as never) } : headers,
            body: JSON.stringify(body),
          }),
        );
      };
      expect((await call(1)).status).toBe(200);
      const refused = await call(2);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('2');
      expect((await refused.json()).error).toMatchObject({ code: 429, data: { retryAfterMs: 2_000 } });
      await handler.close();
    });
  }
});
