import { isTerminal, type TaskPatch, type TaskRecord } from '../task-record';
import {
  applyPatch,
  type CreateLimits,
  decodeCursor,
  encodeCursor,
  type TaskPage,
  type TaskStore,
  TaskStoreError,
  type UpdateOutcome,
} from '../task-store';
import { openSqliteDatabase, type SqliteDatabase, type SqliteDriverName, type SqliteStatement } from './driver';

/** Options of `SqliteTaskStore`. */
export interface SqliteTaskStoreOptions {
  /** The table's name (letters, digits, `_`). Default `mcpkit_tasks`. */
  table?: string;
  /** The most tasks kept at once, live or finished. Default 100 000. */
  maxTasks?: number;
  /** How often expired tasks are deleted, in ms; 0 disables the timer (reads still miss them). Default 60 000. */
  sweepIntervalMs?: number;
  /**
   * `PRAGMA synchronous`: `NORMAL` (default, with WAL: a crash of the process loses nothing committed; a power cut may
   * lose the last transactions) or `FULL` (every commit reaches the disk before it returns).
   */
  synchronous?: 'NORMAL' | 'FULL';
  /** The clock (tests). Default `Date.now`. */
  now?: () => number;
}

/** Options of `SqliteTaskStore.open`. */
export interface OpenSqliteTaskStoreOptions extends SqliteTaskStoreOptions {
  /** Which driver to use. Default: `node:sqlite` where Node has it, else `better-sqlite3`. */
  driver?: SqliteDriverName;
}

interface Statements {
  insert: SqliteStatement;
  get: SqliteStatement;
  write: SqliteStatement;
  liveOf: SqliteStatement;
  count: SqliteStatement;
  firstPage: SqliteStatement;
  nextPage: SqliteStatement;
  unfinished: SqliteStatement;
  sweep: SqliteStatement;
}

const NULL_OWNER = 'n';

function ownerKey(owner: string | null): string {
  return owner === null ? NULL_OWNER : `o:${owner}`;
}

/**
 * A durable {@link TaskStore} on SQLite: every task is one row (its record as JSON, plus the columns the queries
 * need), written before the call that changed it returns, so a restarted server finds every task it had — finished
 * results until their TTL, unfinished tasks to resume or fail (`TasksServer` does it). Works with either driver:
 * Node's built-in `node:sqlite` (Node >= 22.13) or `better-sqlite3` (any Node: install it yourself).
 *
 * @example
 * import { SqliteTaskStore } from '@mcpkit/tasks/sqlite';
 * const store = await SqliteTaskStore.open('./tasks.db');           // picks the driver this Node has
 * // or: new SqliteTaskStore(new Database('./tasks.db'))            // a better-sqlite3 or node:sqlite handle
 * const taskServer = server.extend(tasks({ store }));
 */
export class SqliteTaskStore implements TaskStore {
  /** The driver that opened the database (`open`), or `undefined` when the handle was given. */
  readonly driver: SqliteDriverName | undefined;
  readonly #db: SqliteDatabase;
  readonly #ownsDb: boolean;
  readonly #maxTasks: number;
  readonly #now: () => number;
  readonly #sql: Statements;
  readonly #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  /** Opens the file at `path` with the driver this Node has (see `openSqliteDatabase`); `close()` closes it. */
  static async open(path: string, options: OpenSqliteTaskStoreOptions = {}): Promise<SqliteTaskStore> {
    const { db, driver } = await openSqliteDatabase(path, options.driver);
    return new SqliteTaskStore(db, options, { owns: true, driver });
  }

  /** Uses an open handle (better-sqlite3 `Database` or `node:sqlite` `DatabaseSync`); `close()` leaves it open. */
  constructor(
    db: SqliteDatabase,
    options: SqliteTaskStoreOptions = {},
    internal: { owns?: boolean; driver?: SqliteDriverName } = {},
  ) {
    const table = options.table ?? 'mcpkit_tasks';
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(table)) {
      throw new RangeError(`SqliteTaskStore: table must be letters, digits and _; got ${JSON.stringify(table)}`);
    }
    const maxTasks = options.maxTasks ?? 100_000;
    if (!(maxTasks >= 1)) throw new RangeError(`SqliteTaskStore: maxTasks must be at least 1; got ${maxTasks}`);
    this.#db = db;
    this.#ownsDb = internal.owns === true;
    this.driver = internal.driver;
    this.#maxTasks = maxTasks;
    this.#now = options.now ?? Date.now;
    db.exec('PRAGMA journal_mode = WAL');
    db.exec(`PRAGMA synchronous = ${options.synchronous === 'FULL' ? 'FULL' : 'NORMAL'}`);
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${table} (
        task_id TEXT PRIMARY KEY,
        owner_key TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER,
        live INTEGER NOT NULL,
        record TEXT NOT NULL
      )`,
    );
    db.exec(`CREATE INDEX IF NOT EXISTS ${table}_owner ON ${table} (owner_key, created_at, task_id)`);
    db.exec(`CREATE INDEX IF NOT EXISTS ${table}_expiry ON ${table} (expires_at) WHERE expires_at IS NOT NULL`);
    db.exec(`CREATE INDEX IF NOT EXISTS ${table}_live ON ${table} (owner_key) WHERE live = 1`);
    const fresh = '(expires_at IS NULL OR expires_at > ?)';
    this.#sql = {
      insert: db.prepare(
        `INSERT INTO ${table} (task_id, owner_key, created_at, expires_at, live, record) VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      get: db.prepare(`SELECT record FROM ${table} WHERE task_id = ? AND ${fresh}`),
      write: db.prepare(`UPDATE ${table} SET live = ?, record = ? WHERE task_id = ?`),
      liveOf: db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE owner_key = ? AND live = 1 AND ${fresh}`),
      count: db.prepare(`SELECT COUNT(*) AS n FROM ${table}`),
      firstPage: db.prepare(
        `SELECT record FROM ${table} WHERE owner_key = ? AND ${fresh} ORDER BY created_at, task_id LIMIT ?`,
      ),
      nextPage: db.prepare(
        `SELECT record FROM ${table} WHERE owner_key = ? AND ${fresh}
         AND (created_at > ? OR (created_at = ? AND task_id > ?)) ORDER BY created_at, task_id LIMIT ?`,
      ),
      unfinished: db.prepare(`SELECT record FROM ${table} WHERE live = 1 AND ${fresh}`),
      sweep: db.prepare(`DELETE FROM ${table} WHERE expires_at IS NOT NULL AND expires_at <= ?`),
    };
    const interval = options.sweepIntervalMs ?? 60_000;
    if (interval > 0) {
      this.#timer = setInterval(() => void this.sweep(this.#now()).catch(() => undefined), interval);
      (this.#timer as { unref?: () => void }).unref?.();
    }
  }

  async create(record: TaskRecord, limits: CreateLimits): Promise<void> {
    this.#open();
    const now = this.#now();
    const owner = ownerKey(record.owner);
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const live = Number((this.#sql.liveOf.get(owner, now) as { n: number }).n);
      if (!isTerminal(record.status) && live >= limits.maxLivePerOwner) {
        throw new TaskStoreError(
          'ERR_TASK_LIMIT',
          `Too many unfinished tasks for this requestor (${live} of ${limits.maxLivePerOwner}): wait for one to finish or cancel one`,
          { limit: limits.maxLivePerOwner, live },
        );
      }
      if (Number((this.#sql.count.get() as { n: number }).n) >= this.#maxTasks) {
        this.#sql.sweep.run(now);
        if (Number((this.#sql.count.get() as { n: number }).n) >= this.#maxTasks) {
          throw new TaskStoreError(
            'ERR_STORE_FULL',
            `The task store is full (${this.#maxTasks} tasks): try again once some expire`,
            { maxTasks: this.#maxTasks },
          );
        }
      }
      try {
        this.#sql.insert.run(
          record.taskId,
          owner,
          record.createdAt,
          record.expiresAt,
          isTerminal(record.status) ? 0 : 1,
          JSON.stringify(record),
        );
      } catch (error) {
        if (!/UNIQUE|PRIMARY KEY/i.test(String((error as Error).message))) throw error;
        throw new TaskStoreError('ERR_DUPLICATE_TASK', `A task with id ${record.taskId} exists already`, {
          taskId: record.taskId,
        });
      }
      this.#db.exec('COMMIT');
    } catch (error) {
      this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    this.#open();
    return this.#read(taskId);
  }

  async update(taskId: string, patch: TaskPatch): Promise<UpdateOutcome> {
    this.#open();
    // One synchronous read-modify-write: nothing else in this process runs in between; BEGIN IMMEDIATE keeps other
    // processes sharing the file out too.
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const current = this.#read(taskId);
      if (current === undefined || isTerminal(current.status)) {
        this.#db.exec('COMMIT');
        return { record: current, applied: false };
      }
      const next = applyPatch(current, patch);
      this.#sql.write.run(isTerminal(next.status) ? 0 : 1, JSON.stringify(next), taskId);
      this.#db.exec('COMMIT');
      return { record: next, applied: true };
    } catch (error) {
      this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  async list(owner: string | null, page: { cursor?: string; limit: number }): Promise<TaskPage> {
    this.#open();
    const now = this.#now();
    const key = ownerKey(owner);
    const rows =
      page.cursor === undefined
        ? this.#sql.firstPage.all(key, now, page.limit + 1)
        : (() => {
            const after = decodeCursor(page.cursor!);
            return this.#sql.nextPage.all(key, now, after.createdAt, after.createdAt, after.taskId, page.limit + 1);
          })();
    const tasks = rows.slice(0, page.limit).map((row) => JSON.parse((row as { record: string }).record) as TaskRecord);
    const result: TaskPage = { tasks };
    if (rows.length > page.limit) result.nextCursor = encodeCursor(tasks[tasks.length - 1]!);
    return result;
  }

  async unfinished(): Promise<TaskRecord[]> {
    this.#open();
    return this.#sql.unfinished
      .all(this.#now())
      .map((row) => JSON.parse((row as { record: string }).record) as TaskRecord);
  }

  async sweep(now: number): Promise<number> {
    if (this.#closed) return 0;
    const outcome = this.#sql.sweep.run(now) as { changes?: number | bigint } | undefined;
    return Number(outcome?.changes ?? 0);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    if (this.#ownsDb) this.#db.close();
  }

  #read(taskId: string): TaskRecord | undefined {
    const row = this.#sql.get.get(taskId, this.#now()) as { record: string } | undefined;
    return row === undefined ? undefined : (JSON.parse(row.record) as TaskRecord);
  }

  #open(): void {
    if (this.#closed) throw new TaskStoreError('ERR_STORE_CLOSED', 'The task store was closed', {});
  }
}
