import type { NonceStore } from '@mcpkit/server';
import type { Redis } from 'ioredis';
import { guard } from './unavailable';

/** Options of {@link RedisNonceStore}. */
export interface RedisNonceStoreOptions {
  /** Prefix of every key. Default `'mcp:'`. */
  prefix?: string;
}

/**
 * Single use of MRTR `requestState` tokens across instances (the server's `nonceStore`): each nonce is one
 * `SET … NX PXAT <expiry>`, so the first instance to see a token accepts it and every later use is refused, and the
 * key disappears when the token would have expired anyway. Only rounds that carry a `requestState` cost a round trip.
 * If Redis does not answer, the round fails with 503 (`data.httpStatus`), never accepted unchecked.
 *
 * @example
 * const mcp = new McpServer(info, { requestStateSecret: process.env.MCP_STATE_SECRET, nonceStore: new RedisNonceStore(redis) });
 */
export class RedisNonceStore implements NonceStore {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redis: Redis, options: RedisNonceStoreOptions = {}) {
    this.#redis = redis;
    this.#prefix = options.prefix ?? 'mcp:';
  }

  consume(nonce: string, expiresAt: number): Promise<boolean> {
    return guard('the requestState nonce store', async () => {
      const set = await this.#redis.call('SET', `${this.#prefix}n:${nonce}`, '1', 'PXAT', String(expiresAt), 'NX');
      return set === 'OK';
    });
  }
}
