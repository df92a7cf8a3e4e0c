import type { SessionPatch, SessionRecord, SessionStore } from '@mcpkit/transport-http';
import type { Redis } from 'ioredis';
import { RedisScript } from './redis-script';

/** Options of {@link RedisSessionStore}. */
export interface RedisSessionStoreOptions {
  /** Prefix of every key. Default `'mcp:'`. */
  prefix?: string;
}

/** How many POST streams' requests are kept per session (for answering them when their instance dies). */
const STREAMS_KEPT = 64;

const TOUCH = new RedisScript(`
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return false end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
if ARGV[2] ~= '' then
  redis.call('LPUSH', KEYS[3], ARGV[2])
  redis.call('LTRIM', KEYS[3], 0, ${STREAMS_KEPT - 1})
end
redis.call('PEXPIRE', KEYS[3], ARGV[1])
return v
`);

const UPDATE = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'll', ARGV[2]) end
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'init', ARGV[3]) end
local n = tonumber(ARGV[4])
for i = 1, n do redis.call('SADD', KEYS[2], ARGV[4 + i]) end
local m = tonumber(ARGV[5 + n])
for i = 1, m do redis.call('SREM', KEYS[2], ARGV[5 + n + i]) end
local v = redis.call('HINCRBY', KEYS[1], 'v', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[3], ARGV[1])
return v
`);

const CLAIM_HOME = new RedisScript(`
local home = redis.call('HGET', KEYS[1], 'home')
if not home then return false end
if home == ARGV[1] then
  redis.call('HSET', KEYS[1], 'home', ARGV[2])
  redis.call('HINCRBY', KEYS[1], 'v', 1)
  return ARGV[2]
end
return home
`);

/**
 * Legacy Streamable HTTP sessions in Redis, shared by every instance (`createStreamableHttpHandler`'s `sessionStore`).
 * A session is a hash (what `initialize` negotiated, the log level, the home instance, a version), a set of resource
 * subscriptions and a short list of its newest POST streams' requests, all three expiring together after the idle
 * timeout; every request extends them in one round trip (one script). Keys of a session share a hash tag, so it works
 * on Redis Cluster too.
 *
 * @example
 * import { Redis } from 'ioredis';
 * const redis = new Redis(process.env.REDIS_URL!, { enableOfflineQueue: false });
 * const handler = createStreamableHttpHandler(mcp, {
 *   sessionStore: new RedisSessionStore(redis),
 *   eventStore: new RedisEventStore(redis),
 *   bus: new RedisMessageBus(redis),
 * });
 */
export class RedisSessionStore implements SessionStore {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(redis: Redis, options: RedisSessionStoreOptions = {}) {
    this.#redis = redis;
    this.#prefix = options.prefix ?? 'mcp:';
  }

  #keys(sessionId: string): [string, string, string] {
    const base = `${this.#prefix}s:{${sessionId}}`;
    return [base, `${base}:subs`, `${base}:streams`];
  }

  async create(record: SessionRecord, ttlMs: number): Promise<void> {
    const [hash, subs, streams] = this.#keys(record.sessionId);
    const fixed = {
      sessionId: record.sessionId,
      principal: record.principal,
      protocolVersion: record.protocolVersion,
      clientCapabilities: record.clientCapabilities,
      clientInfo: record.clientInfo,
      createdAt: record.createdAt,
    };
    const fields: string[] = ['rec', JSON.stringify(fixed), 'home', record.home, 'v', String(record.version)];
    fields.push('init', record.initialized ? '1' : '0');
    if (record.logLevel !== undefined) fields.push('ll', record.logLevel);
    const multi = this.#redis
      .multi()
      .del(hash, subs, streams)
      .hset(hash, ...fields)
      .pexpire(hash, ttlMs);
    if (record.resourceSubscriptions.length > 0) multi.sadd(subs, ...record.resourceSubscriptions).pexpire(subs, ttlMs);
    failed(await multi.exec());
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const [hash, subs] = this.#keys(sessionId);
    const results = failed(await this.#redis.pipeline().hgetall(hash).smembers(subs).exec());
    const fields = results[0] as Record<string, string>;
    if (fields.rec === undefined) return undefined;
    const fixed = JSON.parse(fields.rec) as Omit<
      SessionRecord,
      'home' | 'version' | 'logLevel' | 'initialized' | 'resourceSubscriptions'
    >;
    const record: SessionRecord = {
      ...fixed,
      home: fields.home ?? '',
      version: Number(fields.v),
      initialized: fields.init === '1',
      resourceSubscriptions: results[1] as string[],
    };
    if (fields.ll !== undefined) record.logLevel = fields.ll as SessionRecord['logLevel'];
    if (record.clientInfo === undefined || record.clientInfo === null) delete record.clientInfo;
    return record;
  }

  async touch(
    sessionId: string,
    ttlMs: number,
    stream?: { id: string; requests: readonly (string | number)[] },
  ): Promise<number | undefined> {
    const entry = stream === undefined ? '' : `${stream.id}\n${JSON.stringify(stream.requests)}`;
    const version = await TOUCH.run(this.#redis, this.#keys(sessionId), [ttlMs, entry]);
    return version === null ? undefined : Number(version);
  }

  async streamRequests(sessionId: string, streamId: string): Promise<(string | number)[] | undefined> {
    const entries = await this.#redis.lrange(this.#keys(sessionId)[2], 0, -1);
    const head = `${streamId}\n`;
    const entry = entries.find((candidate) => candidate.startsWith(head));
    return entry === undefined ? undefined : (JSON.parse(entry.slice(head.length)) as (string | number)[]);
  }

  async update(sessionId: string, patch: SessionPatch, ttlMs: number): Promise<number | undefined> {
    const subscribe = patch.subscribe ?? [];
    const unsubscribe = patch.unsubscribe ?? [];
    const args: (string | number)[] = [
      ttlMs,
      patch.logLevel ?? '',
      patch.initialized === undefined ? '' : patch.initialized ? '1' : '0',
      subscribe.length,
      ...subscribe,
      unsubscribe.length,
      ...unsubscribe,
    ];
    const version = await UPDATE.run(this.#redis, this.#keys(sessionId), args);
    return version === null ? undefined : Number(version);
  }

  async claimHome(sessionId: string, expected: string, instance: string): Promise<string | undefined> {
    const home = await CLAIM_HOME.run(this.#redis, this.#keys(sessionId), [expected, instance]);
    return home === null ? undefined : String(home);
  }

  async delete(sessionId: string): Promise<void> {
    await this.#redis.del(...this.#keys(sessionId));
  }
}

/** The results of a pipeline or transaction, or the first error in it. */
export function failed(results: [Error | null, unknown][] | null): unknown[] {
  if (results === null) throw new Error('The Redis transaction was aborted');
  const values: unknown[] = [];
  for (const [error, value] of results) {
    if (error !== null) throw error;
    values.push(value);
  }
  return values;
}
