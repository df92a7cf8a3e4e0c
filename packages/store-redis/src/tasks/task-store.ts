import {
  type CreateLimits,
  decodeCursor,
  encodeCursor,
  isTerminal,
  type TaskPage,
  type TaskPatch,
  type TaskRecord,
  type TaskStore,
  TaskStoreError,
  type UpdateOutcome,
} from '@mcpkit/tasks/store';
import type { Redis } from 'ioredis';
import { RedisScript } from '../redis-script';
import { failed } from '../session-store';
import { guard } from '../unavailable';

/** Options of {@link RedisTaskStore}. */
export interface RedisTaskStoreOptions {
  /** Prefix of every key. Default `'mcp:'`. */
  prefix?: string;
  /** The most tasks kept at once, live or finished (finished ones stay until their TTL). Default 10 000. */
  maxTasks?: number;
  /** How often expired tasks are swept out of the indexes, in ms; 0 disables the timer. Default 60 000. */
  sweepIntervalMs?: number;
  /** The clock (tests). Default `Date.now`. */
  now?: () => number;
}

// Layout (every key carries the hash tag {t}, so the scripts that touch several keys work on Redis Cluster too):
//   <p>{t}:task:<id>        hash: one field per record key (its JSON), plus _owner (the owner key) and _exp
//   <p>{t}:all              sorted set of every task by expiry: member "<owner key>\x01<lex>"
//   <p>{t}:owner:<owner>    sorted set (all scores 0) of an owner's tasks by lex = "<createdAt, 15 digits>:<id>"
//   <p>{t}:live:<owner>     set of an owner's unfinished task ids;  <p>{t}:live  the same for every owner
// Expiry is the record's own `expiresAt` (read on every access, swept from the indexes); the hash also gets a Redis
// TTL a minute past it, so a store nobody sweeps does not keep expired records forever.

const NULL_OWNER = '\u0000';
const NEVER = 9e15;
const TERMINAL = ['"completed"', '"failed"', '"cancelled"'];

/** Lua: removes tasks whose expiry is at or before ARGV `now` from every index; returns how many. */
const SWEEP_FUNCTION = `
local function sweep(prefix, now)
  local expired = redis.call('ZRANGEBYSCORE', prefix .. 'all', '-inf', now)
  for _, member in ipairs(expired) do
    local sep = string.find(member, '\\1', 1, true)
    local owner = string.sub(member, 1, sep - 1)
    local lex = string.sub(member, sep + 1)
    local id = string.sub(lex, 17)
    redis.call('DEL', prefix .. 'task:' .. id)
    redis.call('ZREM', prefix .. 'owner:' .. owner, lex)
    redis.call('SREM', prefix .. 'live:' .. owner, id)
    redis.call('SREM', prefix .. 'live', id)
    redis.call('ZREM', prefix .. 'all', member)
  end
  return #expired
end
`;

const SWEEP = new RedisScript(`${SWEEP_FUNCTION}
return sweep(ARGV[1], ARGV[2])
`);

// KEYS: task, all, owner index, owner live, live. ARGV: prefix, now, id, owner key, lex, expiry score, terminal,
// maxLive, maxTasks, pexpire ('' for none), then field/value pairs.
const CREATE = new RedisScript(`${SWEEP_FUNCTION}
if redis.call('EXISTS', KEYS[1]) == 1 then return { 'duplicate' } end
if ARGV[7] == '0' then
  local live = redis.call('SCARD', KEYS[4])
  if live >= tonumber(ARGV[8]) then return { 'limit', live } end
end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[9]) then
  sweep(ARGV[1], ARGV[2])
  if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[9]) then return { 'full' } end
end
local fields = {}
for i = 11, #ARGV do fields[#fields + 1] = ARGV[i] end
redis.call('HSET', KEYS[1], unpack(fields))
if ARGV[10] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[10]) end
-- The indexes live as long as their longest-lived task (forever once a task never expires), so nothing outlives it.
local before = {}
for i = 2, 5 do before[i] = redis.call('PTTL', KEYS[i]) end
redis.call('ZADD', KEYS[2], ARGV[6], ARGV[4] .. '\\1' .. ARGV[5])
redis.call('ZADD', KEYS[3], 0, ARGV[5])
if ARGV[7] == '0' then
  redis.call('SADD', KEYS[4], ARGV[3])
  redis.call('SADD', KEYS[5], ARGV[3])
end
for i = 2, 5 do
  if redis.call('EXISTS', KEYS[i]) == 1 then
    if ARGV[10] == '' then
      redis.call('PERSIST', KEYS[i])
    elseif before[i] == -2 or (before[i] >= 0 and before[i] < tonumber(ARGV[10])) then
      redis.call('PEXPIRE', KEYS[i], ARGV[10])
    end
  end
end
return { 'ok' }
`);

// KEYS: task, live. ARGV: prefix, id, now, number of fields to set, field/value pairs…, then fields to delete.
const UPDATE = new RedisScript(`
local exp = redis.call('HGET', KEYS[1], '_exp')
if not exp then return {} end
if exp ~= '' and tonumber(exp) <= tonumber(ARGV[3]) then return {} end
local status = redis.call('HGET', KEYS[1], 'status')
if status == '${TERMINAL[0]}' or status == '${TERMINAL[1]}' or status == '${TERMINAL[2]}' then
  return { 0, redis.call('HGETALL', KEYS[1]) }
end
local n = tonumber(ARGV[4])
if n > 0 then
  local fields = {}
  for i = 5, 4 + 2 * n do fields[#fields + 1] = ARGV[i] end
  redis.call('HSET', KEYS[1], unpack(fields))
end
for i = 5 + 2 * n, #ARGV do redis.call('HDEL', KEYS[1], ARGV[i]) end
status = redis.call('HGET', KEYS[1], 'status')
if status == '${TERMINAL[0]}' or status == '${TERMINAL[1]}' or status == '${TERMINAL[2]}' then
  local owner = redis.call('HGET', KEYS[1], '_owner')
  redis.call('SREM', ARGV[1] .. 'live:' .. owner, ARGV[2])
  redis.call('SREM', KEYS[2], ARGV[2])
end
return { 1, redis.call('HGETALL', KEYS[1]) }
`);

function lexOf(record: Pick<TaskRecord, 'createdAt' | 'taskId'>): string {
  return `${String(record.createdAt).padStart(15, '0')}:${record.taskId}`;
}

/** A record from a task hash's fields (`undefined`: no such task, or it expired at `now`). */
function recordOf(fields: Record<string, string> | string[], now: number): TaskRecord | undefined {
  const pairs: [string, string][] = [];
  if (Array.isArray(fields)) for (let i = 0; i + 1 < fields.length; i += 2) pairs.push([fields[i]!, fields[i + 1]!]);
  else pairs.push(...Object.entries(fields));
  if (pairs.length === 0) return undefined;
  const record: Record<string, unknown> = {};
  let exp = '';
  for (const [key, value] of pairs) {
    if (key === '_exp') exp = value;
    else if (!key.startsWith('_')) record[key] = JSON.parse(value);
  }
  if (exp !== '' && Number(exp) <= now) return undefined;
  return record as unknown as TaskRecord;
}

/**
 * Tasks in Redis (`new TaskServer(mcp, { store })` of `@mcpkit/tasks`), shared by every instance: a task created on
 * one is read, updated and cancelled on any other. Creation checks the per-owner and total limits in the same script
 * that inserts (one round trip); an update applies unless the task is terminal, atomically; pages walk an owner's
 * index in creation order. Records are plain JSON, one hash field per key.
 *
 * @example
 * import { RedisTaskStore } from '@mcpkit/store-redis/tasks';
 * const tasks = new TaskServer(mcp, { store: new RedisTaskStore(redis), bus, recover: false });
 */
export class RedisTaskStore implements TaskStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #maxTasks: number;
  readonly #now: () => number;
  readonly #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(redis: Redis, options: RedisTaskStoreOptions = {}) {
    this.#redis = redis;
    this.#prefix = `${options.prefix ?? 'mcp:'}{t}:`;
    this.#maxTasks = options.maxTasks ?? 10_000;
    if (!(this.#maxTasks >= 1))
      throw new RangeError(`RedisTaskStore: maxTasks must be at least 1; got ${this.#maxTasks}`);
    this.#now = options.now ?? Date.now;
    const interval = options.sweepIntervalMs ?? 60_000;
    if (interval > 0) {
      this.#timer = setInterval(() => {
        this.sweep(this.#now()).catch(() => undefined);
      }, interval);
      this.#timer.unref?.();
    }
  }

  async create(record: TaskRecord, limits: CreateLimits): Promise<void> {
    this.#open();
    const now = this.#now();
    const owner = record.owner ?? NULL_OWNER;
    const fields: string[] = [];
    for (const [key, value] of Object.entries(record)) if (value !== undefined) fields.push(key, JSON.stringify(value));
    fields.push('_owner', owner, '_exp', record.expiresAt === null ? '' : String(record.expiresAt));
    const p = this.#prefix;
    const outcome = (await guard('the task store', () =>
      CREATE.run(
        this.#redis,
        [`${p}task:${record.taskId}`, `${p}all`, `${p}owner:${owner}`, `${p}live:${owner}`, `${p}live`],
        [
          p,
          now,
          record.taskId,
          owner,
          lexOf(record),
          record.expiresAt ?? NEVER,
          isTerminal(record.status) ? '1' : '0',
          limits.maxLivePerOwner,
          this.#maxTasks,
          record.expiresAt === null ? '' : Math.max(1, record.expiresAt - now) + 60_000,
          ...fields,
        ],
      ),
    )) as [string, number?];
    switch (outcome[0]) {
      case 'duplicate':
        throw new TaskStoreError('ERR_DUPLICATE_TASK', `A task with id ${record.taskId} exists already`, {
          taskId: record.taskId,
        });
      case 'limit':
        throw new TaskStoreError(
          'ERR_TASK_LIMIT',
          `Too many unfinished tasks for this requestor (${outcome[1]} of ${limits.maxLivePerOwner}): wait for one to finish or cancel one`,
          { limit: limits.maxLivePerOwner, live: outcome[1] },
        );
      case 'full':
        throw new TaskStoreError(
          'ERR_STORE_FULL',
          `The task store is full (${this.#maxTasks} tasks): try again once some expire`,
          { maxTasks: this.#maxTasks },
        );
      default:
        return;
    }
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    this.#open();
    const fields = await guard('the task store', () => this.#redis.hgetall(`${this.#prefix}task:${taskId}`));
    return recordOf(fields, this.#now());
  }

  async update(taskId: string, patch: TaskPatch): Promise<UpdateOutcome> {
    this.#open();
    const set: string[] = [];
    const remove: string[] = [];
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) remove.push(key);
      else set.push(key, JSON.stringify(value));
    }
    const p = this.#prefix;
    const result = (await guard('the task store', () =>
      UPDATE.run(
        this.#redis,
        [`${p}task:${taskId}`, `${p}live`],
        [p, taskId, this.#now(), set.length / 2, ...set, ...remove],
      ),
    )) as [number, string[]] | [];
    if (result.length === 0) return { record: undefined, applied: false };
    return { record: recordOf(result[1]!, Number.NEGATIVE_INFINITY), applied: result[0] === 1 };
  }

  async list(owner: string | null, page: { cursor?: string; limit: number }): Promise<TaskPage> {
    this.#open();
    const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
    const index = `${this.#prefix}owner:${owner ?? NULL_OWNER}`;
    const now = this.#now();
    const tasks: TaskRecord[] = [];
    let from = after === undefined ? '-' : `(${lexOf(after)}`;
    // Expired tasks still in the index are skipped: read on until the page is full or the index ends.
    for (;;) {
      const batch = page.limit + 1 - tasks.length;
      const members = await guard('the task store', () => this.#redis.zrangebylex(index, from, '+', 'LIMIT', 0, batch));
      if (members.length === 0) break;
      const pipeline = this.#redis.pipeline();
      for (const member of members) pipeline.hgetall(`${this.#prefix}task:${member.slice(16)}`);
      const records = failed(await guard('the task store', () => pipeline.exec()));
      for (const fields of records) {
        const record = recordOf(fields as Record<string, string>, now);
        if (record !== undefined) tasks.push(record);
      }
      from = `(${members[members.length - 1]}`;
      if (tasks.length > page.limit || members.length < batch) break;
    }
    const result: TaskPage = { tasks: tasks.slice(0, page.limit) };
    if (tasks.length > page.limit) result.nextCursor = encodeCursor(result.tasks[result.tasks.length - 1]!);
    return result;
  }

  async unfinished(): Promise<TaskRecord[]> {
    this.#open();
    const ids = await guard('the task store', () => this.#redis.smembers(`${this.#prefix}live`));
    if (ids.length === 0) return [];
    const pipeline = this.#redis.pipeline();
    for (const id of ids) pipeline.hgetall(`${this.#prefix}task:${id}`);
    const now = this.#now();
    const out: TaskRecord[] = [];
    for (const fields of failed(await guard('the task store', () => pipeline.exec()))) {
      const record = recordOf(fields as Record<string, string>, now);
      if (record !== undefined && !isTerminal(record.status)) out.push(record);
    }
    return out.sort((a, b) => a.createdAt - b.createdAt);
  }

  async sweep(now: number): Promise<number> {
    return Number(
      await guard('the task store', () => SWEEP.run(this.#redis, [`${this.#prefix}all`], [this.#prefix, now])),
    );
  }

  /** Stops the sweep timer (the Redis client is yours to close). */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
  }

  #open(): void {
    if (this.#closed) throw new TaskStoreError('ERR_STORE_CLOSED', 'The task store was closed', {});
  }
}
