/** A token bucket's shape: how many tokens it holds when full, and how fast it refills. */
export interface BucketSpec {
  /** Tokens when full: the burst a caller may make at once. */
  capacity: number;
  /** Tokens added per second, up to `capacity`. */
  refillPerSecond: number;
}

/** What taking from a bucket decided. */
export interface TakeResult {
  allowed: boolean;
  /** Whole tokens left after this take. */
  remaining: number;
  /** When refused: how long until enough tokens are back, in ms. `0` when allowed. */
  retryAfterMs: number;
}

/**
 * Where token buckets live. Small and asynchronous on purpose, so a shared store (Redis, for several server
 * instances) implements it with one atomic script per call: take `cost` tokens from the bucket `key` (creating it full
 * when unknown) at time `now` (ms since the epoch), or refuse and say when to retry.
 *
 * @example
 * const store: RateLimitStore = {
 *   take: (key, bucket, cost, now) => redis.evalsha(TAKE_SCRIPT, 1, key, bucket.capacity, bucket.refillPerSecond, cost, now).then(parse),
 * };
 */
export interface RateLimitStore {
  take(key: string, bucket: BucketSpec, cost: number, now: number): Promise<TakeResult>;
}

/** Options of {@link InMemoryRateLimitStore}. */
export interface InMemoryRateLimitStoreOptions {
  /** At most this many buckets are kept; the least recently used go first (a forgotten bucket starts full). Default 10 000. */
  maxBuckets?: number;
}

interface Bucket {
  tokens: number;
  updated: number;
}

/**
 * The default store: buckets in this process's memory, bounded (least recently used buckets are dropped). Right for
 * one server instance; several instances behind a load balancer need a shared store.
 */
export class InMemoryRateLimitStore implements RateLimitStore {
  readonly #buckets = new Map<string, Bucket>();
  readonly #max: number;

  constructor(options: InMemoryRateLimitStoreOptions = {}) {
    this.#max = options.maxBuckets ?? 10_000;
    if (!(this.#max >= 1))
      throw new RangeError(`InMemoryRateLimitStore: maxBuckets must be at least 1, got ${this.#max}`);
  }

  /** How many buckets are kept now. */
  get size(): number {
    return this.#buckets.size;
  }

  take(key: string, bucket: BucketSpec, cost: number, now: number): Promise<TakeResult> {
    return Promise.resolve(this.takeNow(key, bucket, cost, now));
  }

  /** The synchronous take behind {@link take}. */
  takeNow(key: string, spec: BucketSpec, cost: number, now: number): TakeResult {
    const buckets = this.#buckets;
    let bucket = buckets.get(key);
    if (bucket === undefined) {
      bucket = { tokens: spec.capacity, updated: now };
      if (buckets.size >= this.#max) buckets.delete(buckets.keys().next().value as string);
    } else {
      buckets.delete(key); // re-inserted below: Map order is the LRU order
      const elapsed = Math.max(0, now - bucket.updated) / 1000;
      bucket.tokens = Math.min(spec.capacity, bucket.tokens + elapsed * spec.refillPerSecond);
      bucket.updated = now;
    }
    buckets.set(key, bucket);
    if (bucket.tokens >= cost) {
      bucket.tokens -= cost;
      return { allowed: true, remaining: Math.floor(bucket.tokens), retryAfterMs: 0 };
    }
    const missing = cost - bucket.tokens;
    const retryAfterMs =
      spec.refillPerSecond > 0 && cost <= spec.capacity ? Math.ceil((missing / spec.refillPerSecond) * 1000) : Infinity;
    return { allowed: false, remaining: Math.floor(bucket.tokens), retryAfterMs };
  }
}
