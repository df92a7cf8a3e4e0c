import type { JsonRpcParams } from '@mcpkit/jsonrpc-core';
import { type InputRequest, MetaKeys } from '@mcpkit/protocol';
import type { InputAsk, ServerRequestContext, ServerSession } from '@mcpkit/server';
import type { TaskEra } from '../task-record';

/** One input request of a running task, waiting for its answer. */
interface PendingAsk {
  readonly request: InputRequest;
  readonly resolve: (answer: unknown) => void;
  readonly reject: (error: unknown) => void;
  /** Legacy: sent on a `tasks/result` stream, answer not back yet. */
  delivering: boolean;
}

/** What a running task tells the server about (it persists and announces each change). */
export interface RunningTaskEvents {
  /** The set of unanswered input requests changed (empty: back to `working`). */
  inputsChanged(task: RunningTask): void;
  /** Something nobody awaits failed (a notification write). */
  error(error: unknown): void;
}

/** What a running task keeps of its era's rules (given by the task server, which holds them). */
export interface RunningTaskEra {
  readonly era: TaskEra;
  /** Legacy: the session that created the task. */
  readonly session: ServerSession | undefined;
  /** Asks go out at once over a waiting `tasks/result` (legacy). */
  readonly deliversAsks: boolean;
}

/**
 * The in-process side of a task this server runs: the handler's abort controller, its input requests waiting for
 * answers, and (2025-11-25) the `tasks/result` requests it may deliver those on. The task's durable state is in the
 * store; this object lives while the handler runs.
 */
export class RunningTask {
  readonly taskId: string;
  readonly era: TaskEra;
  readonly controller = new AbortController();
  /** Legacy: the session that created the task (status notifications, progress when no `tasks/result` waits). */
  readonly session: ServerSession | undefined;
  /** Settles once the task is terminal. */
  readonly done: Promise<void>;
  readonly #events: RunningTaskEvents;
  readonly #asks = new Map<string, PendingAsk>();
  /** Legacy: `tasks/result` requests waiting on this task, newest last. */
  readonly #waiters = new Set<ServerRequestContext>();
  #markDone!: () => void;

  /** Whether an ask goes out at once over a waiting `tasks/result` (the era's rule, `TaskEraRules.deliversAsks`). */
  readonly #deliversAsks: boolean;

  constructor(taskId: string, how: RunningTaskEra, events: RunningTaskEvents) {
    this.taskId = taskId;
    this.era = how.era;
    this.session = how.session;
    this.#deliversAsks = how.deliversAsks;
    this.#events = events;
    this.done = new Promise<void>((resolve) => {
      this.#markDone = resolve;
    });
  }

  /** The unanswered input requests, by key. */
  get inputRequests(): Record<string, InputRequest> {
    const out: Record<string, InputRequest> = {};
    for (const [key, ask] of this.#asks) out[key] = ask.request;
    return out;
  }

  get hasPendingInput(): boolean {
    return this.#asks.size > 0;
  }

  /** The handler asked for input: kept until answered (modern: `tasks/update`; legacy: over a `tasks/result`). */
  ask(input: InputAsk): Promise<unknown> {
    const request = (
      input.params === undefined ? { method: input.method } : { method: input.method, params: input.params }
    ) as InputRequest;
    return new Promise((resolve, reject) => {
      this.#asks.set(input.key, { request, resolve, reject, delivering: false });
      this.#events.inputsChanged(this);
      // A legacy ask is delivered over a waiting tasks/result now; a modern one waits in the task's inputRequests for
      // tasks/get (the running task holds the asks of both eras).
      if (this.#deliversAsks) this.#deliver();
    });
  }

  /** Answers the pending input request `key` (modern `tasks/update`); false when it is not pending. */
  answer(key: string, value: unknown): boolean {
    const ask = this.#asks.get(key);
    if (ask === undefined) return false;
    this.#asks.delete(key);
    ask.resolve(value);
    return true;
  }

  /** Legacy: a `tasks/result` request waits on this task; pending input goes out on its stream. */
  addWaiter(ctx: ServerRequestContext): void {
    this.#waiters.add(ctx);
    ctx.signal.addEventListener('abort', () => this.#waiters.delete(ctx), { once: true });
    this.#deliver();
  }

  removeWaiter(ctx: ServerRequestContext): void {
    this.#waiters.delete(ctx);
  }

  /**
   * Sends a notification of the handler's (progress, log) where the requestor can see it: on a waiting `tasks/result`
   * stream, else on the session that created the task, tagged with the related-task `_meta`.
   */
  notify(method: string, params: JsonRpcParams | undefined): Promise<void> {
    const tagged = this.#related(params as Record<string, unknown> | undefined);
    const waiter = this.#newestWaiter();
    if (waiter !== undefined) return waiter.notify(method, tagged);
    const session = this.session;
    if (session === undefined || !session.connected) return Promise.resolve();
    return session.notify(method, tagged);
  }

  /** The task ended: pending asks fail, waiters are released. */
  finish(reason: unknown): void {
    for (const ask of this.#asks.values()) ask.reject(reason);
    this.#asks.clear();
    this.#markDone();
  }

  #newestWaiter(): ServerRequestContext | undefined {
    let newest: ServerRequestContext | undefined;
    for (const waiter of this.#waiters) if (!waiter.signal.aborted) newest = waiter;
    return newest;
  }

  /** Legacy: sends each undelivered input request on a waiting `tasks/result` (2025-11-25 § Input Required Status). */
  #deliver(): void {
    const waiter = this.#newestWaiter();
    if (waiter === undefined) return;
    for (const [key, ask] of this.#asks) {
      if (ask.delivering) continue;
      ask.delivering = true;
      const params = this.#related(ask.request.params as Record<string, unknown> | undefined);
      const sent =
        ask.request.method === 'elicitation/create'
          ? waiter.elicit(params as never)
          : ask.request.method === 'sampling/createMessage'
            ? waiter.createMessage(params as never)
            : waiter.listRoots(params as never);
      sent.then(
        (value) => {
          if (this.#asks.get(key) !== ask) return;
          this.#asks.delete(key);
          ask.resolve(value);
          this.#events.inputsChanged(this);
        },
        (error: unknown) => {
          if (this.#asks.get(key) !== ask) return;
          ask.delivering = false;
          // The tasks/result stream went away: the next one delivers it. Anything else is the client's answer.
          if (waiter.signal.aborted) this.#deliver();
          else {
            this.#asks.delete(key);
            ask.reject(error);
            this.#events.inputsChanged(this);
          }
        },
      );
    }
  }

  #related(params: Record<string, unknown> | undefined): Record<string, unknown> {
    const meta = params?._meta as Record<string, unknown> | undefined;
    return { ...params, _meta: { ...meta, [MetaKeys.RelatedTask]: { taskId: this.taskId } } };
  }
}
