import { isTerminal, type TaskPatch, type TaskRecord } from './task-record';
import {
  applyPatch,
  type CreateLimits,
  decodeCursor,
  encodeCursor,
  type TaskPage,
  type TaskStore,
  TaskStoreError,
  type UpdateOutcome,
} from './task-store';

/** Options of `InMemoryTaskStore`. */
export interface InMemoryTaskStoreOptions {
  /** The most tasks kept at once, live or finished (finished ones stay until their TTL). Default 10 000. */
  maxTasks?: number;
  /** How often expired tasks are swept, in ms; 0 disables the timer (reads still miss expired tasks). Default 60 000. */
  sweepIntervalMs?: number;
  /** The clock (tests). Default `Date.now`. */
  now?: () => number;
}

const NULL_OWNER = '\u0000';

/**
 * The default {@link TaskStore}: tasks in this process's memory, bounded (`maxTasks`), swept when their TTL passes.
 * Tasks do not survive a restart: use `SqliteTaskStore` (`@mcpkit/tasks/sqlite`) for that, or a shared store for
 * several instances.
 *
 * @example
 * const store = new InMemoryTaskStore({ maxTasks: 1_000, sweepIntervalMs: 10_000 });
 * const taskServer = server.extend(tasks({ store }));
 */
export class InMemoryTaskStore implements TaskStore {
  readonly #maxTasks: number;
  readonly #now: () => number;
  readonly #tasks = new Map<string, TaskRecord>();
  /** Per owner, their tasks in creation order (list pages walk it). */
  readonly #byOwner = new Map<string, Map<string, TaskRecord>>();
  /** Per owner, how many of their tasks are not terminal. */
  readonly #live = new Map<string, number>();
  readonly #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(options: InMemoryTaskStoreOptions = {}) {
    const maxTasks = options.maxTasks ?? 10_000;
    if (!(maxTasks >= 1)) throw new RangeError(`InMemoryTaskStore: maxTasks must be at least 1; got ${maxTasks}`);
    this.#maxTasks = maxTasks;
    this.#now = options.now ?? Date.now;
    const interval = options.sweepIntervalMs ?? 60_000;
    if (interval > 0) {
      this.#timer = setInterval(() => void this.sweep(this.#now()), interval);
      // Never keeps a process alive on its own (Node, Deno, Bun have unref; browsers have no such need).
      (this.#timer as { unref?: () => void }).unref?.();
    }
  }

  /** How many tasks the store holds now (expired ones not yet swept included). */
  get size(): number {
    return this.#tasks.size;
  }

  async create(record: TaskRecord, limits: CreateLimits): Promise<void> {
    this.#open();
    if (this.#tasks.has(record.taskId)) {
      throw new TaskStoreError('ERR_DUPLICATE_TASK', `A task with id ${record.taskId} exists already`, {
        taskId: record.taskId,
      });
    }
    const owner = record.owner ?? NULL_OWNER;
    const live = this.#live.get(owner) ?? 0;
    if (!isTerminal(record.status) && live >= limits.maxLivePerOwner) {
      throw new TaskStoreError(
        'ERR_TASK_LIMIT',
        `Too many unfinished tasks for this requestor (${live} of ${limits.maxLivePerOwner}): wait for one to finish or cancel one`,
        { limit: limits.maxLivePerOwner, live },
      );
    }
    if (this.#tasks.size >= this.#maxTasks) {
      await this.sweep(this.#now());
      if (this.#tasks.size >= this.#maxTasks) {
        throw new TaskStoreError(
          'ERR_STORE_FULL',
          `The task store is full (${this.#maxTasks} tasks): try again once some expire`,
          { maxTasks: this.#maxTasks },
        );
      }
    }
    const stored = { ...record };
    this.#tasks.set(record.taskId, stored);
    let mine = this.#byOwner.get(owner);
    if (mine === undefined) {
      mine = new Map();
      this.#byOwner.set(owner, mine);
    }
    mine.set(record.taskId, stored);
    if (!isTerminal(record.status)) this.#live.set(owner, live + 1);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    this.#open();
    const record = this.#tasks.get(taskId);
    if (record === undefined) return undefined;
    if (record.expiresAt !== null && record.expiresAt <= this.#now()) {
      this.#delete(record);
      return undefined;
    }
    return { ...record };
  }

  async update(taskId: string, patch: TaskPatch): Promise<UpdateOutcome> {
    this.#open();
    const current = this.#tasks.get(taskId);
    if (current === undefined || (current.expiresAt !== null && current.expiresAt <= this.#now())) {
      return { record: undefined, applied: false };
    }
    if (isTerminal(current.status)) return { record: { ...current }, applied: false };
    const next = applyPatch(current, patch);
    const owner = current.owner ?? NULL_OWNER;
    this.#tasks.set(taskId, next);
    this.#byOwner.get(owner)?.set(taskId, next);
    if (isTerminal(next.status)) this.#finished(owner);
    return { record: { ...next }, applied: true };
  }

  async list(owner: string | null, page: { cursor?: string; limit: number }): Promise<TaskPage> {
    this.#open();
    const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
    const mine = this.#byOwner.get(owner ?? NULL_OWNER);
    const tasks: TaskRecord[] = [];
    if (mine === undefined) return { tasks };
    const now = this.#now();
    let started = after === undefined;
    let more = false;
    for (const record of mine.values()) {
      if (!started) {
        // Past the task the cursor names, or (if it expired meanwhile) past the time it was created.
        if (record.taskId === after!.taskId) {
          started = true;
          continue;
        }
        if (record.createdAt <= after!.createdAt) continue;
        started = true;
      }
      if (record.expiresAt !== null && record.expiresAt <= now) continue;
      if (tasks.length === page.limit) {
        more = true;
        break;
      }
      tasks.push({ ...record });
    }
    const result: TaskPage = { tasks };
    if (more) result.nextCursor = encodeCursor(tasks[tasks.length - 1]!);
    return result;
  }

  async unfinished(): Promise<TaskRecord[]> {
    this.#open();
    const now = this.#now();
    const out: TaskRecord[] = [];
    for (const record of this.#tasks.values()) {
      if (!isTerminal(record.status) && (record.expiresAt === null || record.expiresAt > now)) out.push({ ...record });
    }
    return out;
  }

  async sweep(now: number): Promise<number> {
    let removed = 0;
    for (const record of this.#tasks.values()) {
      if (record.expiresAt !== null && record.expiresAt <= now) {
        this.#delete(record);
        removed++;
      }
    }
    return removed;
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
  }

  #delete(record: TaskRecord): void {
    const owner = record.owner ?? NULL_OWNER;
    this.#tasks.delete(record.taskId);
    const mine = this.#byOwner.get(owner);
    mine?.delete(record.taskId);
    if (mine?.size === 0) this.#byOwner.delete(owner);
    if (!isTerminal(record.status)) this.#finished(owner);
  }

  #finished(owner: string): void {
    const live = (this.#live.get(owner) ?? 1) - 1;
    if (live > 0) this.#live.set(owner, live);
    else this.#live.delete(owner);
  }

  #open(): void {
    if (this.#closed) throw new TaskStoreError('ERR_STORE_CLOSED', 'The task store was closed', {});
  }
}
