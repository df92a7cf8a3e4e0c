import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * A Lua script run with EVALSHA (one round trip), loaded with EVAL the first time a server does not know it
 * (NOSCRIPT: a new server, or one whose script cache was flushed).
 */
export class RedisScript {
  readonly #lua: string;
  readonly #sha: string;

  constructor(lua: string) {
    this.#lua = lua;
    this.#sha = createHash('sha1').update(lua).digest('hex');
  }

  async run(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.#sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!String((error as Error)?.message).startsWith('NOSCRIPT')) throw error;
      return redis.eval(this.#lua, keys.length, ...keys, ...args);
    }
  }
}
