import {
  type CreateLimits,
  isTerminal,
  type TaskPage,
  type TaskPatch,
  type TaskRecord,
  type TaskStore,
  TaskStoreError,
  type UpdateOutcome,
} from '@mcpkit/tasks/store';
import type {
  DurableObjectIdLike,
  DurableObjectNamespaceLike,
  DurableObjectStateLike,
  DurableObjectStorageLike,
} from './platform';
import { DurableObjectTaskStore, type DurableObjectTaskStoreOptions } from './task-store';

// The Worker's isolates come and go; tasks must not. One Durable Object keeps them (its SQLite database, through
// DurableObjectTaskStore), and every isolate reaches it through TaskObjectStore, a TaskStore whose methods are
// requests to that object. Each call is one round trip; the object serialises them, which is what makes a task's
// limit check and its insert one step across isolates.
//
// Recovery (a TaskServer's `recover`, as on Node): an isolate holds a lease on the object for each TaskServer instance
// that runs tasks in it, renewed with every call and on a timer while it runs any. `unfinished` answers only the
// orphans (unfinished tasks whose instance holds no lease: its isolate is gone) and claims them for the caller for one
// lease, so of several isolates starting at once exactly one resumes or fails each orphan, and a live task is never
// taken from the isolate running it.

type Operation = 'create' | 'get' | 'update' | 'list' | 'unfinished' | 'sweep' | 'renew';

interface Call {
  op: Operation;
  args: unknown[];
  /** The instances with tasks running in the calling isolate: their leases are renewed. */
  live: string[];
  /** How long a lease lasts from this call. */
  leaseMs: number;
}

const LEASE = 'mcp-task-lease:';
const CLAIM = 'mcp-task-claim:';
const DEFAULT_LEASE_MS = 30_000;

type Reply = { value: unknown } | { error: { code: string; message: string; data: unknown } };

/** A patch as it travelled: `null` stands for `undefined` (delete the key); no patch field is ever null itself. */
function patchFromWire(wire: Record<string, unknown>): TaskPatch {
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(wire)) patch[key] = value === null ? undefined : value;
  return patch as TaskPatch;
}

/** Options for {@link defineMcpTaskObject}. */
export type McpTaskObjectOptions = DurableObjectTaskStoreOptions;

/** Options for {@link TaskObjectStore}. */
export interface TaskObjectStoreOptions {
  /** Picks the object (one per name); give each server its own if several share a namespace. Default `'tasks'`. */
  name?: string;
  /**
   * How long an isolate's hold on its running tasks lasts without a renewal (renewed every third of it while tasks
   * run): after an isolate is gone, its unfinished tasks are recovered by the next TaskServer that starts once this
   * has passed. Default 30 s.
   */
  leaseMs?: number;
}

/**
 * The Durable Object class that keeps an MCP server's tasks. Declare it in `new_sqlite_classes`, bind it (e.g.
 * `MCP_TASKS`), and give the server's `TaskServer` a {@link TaskObjectStore} on that binding.
 *
 * @example
 * export const McpTasks = defineMcpTaskObject();
 * // in the server factory:
 * new TaskServer(server, { store: new TaskObjectStore(env.MCP_TASKS) });
 */
export function defineMcpTaskObject(
  options: McpTaskObjectOptions = {},
): new (
  state: DurableObjectStateLike,
  env: unknown,
) => { fetch(request: Request): Promise<Response> } {
  return class McpTaskDurableObject {
    readonly #store: DurableObjectTaskStore;
    readonly #leases: Leases;

    constructor(state: DurableObjectStateLike) {
      this.#store = new DurableObjectTaskStore(state.storage, options);
      this.#leases = new Leases(state.storage, options.now ?? Date.now);
    }

    async fetch(request: Request): Promise<Response> {
      const call = (await request.json()) as Call;
      const store = this.#store;
      await this.#leases.renew(call.live, call.leaseMs);
      let reply: Reply;
      try {
        const [a, b] = call.args as [never, never];
        const value =
          call.op === 'create'
            ? await store.create(a, b)
            : call.op === 'get'
              ? await store.get(a)
              : call.op === 'update'
                ? await store.update(a, patchFromWire(b))
                : call.op === 'list'
                  ? await store.list(a, b)
                  : call.op === 'unfinished'
                    ? await this.#leases.claimOrphans(await store.unfinished(), call.leaseMs)
                    : call.op === 'sweep'
                      ? await store.sweep(a)
                      : undefined;
        reply = { value: value ?? null };
      } catch (error) {
        if (!(error instanceof TaskStoreError)) throw error;
        reply = { error: { code: error.code, message: error.message, data: error.data } };
      }
      return new Response(JSON.stringify(reply), { headers: { 'content-type': 'application/json' } });
    }
  };
}

/** The leases of running instances and the claims on orphans, in the task object's storage (kept across restarts). */
class Leases {
  readonly #storage: DurableObjectStorageLike;
  readonly #now: () => number;
  /** Expiry per key, as last written (loaded from storage once). */
  #known: Map<string, number> | undefined;

  constructor(storage: DurableObjectStorageLike, now: () => number) {
    this.#storage = storage;
    this.#now = now;
  }

  async #all(): Promise<Map<string, number>> {
    if (this.#known === undefined) {
      const leases = await this.#storage.list<number>({ prefix: LEASE });
      const claims = await this.#storage.list<number>({ prefix: CLAIM });
      this.#known = new Map([...leases, ...claims]);
    }
    return this.#known;
  }

  async renew(instances: readonly string[], leaseMs: number): Promise<void> {
    if (instances.length === 0) return;
    const known = await this.#all();
    const until = this.#now() + leaseMs;
    const writes: Record<string, number> = {};
    let any = false;
    for (const instance of instances) {
      const key = LEASE + instance;
      // A lease is written again once a quarter of it has passed: not on every call.
      if ((known.get(key) ?? 0) - until > -leaseMs / 4) continue;
      known.set(key, until);
      writes[key] = until;
      any = true;
    }
    if (any) await this.#storage.put(writes);
  }

  /** The unfinished tasks nobody runs (no live lease of their instance, no live claim), now claimed by the caller. */
  async claimOrphans(unfinished: TaskRecord[], leaseMs: number): Promise<TaskRecord[]> {
    const known = await this.#all();
    const now = this.#now();
    const live = (key: string) => (known.get(key) ?? 0) > now;
    const orphans = unfinished.filter(
      (record) => !(record.instance !== undefined && live(LEASE + record.instance)) && !live(CLAIM + record.taskId),
    );
    const writes: Record<string, number> = {};
    for (const record of orphans) {
      known.set(CLAIM + record.taskId, now + leaseMs);
      writes[CLAIM + record.taskId] = now + leaseMs;
    }
    const expired = [...known].filter(([, until]) => until <= now).map(([key]) => key);
    for (const key of expired) known.delete(key);
    if (orphans.length > 0) await this.#storage.put(writes);
    if (expired.length > 0) await this.#storage.delete(expired);
    return orphans;
  }
}

/**
 * A `TaskStore` kept by the task Durable Object of {@link defineMcpTaskObject}: what a `TaskServer` in a Worker uses,
 * so a task created in one isolate is found by `tasks/get` in any other, and outlives them all. A `TaskServer` on it
 * recovers the tasks of isolates that are gone (`recover`, the default), as on Node: resumable ones run again, the
 * others read `failed`.
 *
 * @example
 * const tasks = new TaskServer(server, { store: new TaskObjectStore(env.MCP_TASKS) });
 */
export class TaskObjectStore implements TaskStore {
  readonly #namespace: DurableObjectNamespaceLike;
  readonly #id: DurableObjectIdLike;
  readonly #leaseMs: number;
  /** Tasks running in this isolate, and the TaskServer instance running each (its lease is this isolate's to keep). */
  readonly #running = new Map<string, string | undefined>();
  /** Orphans handed to this isolate's TaskServer that it has not resumed or failed yet. */
  readonly #claimed = new Set<string>();
  /** `unfinished` calls in flight: their orphans are not known yet. */
  #recovering = 0;
  #renewal: ReturnType<typeof setInterval> | undefined;
  #waiters: Array<() => void> = [];

  constructor(namespace: DurableObjectNamespaceLike, options: TaskObjectStoreOptions | string = {}) {
    const { name = 'tasks', leaseMs = DEFAULT_LEASE_MS } = typeof options === 'string' ? { name: options } : options;
    if (!(leaseMs >= 100)) throw new RangeError(`TaskObjectStore: leaseMs must be at least 100; got ${leaseMs}`);
    this.#namespace = namespace;
    this.#id = namespace.idFromName(name);
    this.#leaseMs = leaseMs;
  }

  async create(record: TaskRecord, limits: CreateLimits): Promise<void> {
    if (!isTerminal(record.status)) this.#started(record.taskId, record.instance);
    try {
      await this.#call('create', [record, limits]);
    } catch (error) {
      this.#ended(record.taskId);
      throw error;
    }
  }

  /**
   * Resolves once every task this isolate started (or resumed) has ended. A Worker's isolate may stop running a
   * request's work once its response is sent; pass this to `ctx.waitUntil` (`createMcpWorker`'s `waitUntil` option
   * does) so a task runs to its end, within the platform's limits on work after a response.
   */
  settled(): Promise<void> {
    if (this.#idle()) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    return ((await this.#call('get', [taskId])) as TaskRecord | null) ?? undefined;
  }

  async update(taskId: string, patch: TaskPatch): Promise<UpdateOutcome> {
    // `undefined` in a patch deletes a key; JSON would drop it, so it travels as null and is turned back here.
    const wire: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(patch)) wire[key] = value === undefined ? null : value;
    // A patch naming an instance is a TaskServer here taking the task over (a resume): this isolate now runs it.
    if (patch.instance !== undefined && patch.status !== undefined && !isTerminal(patch.status)) {
      this.#started(taskId, patch.instance);
    }
    const outcome = (await this.#call('update', [taskId, wire])) as { record: TaskRecord | null; applied: boolean };
    if (outcome.record === null || isTerminal(outcome.record.status)) this.#ended(taskId);
    else if (this.#claimed.delete(taskId)) this.#ended(undefined);
    return { record: outcome.record ?? undefined, applied: outcome.applied };
  }

  list(owner: string | null, page: { cursor?: string; limit: number }): Promise<TaskPage> {
    return this.#call('list', [owner, page]) as Promise<TaskPage>;
  }

  async unfinished(): Promise<TaskRecord[]> {
    this.#recovering++;
    try {
      const orphans = (await this.#call('unfinished', [])) as TaskRecord[];
      for (const record of orphans) this.#claimed.add(record.taskId);
      return orphans;
    } finally {
      this.#recovering--;
      this.#ended(undefined);
    }
  }

  sweep(now: number): Promise<number> {
    return this.#call('sweep', [now]) as Promise<number>;
  }

  async close(): Promise<void> {
    // Nothing held here but waiters and the lease: the object keeps the tasks, and a lease not renewed runs out.
    this.#running.clear();
    this.#claimed.clear();
    this.#ended(undefined);
  }

  #idle(): boolean {
    return this.#running.size === 0 && this.#claimed.size === 0 && this.#recovering === 0;
  }

  #started(taskId: string, instance: string | undefined): void {
    this.#running.set(taskId, instance);
    this.#claimed.delete(taskId);
    if (this.#renewal !== undefined) return;
    // The lease outlives a renewal that comes late by two thirds of it.
    this.#renewal = setInterval(() => {
      this.#call('renew', []).catch(() => undefined); // the next one tries again
    }, this.#leaseMs / 3);
  }

  #ended(taskId: string | undefined): void {
    if (taskId !== undefined) {
      this.#running.delete(taskId);
      this.#claimed.delete(taskId);
    }
    if (this.#running.size === 0 && this.#renewal !== undefined) {
      clearInterval(this.#renewal);
      this.#renewal = undefined;
    }
    if (!this.#idle()) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }

  async #call(op: Operation, args: unknown[]): Promise<unknown> {
    const live = [...new Set([...this.#running.values()].filter((instance) => instance !== undefined))];
    // A stub per call: workerd ties a stub to the request that made it, and this store serves every request.
    const response = await this.#namespace.get(this.#id).fetch(
      new Request('https://mcp-tasks.internal/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ op, args, live, leaseMs: this.#leaseMs } satisfies Call),
      }),
    );
    if (!response.ok) throw new Error(`The task object answered ${response.status} to ${op}`);
    const reply = (await response.json()) as Reply;
    if ('error' in reply) {
      throw new TaskStoreError(reply.error.code as never, reply.error.message, reply.error.data as never);
    }
    return reply.value;
  }
}
