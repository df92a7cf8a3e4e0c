import type { InputHandlers } from '@mcpkit/client';
import { JsonRpcError, type JsonRpcErrorObject } from '@mcpkit/jsonrpc-core';
import type { CallToolResult, InputRequests, InputResponses } from '@mcpkit/protocol';
import type { TaskClientEraRules } from './eras/task-client-eras';
import { TaskClientError } from './task-client-error';
import { isTerminalStatus, readTaskInfo, type TaskInfo } from './task-info';

/** What a handle needs from the `TasksClient` that made it. */
export interface TaskHandleHost {
  /** The rules of tasks in the connection's era. */
  readonly rules: TaskClientEraRules;
  request(
    method: string,
    params: Record<string, unknown>,
    options?: { signal?: AbortSignal; timeoutMs?: number },
  ): Promise<Record<string, unknown>>;
  answerInputRequests(
    inputRequests: InputRequests,
    signal: AbortSignal | undefined,
    handlers?: InputHandlers,
  ): Promise<InputResponses>;
  /** 2026-07-28: opens a listen stream for `notifications/tasks` of this task, if the server offers it. */
  listen(taskId: string): Promise<{ close(): Promise<void> } | undefined>;
  /** The polling interval when the server suggests none. */
  readonly defaultPollIntervalMs: number;
  /** Bounds the server's suggestion, so a bad value can neither hammer nor stall. */
  readonly minPollIntervalMs: number;
  readonly maxPollIntervalMs: number;
  forget(handle: TaskHandle): void;
}

/** Options of `TaskHandle.wait`. */
export interface WaitOptions {
  /** Stops waiting (the task itself goes on: call `cancel()` to stop it). */
  signal?: AbortSignal;
  /**
   * 2026-07-28: answers the task's input requests instead of the client's `handlers` (a gateway asks the caller whose
   * task mirrors this one).
   */
  inputHandlers?: InputHandlers;
}

/**
 * A task started with `TasksClient.callToolAsTask` (or found again by id with `TasksClient.task`): watch it, wait for
 * its result, cancel it. The same API against a 2025-11-25 server (`tasks/get`, `tasks/result`, status notifications)
 * and a 2026-07-28 one (`tasks/get` with inlined results, `tasks/update`, `notifications/tasks` on a listen stream).
 *
 * @example
 * const task = await tasks.callToolAsTask({ name: 'build', arguments: {} }, { onProgress: (p) => console.log(p) });
 * task.onStatus((info) => console.log(info.status, info.statusMessage));
 * const result = await task.wait();
 */
export class TaskHandle {
  readonly taskId: string;
  readonly #host: TaskHandleHost;
  readonly #listeners = new Set<(info: TaskInfo) => void>();
  readonly #wakers = new Set<() => void>();
  /** 2026-07-28: input request keys already answered (a later `tasks/get` may still list them for a moment). */
  readonly #answered = new Set<string>();
  #last: TaskInfo | undefined;
  /** The wire form of `#last` (2026-07-28 terminal tasks carry their result or error in it). */
  #lastRaw: Record<string, unknown> | undefined;
  /** The result when the server answered at once instead of creating a task. */
  readonly #immediate: CallToolResult | undefined;

  /** @internal Made by `TasksClient`. */
  constructor(host: TaskHandleHost, taskId: string, first?: TaskInfo, immediate?: CallToolResult) {
    this.#host = host;
    this.taskId = taskId;
    this.#last = first;
    this.#immediate = immediate;
  }

  /** The latest state seen (from polls and notifications), if any yet. */
  get last(): TaskInfo | undefined {
    return this.#last;
  }

  /** Whether the server answered the call at once (no task was created): `wait()` returns that result. */
  get immediate(): boolean {
    return this.#immediate !== undefined;
  }

  /** Calls `listener` on every status change seen. Returns a function that removes it. */
  onStatus(listener: (info: TaskInfo) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The task's current state (`tasks/get`). */
  async status(options: { signal?: AbortSignal } = {}): Promise<TaskInfo> {
    if (this.#immediate !== undefined) return this.#last!;
    const raw = await this.#host.request('tasks/get', { taskId: this.taskId }, options);
    const info = readTaskInfo(raw);
    if (info === undefined) {
      throw new TaskClientError('ERR_INVALID_TASK', `tasks/get answered with something that is not a task`, {
        taskId: this.taskId,
        result: raw,
      });
    }
    this.observe(info, raw);
    return info;
  }

  /**
   * Drives the task to its end and returns its result (or throws its error): polls `tasks/get` at the server's
   * `pollInterval`, woken early by status notifications; answers input requests with the client's handlers (2025-11-25:
   * through `tasks/result`, on whose stream the server sends them; 2026-07-28: `tasks/update`).
   */
  async wait(options: WaitOptions = {}): Promise<CallToolResult> {
    if (this.#immediate !== undefined) return this.#immediate;
    const { signal } = options;
    const stream = this.#host.rules.listensForStatus
      ? await this.#host.listen(this.taskId).catch(() => undefined)
      : undefined;
    try {
      for (;;) {
        signal?.throwIfAborted();
        const info = await this.status({ signal });
        if (isTerminalStatus(info.status)) return await this.result({ signal });
        if (info.status === 'input_required') {
          if (this.#host.rules.resultBlocks) return await this.#legacyResult(signal);
          if (await this.#answer(info, signal, options.inputHandlers)) continue;
        }
        await this.#sleep(this.#interval(info), signal);
      }
    } finally {
      await stream?.close().catch(() => undefined);
    }
  }

  /**
   * The result of the task: 2025-11-25 `tasks/result` (which blocks until the task ends); 2026-07-28 the result
   * inlined in `tasks/get` (waits like `wait()` while the task runs). A failed task throws its JSON-RPC error; a
   * cancelled one `TaskClientError` `ERR_TASK_CANCELLED`.
   */
  async result(options: WaitOptions = {}): Promise<CallToolResult> {
    if (this.#immediate !== undefined) return this.#immediate;
    if (this.#host.rules.resultBlocks) return this.#legacyResult(options.signal);
    const raw = this.#lastRaw !== undefined && isTerminalStatus(this.#last!.status) ? this.#lastRaw : undefined;
    if (raw === undefined) {
      const info = await this.status(options);
      if (!isTerminalStatus(info.status)) return this.wait(options);
    }
    const terminal = this.#lastRaw!;
    switch (this.#last!.status) {
      case 'completed':
        return terminal.result as CallToolResult;
      case 'failed': {
        const error = terminal.error as JsonRpcErrorObject | undefined;
        throw error === undefined
          ? new TaskClientError('ERR_TASK_FAILED', this.#last!.statusMessage ?? 'The task failed', {
              taskId: this.taskId,
            })
          : JsonRpcError.fromObject(error);
      }
      default:
        throw this.#cancelledError();
    }
  }

  /** Asks the server to cancel the task (`tasks/cancel`). */
  async cancel(options: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.#immediate !== undefined) return;
    const raw = await this.#host.request('tasks/cancel', { taskId: this.taskId }, options);
    const info = readTaskInfo(raw);
    if (info !== undefined) this.observe(info);
  }

  /** Stops routing notifications to this handle (the task goes on; `TasksClient.task(id)` finds it again). */
  release(): void {
    this.#host.forget(this);
  }

  /** @internal A state seen elsewhere (a status notification): recorded, listeners told, waiters woken. */
  observe(info: TaskInfo, raw?: Record<string, unknown>): void {
    const previous = this.#last;
    this.#last = info;
    if (raw !== undefined) this.#lastRaw = raw;
    const changed =
      previous === undefined ||
      previous.status !== info.status ||
      previous.statusMessage !== info.statusMessage ||
      previous.lastUpdatedAt !== info.lastUpdatedAt;
    if (changed) for (const listener of this.#listeners) listener(info);
    for (const wake of this.#wakers) wake();
    // A finished task gets no more notifications: the client stops routing them here (`TasksClient.task` finds it).
    if (isTerminalStatus(info.status)) this.#host.forget(this);
  }

  /** 2025-11-25: `tasks/result`, waiting as long as the task runs (input requests arrive on its stream). */
  async #legacyResult(signal: AbortSignal | undefined): Promise<CallToolResult> {
    if (this.#last?.status === 'cancelled') throw this.#cancelledError();
    try {
      const result = await this.#host.request('tasks/result', { taskId: this.taskId }, { signal, timeoutMs: 0 });
      return result as unknown as CallToolResult;
    } catch (error) {
      // 2025-11-25 answers `tasks/result` of a cancelled task with a JSON-RPC error (-32603 from mcpkit): report it as
      // 2026-07-28 does, so the same client code catches the same error in both eras.
      if (!JsonRpcError.is(error)) throw error;
      const info = await this.status({ signal }).catch(() => undefined);
      if (info?.status === 'cancelled') throw this.#cancelledError(error);
      throw error;
    }
  }

  /** 2026-07-28: answers the input requests not answered yet, with `tasks/update`. True when it sent answers. */
  async #answer(info: TaskInfo, signal: AbortSignal | undefined, handlers?: InputHandlers): Promise<boolean> {
    const fresh: InputRequests = {};
    for (const [key, request] of Object.entries(info.inputRequests ?? {})) {
      if (!this.#answered.has(key)) fresh[key] = request;
    }
    if (Object.keys(fresh).length === 0) return false;
    const inputResponses = await this.#host.answerInputRequests(fresh, signal, handlers);
    for (const key of Object.keys(fresh)) this.#answered.add(key);
    await this.#host.request('tasks/update', { taskId: this.taskId, inputResponses }, { signal });
    return true;
  }

  #interval(info: TaskInfo): number {
    const suggested = info.pollIntervalMs ?? this.#host.defaultPollIntervalMs;
    return Math.min(this.#host.maxPollIntervalMs, Math.max(this.#host.minPollIntervalMs, suggested));
  }

  #sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#wakers.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#wakers.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  #cancelledError(cause?: unknown): TaskClientError {
    return new TaskClientError(
      'ERR_TASK_CANCELLED',
      this.#last?.statusMessage ?? 'The task was cancelled',
      { taskId: this.taskId },
      cause === undefined ? undefined : { cause },
    );
  }
}
