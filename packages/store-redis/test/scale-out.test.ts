import { Client } from '@mcpkit/client';
import { rateLimit } from '@mcpkit/middleware/rate-limit';
import { McpServer } from '@mcpkit/server';
import { countRedisRoundTrips, type RoundTripCounter } from '@mcpkit/testkit/redis';
import {
  createStreamableHttpHandler,
  StreamableHttpClientTransport,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from '@mcpkit/transport-http';
import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisEventStore, RedisMessageBus, RedisNonceStore, RedisSessionStore } from '../src/index';
import { RedisRateLimitStore } from '../src/rate-limit/index';
import { connect, noRedis, useRedis } from './redis';

// Three instances in this process, each with its own Redis client (as separate processes would have), behind a
// round-robin fetch: what a request costs in Redis round trips, and the stores that make 2026-07-28 rounds and rate
// limits hold across instances.

const URL_ = 'http://127.0.0.1:3000/mcp';

interface Instance {
  handler: StreamableHttpHandler;
  redis: Redis;
  counter: RoundTripCounter;
}

describe.skipIf(noRedis)('scale-out over Redis', () => {
  const context = useRedis();
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function cluster(
    options: Partial<StreamableHttpHandlerOptions> = {},
    setup?: (mcp: McpServer, redis: Redis) => void,
  ) {
    const instances: Instance[] = [];
    for (let index = 0; index < 3; index++) {
      const redis = await connect(context.server.url);
      const bus = new RedisMessageBus(redis);
      const mcp = new McpServer(
        { name: 'scale-out', version: '1.0.0' },
        { requestStateSecret: 'shared-secret', nonceStore: new RedisNonceStore(redis) },
      );
      mcp.registerTool(
        'echo',
        { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
        (args) => ({
          content: [{ type: 'text', text: String((args as { text?: string }).text) }],
        }),
      );
      mcp.registerTool('ask', { inputSchema: { type: 'object' } }, async (_args, ctx) => {
        const answer = await ctx.elicit({
          message: 'Name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        });
        return { content: [{ type: 'text', text: `hello ${String(answer.content?.name)}` }] };
      });
      setup?.(mcp, redis);
      const handler = createStreamableHttpHandler(mcp, {
        instanceId: `i${index}`,
        sessionStore: new RedisSessionStore(redis),
        eventStore: new RedisEventStore(redis),
        bus,
        ...options,
      });
      const counter = countRedisRoundTrips(redis);
      instances.push({ handler, redis, counter });
      cleanup.push(async () => {
        await handler.close();
        await bus.close();
        redis.disconnect();
      });
    }
    let next = 0;
    const fetchRoundRobin: typeof fetch = async (input, init) =>
      instances[next++ % instances.length]!.handler.handle(new Request(input, init));
    return { instances, fetch: fetchRoundRobin };
  }

  async function client(fetchImpl: typeof fetch, era: 'legacy' | 'modern'): Promise<Client> {
    const connected = new Client(
      { name: 'c', version: '1' },
      { handlers: { elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) } },
    );
    await connected.connect(new StreamableHttpClientTransport(new URL(URL_), { fetch: fetchImpl }), { era });
    cleanup.push(() => connected.close());
    return connected;
  }

  /** Redis round trips per call of `echo`, over `calls` calls once every instance has served the session. */
  async function roundTripsPerCall(instances: Instance[], connected: Client, calls: number): Promise<number> {
    for (let warm = 0; warm < 6; warm++) await connected.callTool({ name: 'echo', arguments: { text: 'warm' } });
    for (const instance of instances) instance.counter.reset();
    for (let call = 0; call < calls; call++) await connected.callTool({ name: 'echo', arguments: { text: `${call}` } });
    const total = instances.reduce((sum, instance) => sum + instance.counter.roundTrips, 0);
    return total / calls;
  }

  it('a legacy session in the steady state: 2 round trips per call over SSE (touch, the response event), 1 in JSON mode', async () => {
    const sse = await cluster();
    expect(await roundTripsPerCall(sse.instances, await client(sse.fetch, 'legacy'), 30)).toBe(2);
    const json = await cluster({ responseMode: 'json' });
    expect(await roundTripsPerCall(json.instances, await client(json.fetch, 'legacy'), 30)).toBe(1);
  });

  it('2026-07-28: no round trip for a request that needs no shared state', async () => {
    const { instances, fetch } = await cluster({ responseMode: 'auto' });
    expect(await roundTripsPerCall(instances, await client(fetch, 'modern'), 30)).toBe(0);
  });

  it('2026-07-28: an input round answered on another instance, its requestState accepted once across all of them', async () => {
    const { fetch, instances } = await cluster({ responseMode: 'auto' });
    const connected = await client(fetch, 'modern');
    const result = await connected.callTool({ name: 'ask', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    // The token of a first round, replayed on each instance: accepted on one, refused on the others.
    const call = (id: number, params: Record<string, unknown>) =>
      instances[id % 3]!.handler.handle(
        new Request(URL_, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': 'ask',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: {
              name: 'ask',
              arguments: {},
              ...params,
              _meta: {
                'io.modelcontextprotocol/protocolVersion': '2026-07-28',
                'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
                'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
              },
            },
          }),
        }),
      );
    const first = (await (await call(0, {})).json()) as { result: { requestState: string; inputRequests: object } };
    const key = Object.keys(first.result.inputRequests)[0]!;
    const answer = {
      requestState: first.result.requestState,
      inputResponses: { [key]: { action: 'accept', content: { name: 'Bo' } } },
    };
    const outcomes = await Promise.all([1, 2, 3].map(async (id) => (await call(id, answer)).json()));
    const accepted = outcomes.filter((outcome) => (outcome as { result?: unknown }).result !== undefined);
    const replayed = outcomes.filter(
      (outcome) => (outcome as { error?: { data?: { reason?: string } } }).error?.data?.reason === 'replayed',
    );
    expect(accepted).toHaveLength(1);
    expect(replayed).toHaveLength(2);
  });

  it('a rate limit holds across instances', async () => {
    const prefix = `rl${Date.now()}:`;
    const { fetch } = await cluster({}, (mcp, redis) => {
      const store = new RedisRateLimitStore(redis, { prefix });
      mcp.use(rateLimit({ limit: { capacity: 3, refillPerSecond: 0.001 }, store, by: () => 'one-caller' }));
    });
    const connected = await client(fetch, 'modern');
    for (let call = 0; call < 3; call++) await connected.callTool({ name: 'echo', arguments: { text: 'ok' } });
    await expect(connected.callTool({ name: 'echo', arguments: { text: 'one too many' } })).rejects.toMatchObject({
      code: 429,
    });
  });

  it('Redis unreachable: the nonce and rate-limit stores refuse with 503, never let a request through unchecked', async () => {
    const closed = await connect(context.server.url);
    closed.disconnect();
    const nonces = new RedisNonceStore(closed);
    await expect(nonces.consume('n', Date.now() + 1000)).rejects.toMatchObject({
      code: -32000,
      data: { reason: 'store_unavailable', httpStatus: 503, httpHeaders: { 'retry-after': '1' } },
    });
    const buckets = new RedisRateLimitStore(closed);
    await expect(buckets.take('k', { capacity: 1, refillPerSecond: 1 }, 1, Date.now())).rejects.toMatchObject({
      data: { httpStatus: 503 },
    });
  });
});
