// @mcpkit/store-redis/rate-limit: the token buckets of @mcpkit/middleware's rate limit, shared by every instance.

export { RedisRateLimitStore, type RedisRateLimitStoreOptions } from './rate-limit-store';
