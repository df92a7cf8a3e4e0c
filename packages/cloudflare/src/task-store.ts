import {
  applyPatch,
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
import type { DurableObjectStorageLike, SqlStorageLike } from './platform';

// Tasks in a SQLite-backed Durable Object's own database. The object runs one event at a time and `sql.exec` is
// synchronous, so each method's reads and writes happen with nothing in between: the limit check and the insert of
// `create`, the read-modify-write of `update`, are atomic without a transaction statement (which the object's SQL API
// refuses anyway). Writes are durable before the object's next response leaves it (output gate).

/** Options for {@link DurableObjectTaskStore}. */
export interface DurableObjectTaskStoreOptions {
  /** Tasks kept at most (live or kept for their TTL). Default 100 000. */
  maxTasks?: number;
  /** The table's name. Default `mcpkit_tasks`. */
  table?: string;
  /** The clock (ms), for tests. Default `Date.now`. */
  now?: () => number;
}

const NULL_OWNER = '\u0000';

function ownerKey(owner: string | null): string {
  return owner === null ? NULL_OWNER : `u:${owner}`;
}

type Row = { record: string };

/**
 * A `TaskStore` (of `@mcpkit/tasks`) on a SQLite-backed Durable Object's storage (`new_sqlite_classes`): tasks outlive
 * the isolate that created them. Use it inside a Durable Object (the task object of {@link defineMcpTaskObject} does).
 *
 * @example
 * const store = new DurableObjectTaskStore(state.storage);
 */
export class DurableObjectTaskStore implements TaskStore {
  readonly #sql: SqlStorageLike;
  readonly #table: string;
  readonly #maxTasks: number;
  readonly #now: () => number;
  #closed = false;

  constructor(storage: DurableObjectStorageLike, options: DurableObjectTaskStoreOptions = {}) {
    if (storage.sql === undefined) {
      throw new TypeError(
        'DurableObjectTaskStore: this Durable Object has no SQL storage; declare its class in new_sqlite_classes',
      );
    }
    const table = options.table ?? 'mcpkit_tasks';
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(table)) {
      throw new RangeError(`DurableObjectTaskStore: table must be letters, digits and _; got ${JSON.stringify(table)}`);
    }
    this.#sql = storage.sql;
    this.#table = table;
    this.#maxTasks = options.maxTasks ?? 100_000;
    this.#now = options.now ?? Date.now;
    this.#sql.exec(
      `CREATE TABLE IF NOT EXISTS ${table} (
        task_id TEXT PRIMARY KEY,
        owner_key TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER,
        live INTEGER NOT NULL,
        record TEXT NOT NULL
      )`,
    );
    this.#sql.exec(`CREATE INDEX IF NOT EXISTS ${table}_owner ON ${table} (owner_key, created_at, task_id)`);
    this.#sql.exec(`CREATE INDEX IF NOT EXISTS ${table}_expiry ON ${table} (expires_at) WHERE expires_at IS NOT NULL`);
  }

  async create(record: TaskRecord, limits: CreateLimits): Promise<void> {
    this.#open();
    const now = this.#now();
    const table = this.#table;
    const owner = ownerKey(record.owner);
    const live = this.#count(
      `SELECT COUNT(*) AS n FROM ${table} WHERE owner_key = ? AND live = 1 AND (expires_at IS NULL OR expires_at > ?)`,
      owner,
      now,
    );
    if (!isTerminal(record.status) && live >= limits.maxLivePerOwner) {
      throw new TaskStoreError(
        'ERR_TASK_LIMIT',
        `Too many unfinished tasks for this requestor (${live} of ${limits.maxLivePerOwner}): wait for one to finish or cancel one`,
        { limit: limits.maxLivePerOwner, live },
      );
    }
    if (this.#count(`SELECT COUNT(*) AS n FROM ${table}`) >= this.#maxTasks) {
      await this.sweep(now);
      if (this.#count(`SELECT COUNT(*) AS n FROM ${table}`) >= this.#maxTasks) {
        throw new TaskStoreError(
          'ERR_STORE_FULL',
          `The task store is full (${this.#maxTasks} tasks): try again once some expire`,
          { maxTasks: this.#maxTasks },
        );
      }
    }
    if (this.#sql.exec(`SELECT 1 AS n FROM ${table} WHERE task_id = ?`, record.taskId).toArray().length > 0) {
      throw new TaskStoreError('ERR_DUPLICATE_TASK', `A task with id ${record.taskId} exists already`, {
        taskId: record.taskId,
      });
    }
    this.#sql.exec(
      `INSERT INTO ${table} (task_id, owner_key, created_at, expires_at, live, record) VALUES (?, ?, ?, ?, ?, ?)`,
      record.taskId,
      owner,
      record.createdAt,
      record.expiresAt,
      isTerminal(record.status) ? 0 : 1,
      JSON.stringify(record),
    );
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    this.#open();
    return this.#read(taskId);
  }

  async update(taskId: string, patch: TaskPatch): Promise<UpdateOutcome> {
    this.#open();
    const current = this.#read(taskId);
    if (current === undefined || isTerminal(current.status)) return { record: current, applied: false };
    const next = applyPatch(current, patch);
    this.#sql.exec(
      `UPDATE ${this.#table} SET live = ?, record = ? WHERE task_id = ?`,
      isTerminal(next.status) ? 0 : 1,
      JSON.stringify(next),
      taskId,
    );
    return { record: next, applied: true };
  }

  async list(owner: string | null, page: { cursor?: string; limit: number }): Promise<TaskPage> {
    this.#open();
    const now = this.#now();
    const table = this.#table;
    const fresh = '(expires_at IS NULL OR expires_at > ?)';
    const rows =
      page.cursor === undefined
        ? this.#sql
            .exec<Row>(
              `SELECT record FROM ${table} WHERE owner_key = ? AND ${fresh} ORDER BY created_at, task_id LIMIT ?`,
              ownerKey(owner),
              now,
              page.limit + 1,
            )
            .toArray()
        : (() => {
            const after = decodeCursor(page.cursor as string);
            return this.#sql
              .exec<Row>(
                `SELECT record FROM ${table} WHERE owner_key = ? AND ${fresh}
                 AND (created_at > ? OR (created_at = ? AND task_id > ?)) ORDER BY created_at, task_id LIMIT ?`,
                ownerKey(owner),
                now,
                after.createdAt,
                after.createdAt,
                after.taskId,
                page.limit + 1,
              )
              .toArray();
          })();
    const tasks = rows.slice(0, page.limit).map((row) => JSON.parse(row.record) as TaskRecord);
    const result: TaskPage = { tasks };
    const last = tasks[tasks.length - 1];
    if (rows.length > page.limit && last !== undefined) result.nextCursor = encodeCursor(last);
    return result;
  }

  async unfinished(): Promise<TaskRecord[]> {
    this.#open();
    return this.#sql
      .exec<Row>(
        `SELECT record FROM ${this.#table} WHERE live = 1 AND (expires_at IS NULL OR expires_at > ?)`,
        this.#now(),
      )
      .toArray()
      .map((row) => JSON.parse(row.record) as TaskRecord);
  }

  async sweep(now: number): Promise<number> {
    if (this.#closed) return 0;
    return this.#sql.exec(`DELETE FROM ${this.#table} WHERE expires_at IS NOT NULL AND expires_at <= ?`, now)
      .rowsWritten;
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  #count(query: string, ...bindings: (string | number)[]): number {
    const row = this.#sql.exec<{ n: number }>(query, ...bindings).toArray()[0];
    return Number(row?.n ?? 0);
  }

  #read(taskId: string): TaskRecord | undefined {
    const row = this.#sql
      .exec<Row>(
        `SELECT record FROM ${this.#table} WHERE task_id = ? AND (expires_at IS NULL OR expires_at > ?)`,
        taskId,
        this.#now(),
      )
      .toArray()[0];
    return row === undefined ? undefined : (JSON.parse(row.record) as TaskRecord);
  }

  #open(): void {
    if (this.#closed) throw new TaskStoreError('ERR_STORE_CLOSED', 'The task store was closed', {});
  }
}
