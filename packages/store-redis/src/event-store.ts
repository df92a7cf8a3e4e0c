import type { EventStore, StoredEvent } from '@mcpkit/transport-http';
import type { Redis } from 'ioredis';
import { RedisScript } from './redis-script';

/** Options of {@link RedisEventStore}. */
export interface RedisEventStoreOptions {
  /** Prefix of every key. Default `'mcp:'`. */
  prefix?: string;
  /** Events kept per stream; the oldest go first. Default 1 000. */
  maxEventsPerStream?: number;
  /** How long a stream's events are kept after its last one. Default 5 minutes (as the in-memory store's age). */
  ttlMs?: number;
}

const APPEND = new RedisScript(`
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])
local over = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[3])
if over > 0 then redis.call('ZREMRANGEBYRANK', KEYS[1], 0, over - 1) end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('SADD', KEYS[2], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 1
`);

/**
 * Resumable SSE events in Redis (`createStreamableHttpHandler`'s `eventStore`), so a client that lost a stream resumes
 * it with `Last-Event-ID` on any instance. Each stream is a sorted set by `seq` (one script per event: add, trim,
 * expire), indexed per session for deletion; bounded per stream and by age. Keys of a session share a hash tag.
 *
 * @example
 * const handler = createStreamableHttpHandler(mcp, { eventStore: new RedisEventStore(redis, { ttlMs: 60_000 }), … });
 */
export class RedisEventStore implements EventStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #max: number;
  readonly #ttlMs: number;

  constructor(redis: Redis, options: RedisEventStoreOptions = {}) {
    this.#redis = redis;
    this.#prefix = options.prefix ?? 'mcp:';
    this.#max = options.maxEventsPerStream ?? 1000;
    this.#ttlMs = options.ttlMs ?? 5 * 60_000;
    if (!(this.#max >= 1))
      throw new RangeError(`RedisEventStore: maxEventsPerStream must be at least 1, got ${this.#max}`);
    if (!(this.#ttlMs >= 1)) throw new RangeError(`RedisEventStore: ttlMs must be at least 1, got ${this.#ttlMs}`);
  }

  #index(sessionId: string): string {
    return `${this.#prefix}e:{${sessionId}}`;
  }

  #stream(sessionId: string, streamId: string): string {
    return `${this.#index(sessionId)}:${streamId}`;
  }

  async append(sessionId: string, streamId: string, event: StoredEvent): Promise<void> {
    // The member starts with the seq, so two equal messages are two members.
    const member = `${event.seq}:${event.previousSeq}:${event.data}`;
    await APPEND.run(
      this.#redis,
      [this.#stream(sessionId, streamId), this.#index(sessionId)],
      [event.seq, member, this.#max, this.#ttlMs, streamId],
    );
  }

  async replayAfter(sessionId: string, streamId: string, afterSeq: number): Promise<StoredEvent[]> {
    const members = await this.#redis.zrangebyscore(this.#stream(sessionId, streamId), `(${afterSeq}`, '+inf');
    const events: StoredEvent[] = [];
    for (const member of members) {
      const first = member.indexOf(':');
      const second = member.indexOf(':', first + 1);
      const seq = Number(member.slice(0, first));
      events.push({
        id: `${streamId}-${seq.toString(36)}`,
        seq,
        previousSeq: Number(member.slice(first + 1, second)),
        data: member.slice(second + 1),
      });
    }
    return events;
  }

  async deleteSession(sessionId: string): Promise<void> {
    const index = this.#index(sessionId);
    const streams = await this.#redis.smembers(index);
    await this.#redis.del(index, ...streams.map((streamId) => this.#stream(sessionId, streamId)));
  }
}
