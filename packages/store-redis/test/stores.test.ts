import { InMemoryRateLimitStore } from '@mcpkit/middleware/rate-limit';
import type { BusMessage } from '@mcpkit/server';
import type { SessionRecord } from '@mcpkit/transport-http';
import { describe, expect, it } from 'vitest';
import { RedisEventStore, RedisMessageBus, RedisNonceStore, RedisSessionStore } from '../src/index';
import { RedisRateLimitStore } from '../src/rate-limit/index';
import { noRedis, useRedis } from './redis';

function session(overrides: Partial<SessionRecord> = {}): SessionRecord {
  return {
    sessionId: `s-${Math.random().toString(36).slice(2)}`,
    principal: null,
    protocolVersion: '2025-11-25',
    clientCapabilities: { elicitation: {} },
    clientInfo: { name: 'c', version: '1' },
    resourceSubscriptions: [],
    initialized: false,
    home: 'a',
    createdAt: 1_000,
    version: 1,
    ...overrides,
  };
}

describe.skipIf(noRedis)('the Redis stores', () => {
  const context = useRedis();

  it('sessions: stored as created, touched, patched by delta, claimed, deleted; every key expires', async () => {
    const store = new RedisSessionStore(context.redis, { prefix: 't1:' });
    const record = session({ principal: 'alice', resourceSubscriptions: ['memo://a'] });
    await store.create(record, 60_000);
    expect(await store.get(record.sessionId)).toEqual(record);
    expect(await store.get('nope')).toBeUndefined();
    expect(await store.touch(record.sessionId, 60_000, { id: 'a.1', requests: [1, 'x'] })).toBe(1);
    expect(await store.streamRequests(record.sessionId, 'a.1')).toEqual([1, 'x']);
    expect(await store.streamRequests(record.sessionId, 'a.2')).toBeUndefined();
    expect(await store.touch('nope', 60_000)).toBeUndefined();
    const version = await store.update(
      record.sessionId,
      { logLevel: 'info', initialized: true, subscribe: ['memo://b'], unsubscribe: ['memo://a'] },
      60_000,
    );
    expect(version).toBe(2);
    expect(await store.get(record.sessionId)).toMatchObject({
      logLevel: 'info',
      initialized: true,
      resourceSubscriptions: ['memo://b'],
      version: 2,
    });
    // Another instance took over only if the home was still the one it found gone.
    expect(await store.claimHome(record.sessionId, 'b', 'c')).toBe('a');
    expect(await store.claimHome(record.sessionId, 'a', 'c')).toBe('c');
    expect((await store.get(record.sessionId))?.home).toBe('c');
    const keys = await context.redis.keys(`t1:s:{${record.sessionId}}*`);
    expect(keys).toHaveLength(3);
    for (const key of keys) {
      const ttl = await context.redis.pttl(key);
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
    await store.delete(record.sessionId);
    expect(await store.get(record.sessionId)).toBeUndefined();
    expect(await context.redis.keys(`t1:s:{${record.sessionId}}*`)).toEqual([]);
  });

  it('sessions: expire after the idle timeout unless touched', async () => {
    const store = new RedisSessionStore(context.redis, { prefix: 't2:' });
    const record = session();
    await store.create(record, 150);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await store.touch(record.sessionId, 150)).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await store.get(record.sessionId)).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await store.get(record.sessionId)).toBeUndefined();
  });

  it('events: replayed after a seq per stream, trimmed to the newest, kept for ttlMs, deleted with the session', async () => {
    const store = new RedisEventStore(context.redis, { prefix: 't3:', maxEventsPerStream: 3, ttlMs: 30_000 });
    for (let seq = 1; seq <= 5; seq++) {
      await store.append('s1', 'a.1', {
        id: `a.1-${seq.toString(36)}`,
        seq,
        previousSeq: seq - 1,
        data: `{"n":${seq}}`,
      });
    }
    await store.append('s1', '0', { id: '0-9', seq: 9, previousSeq: 0, data: '{"same":1}' });
    await store.append('s1', '0', { id: '0-a', seq: 10, previousSeq: 9, data: '{"same":1}' });
    expect(await store.replayAfter('s1', 'a.1', 3)).toEqual([
      { id: 'a.1-4', seq: 4, previousSeq: 3, data: '{"n":4}' },
      { id: 'a.1-5', seq: 5, previousSeq: 4, data: '{"n":5}' },
    ]);
    // Only the newest three are kept: the replay from 0 starts at seq 3, whose previousSeq (2) shows the gap.
    expect((await store.replayAfter('s1', 'a.1', 0)).map((event) => event.seq)).toEqual([3, 4, 5]);
    expect((await store.replayAfter('s1', '0', 0)).map((event) => event.data)).toEqual(['{"same":1}', '{"same":1}']);
    for (const key of await context.redis.keys('t3:e:{s1}*')) {
      expect(await context.redis.pttl(key)).toBeGreaterThan(20_000);
    }
    await store.deleteSession('s1');
    expect(await context.redis.keys('t3:e:{s1}*')).toEqual([]);
  });

  it('bus: delivers to every subscriber in order, says when nobody listens, unsubscribes', async () => {
    const a = new RedisMessageBus(context.redis, { prefix: 't4:' });
    const b = new RedisMessageBus(context.redis, { prefix: 't4:' });
    const heardA: BusMessage[] = [];
    const heardB: BusMessage[] = [];
    expect(await a.publish('topic', { n: 0 })).toBe(false);
    const stopA = await a.subscribe('topic', (message) => heardA.push(message));
    const stopB = await b.subscribe('topic', (message) => heardB.push(message));
    for (let n = 1; n <= 20; n++) expect(await a.publish('topic', { n, text: 'ünïcode' })).toBe(true);
    await waitFor(() => heardA.length === 20 && heardB.length === 20);
    expect(heardA.map((message) => message.n)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    expect(heardB[0]).toEqual({ n: 1, text: 'ünïcode' });
    await stopA();
    await stopB();
    expect(await a.publish('topic', { n: 21 })).toBe(false);
    await Promise.all([a.close(), b.close()]);
  });

  it('nonces: each accepted once, the key expiring when the token would', async () => {
    const store = new RedisNonceStore(context.redis, { prefix: 't5:' });
    const expiresAt = Date.now() + 60_000;
    expect(await store.consume('n1', expiresAt)).toBe(true);
    expect(await store.consume('n1', expiresAt)).toBe(false);
    expect(await store.consume('n2', expiresAt)).toBe(true);
    const ttl = await context.redis.pttl('t5:n:n1');
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('rate limit: the same decisions as the in-memory store, and the bucket key expires once it would be full', async () => {
    const redis = new RedisRateLimitStore(context.redis, { prefix: 't6:' });
    const memory = new InMemoryRateLimitStore();
    const spec = { capacity: 3, refillPerSecond: 2 };
    const times = [0, 0, 0, 0, 100, 400, 500, 2_000, 2_000, 2_000, 2_000];
    for (const at of times) {
      const now = 1_000_000 + at;
      expect(await redis.take('caller', spec, 1, now)).toEqual(memory.takeNow('caller', spec, 1, now));
    }
    const never = { capacity: 1, refillPerSecond: 0 };
    await redis.take('frozen', never, 1, 0);
    expect(await redis.take('frozen', never, 1, 0)).toEqual({
      allowed: false,
      remaining: 0,
      retryAfterMs: Number.POSITIVE_INFINITY,
    });
    const ttl = await context.redis.pttl('t6:caller');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(2_600);
  });
});

async function waitFor(check: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
