import type { BucketSpec, RateLimitStore, TakeResult } from '@mcpkit/middleware/rate-limit';
import type { Redis } from 'ioredis';
import { RedisScript } from '../redis-script';
import { guard } from '../unavailable';

/** Options of {@link RedisRateLimitStore}. */
export interface RedisRateLimitStoreOptions {
  /** Prefix of every key. Default `'mcp:rl:'`. */
  prefix?: string;
}

// The same token bucket as the in-memory store, as one script: refill for the time elapsed, take or refuse, and let
// the key expire once the bucket would be full again (a full bucket and a missing one mean the same).
const TAKE = new RedisScript(`
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
local bucket = redis.call('HMGET', KEYS[1], 't', 'u')
local tokens = tonumber(bucket[1])
if tokens == nil then
  tokens = capacity
else
  local elapsed = math.max(0, now - tonumber(bucket[2])) / 1000
  tokens = math.min(capacity, tokens + elapsed * rate)
end
local allowed = 0
local retry = 0
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
elseif rate > 0 and cost <= capacity then
  retry = math.ceil((cost - tokens) / rate * 1000)
else
  retry = -1
end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'u', tostring(now))
local ttl = 86400000
if rate > 0 then ttl = math.ceil((capacity - tokens) / rate * 1000) + 1000 end
redis.call('PEXPIRE', KEYS[1], ttl)
return { allowed, tostring(math.floor(tokens)), tostring(retry) }
`);

/**
 * Token buckets in Redis for `rateLimit({ store })` of `@mcpkit/middleware/rate-limit`, so a caller's limit holds
 * across every instance: each take is one script (refill, take or refuse, expire). If Redis does not answer, the
 * request is refused with 503 (`data.httpStatus`) rather than let through unlimited.
 *
 * @example
 * import { rateLimit } from '@mcpkit/middleware/rate-limit';
 * import { RedisRateLimitStore } from '@mcpkit/store-redis/rate-limit';
 * mcp.use(rateLimit({ limit: { capacity: 20, refillPerSecond: 5 }, store: new RedisRateLimitStore(redis) }));
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redis: Redis, options: RedisRateLimitStoreOptions = {}) {
    this.#redis = redis;
    this.#prefix = options.prefix ?? 'mcp:rl:';
  }

  take(key: string, bucket: BucketSpec, cost: number, now: number): Promise<TakeResult> {
    return guard('the rate limit', async () => {
      const [allowed, remaining, retry] = (await TAKE.run(
        this.#redis,
        [this.#prefix + key],
        [bucket.capacity, bucket.refillPerSecond, cost, now],
      )) as [number, string, string];
      const retryAfterMs = Number(retry);
      return {
        allowed: allowed === 1,
        remaining: Number(remaining),
        retryAfterMs: retryAfterMs < 0 ? Number.POSITIVE_INFINITY : retryAfterMs,
      };
    });
  }
}
