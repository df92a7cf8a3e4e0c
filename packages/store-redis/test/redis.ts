import { type RedisServer, skipWithoutRedis, startRedisServer } from '@mcpkit/testkit/redis';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';

/** Whether this machine has no redis-server (outside CI the suites skip, saying so; in CI this throws). */
export const noRedis = skipWithoutRedis('@mcpkit/store-redis');

/** A client as deployments should make it: commands fail at once while Redis is unreachable, never queued. */
export async function connect(url: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: () => 50,
  });
  redis.on('error', () => undefined);
  await redis.connect();
  return redis;
}

/** A redis-server for the suite and a client to it, both closed after it. */
export function useRedis(): { server: RedisServer; redis: Redis } {
  const context = {} as { server: RedisServer; redis: Redis };
  beforeAll(async () => {
    context.server = await startRedisServer();
    context.redis = await connect(context.server.url);
  });
  afterAll(async () => {
    context.redis?.disconnect();
    await context.server?.stop();
  });
  return context;
}
