// @mcpkit/middleware/rate-limit: token buckets per caller and per tool, with a pluggable store.

export { MiddlewareErrorCode } from '../shared/errors';
export {
  type RateLimit,
  type RateLimitErrorData,
  type RateLimitKey,
  type RateLimitOptions,
  rateLimit,
} from './rate-limit';
export {
  type BucketSpec,
  InMemoryRateLimitStore,
  type InMemoryRateLimitStoreOptions,
  type RateLimitStore,
  type TakeResult,
} from './store';
