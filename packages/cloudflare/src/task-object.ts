import {
  type CreateLimits,
  isTerminal,
  type TaskPage,
  type TaskPatch,
  type TaskRecord,
  type TaskStore,
  TaskStoreError,
  type UpdateOutcome,
} from '@mcpkit/tasks';
import type { DurableObjectIdLike, DurableObjectNamespaceLike, DurableObjectStateLike } from './platform';
import { DurableObjectTaskStore, type DurableObjectTaskStoreOptions } from './task-store';

// The Worker's isolates come and go; tasks must not. One Durable Object keeps them (its SQLite database, through
// DurableObjectTaskStore), and every isolate reaches it through TaskObjectStore, a TaskStore whose methods are
// requests to that object. Each call is one round trip; the object serialises them, which is what makes a task's
// limit check and its insert one step across isolates.

type Operation = 'create' | 'get' | 'update' | 'list' | 'unfinished' | 'sweep';

interface Call {
  op: Operation;
  args: unknown[];
}

type Reply = { value: unknown } | { error: { code: string; message: string; data: unknown } };

/** A patch as it travelled: `null` stands for `undefined` (delete the key); no patch field is ever null itself. */
function patchFromWire(wire: Record<string, unknown>): TaskPatch {
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(wire)) patch[key] = value === null ? undefined : value;
  return patch as TaskPatch;
}

/** Options for {@link defineMcpTaskObject}. */
export type McpTaskObjectOptions = DurableObjectTaskStoreOptions;

/**
 * The Durable Object class that keeps an MCP server's tasks. Declare it in `new_sqlite_classes`, bind it (e.g.
 * `MCP_TASKS`), and give the server's `TaskServer` a {@link TaskObjectStore} on that binding.
 *
 * @example
 * export const McpTasks = defineMcpTaskObject();
 * // in the server factory:
 * new TaskServer(server, { store: new TaskObjectStore(env.MCP_TASKS), recover: false });
 */
export function defineMcpTaskObject(
  options: McpTaskObjectOptions = {},
): new (
  state: DurableObjectStateLike,
  env: unknown,
) => { fetch(request: Request): Promise<Response> } {
  return class McpTaskDurableObject {
    readonly #store: DurableObjectTaskStore;

    constructor(state: DurableObjectStateLike) {
      this.#store = new DurableObjectTaskStore(state.storage, options);
    }

    async fetch(request: Request): Promise<Response> {
      const call = (await request.json()) as Call;
      const store = this.#store;
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
                    ? await store.unfinished()
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

/**
 * A `TaskStore` kept by the task Durable Object of {@link defineMcpTaskObject}: what a `TaskServer` in a Worker uses,
 * so a task created in one isolate is found by `tasks/get` in any other, and outlives them all.
 *
 * @example
 * const tasks = new TaskServer(server, { store: new TaskObjectStore(env.MCP_TASKS), recover: false });
 */
export class TaskObjectStore implements TaskStore {
  readonly #namespace: DurableObjectNamespaceLike;
  readonly #id: DurableObjectIdLike;
  /** Tasks this isolate created that have not ended, and who waits for there to be none. */
  readonly #running = new Set<string>();
  #waiters: Array<() => void> = [];

  /** `name` picks the object (one per name); give each server its own if several share a namespace. */
  constructor(namespace: DurableObjectNamespaceLike, name = 'tasks') {
    this.#namespace = namespace;
    this.#id = namespace.idFromName(name);
  }

  async create(record: TaskRecord, limits: CreateLimits): Promise<void> {
    await this.#call('create', [record, limits]);
    if (!isTerminal(record.status)) this.#running.add(record.taskId);
  }

  /**
   * Resolves once every task this isolate started has ended. A Worker's isolate may stop running a request's work
   * once its response is sent; pass this to `ctx.waitUntil` (`createMcpWorker`'s `waitUntil` option does) so a task
   * runs to its end, within the platform's limits on work after a response.
   */
  settled(): Promise<void> {
    if (this.#running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    return ((await this.#call('get', [taskId])) as TaskRecord | null) ?? undefined;
  }

  async update(taskId: string, patch: TaskPatch): Promise<UpdateOutcome> {
    // `undefined` in a patch deletes a key; JSON would drop it, so it travels as null and is turned back here.
    const wire: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(patch)) wire[key] = value === undefined ? null : value;
    const outcome = (await this.#call('update', [taskId, wire])) as { record: TaskRecord | null; applied: boolean };
    if (outcome.record === null || isTerminal(outcome.record.status)) this.#ended(taskId);
    return { record: outcome.record ?? undefined, applied: outcome.applied };
  }

  list(owner: string | null, page: { cursor?: string; limit: number }): Promise<TaskPage> {
    return this.#call('list', [owner, page]) as Promise<TaskPage>;
  }

  unfinished(): Promise<TaskRecord[]> {
    return this.#call('unfinished', []) as Promise<TaskRecord[]>;
  }

  sweep(now: number): Promise<number> {
    return this.#call('sweep', [now]) as Promise<number>;
  }

  async close(): Promise<void> {
    // Nothing held here but waiters: the object keeps the tasks.
    this.#running.clear();
    this.#ended(undefined);
  }

  #ended(taskId: string | undefined): void {
    if (taskId !== undefined) this.#running.delete(taskId);
    if (this.#running.size > 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }

  async #call(op: Operation, args: unknown[]): Promise<unknown> {
    // A stub per call: workerd ties a stub to the request that made it, and this store serves every request.
    const response = await this.#namespace.get(this.#id).fetch(
      new Request('https://mcp-tasks.internal/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ op, args } satisfies Call),
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
