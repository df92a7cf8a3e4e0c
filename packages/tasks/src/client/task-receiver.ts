import type { Client, ClientMiddleware } from '@mcpkit/client';
import { isJsonObject as isObject, JsonRpcError, JsonRpcErrorCode } from '@mcpkit/jsonrpc-core';
import { invalidParamsError, MetaKeys } from '@mcpkit/protocol';
import { InMemoryTaskStore } from '../memory-store';
import { newTaskId } from '../task-ids';
import { isTerminal, type TaskPatch, type TaskRecord } from '../task-record';
import type { TaskStore } from '../task-store';
import { legacyTask } from '../task-wire';
import { taskClientEra } from './eras/task-client-eras';

/** Options of the client's side of task-augmented sampling and elicitation (`TasksClientOptions.receiver`). */
export interface TaskReceiverOptions {
  /** Where the client keeps the tasks it runs for the server. Default: in memory. */
  store?: TaskStore;
  /** Retention when the server asks for none, in ms. Default 10 minutes. */
  defaultTtlMs?: number;
  /** The longest retention granted, in ms (a longer `ttl` asked for is cut to it). Default 1 hour. */
  maxTtlMs?: number;
  /** How many unfinished tasks the server may have on this client at once. Default 20. */
  maxLiveTasks?: number;
  /** The suggested polling interval, in ms. Default 500. */
  pollIntervalMs?: number;
}

const TASKABLE = new Set(['sampling/createMessage', 'elicitation/create']);

/**
 * The client as a task receiver (2025-11-25): a server's `sampling/createMessage` or `elicitation/create` carrying
 * `params.task` is answered at once with a task, and the client's own sampling / elicitation handler goes on
 * detached; the server polls it with `tasks/get`, fetches the answer with `tasks/result`, lists and cancels with
 * `tasks/list` and `tasks/cancel`. Declares `capabilities.tasks` for the handlers the client has.
 */
export function installTaskReceiver(client: Client, options: TaskReceiverOptions): void {
  const declared = client.capabilities as Record<string, unknown>;
  const requests: Record<string, unknown> = {};
  if (declared.sampling !== undefined) requests.sampling = { createMessage: {} };
  if (declared.elicitation !== undefined) requests.elicitation = { create: {} };
  if (Object.keys(requests).length === 0) return;
  declared.tasks = { list: {}, cancel: {}, requests };

  const store = options.store ?? new InMemoryTaskStore({ maxTasks: 1_000 });
  const maxTtlMs = options.maxTtlMs ?? 60 * 60_000;
  const defaultTtlMs = Math.min(options.defaultTtlMs ?? 10 * 60_000, maxTtlMs);
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const maxLive = options.maxLiveTasks ?? 20;
  const jobs = new Map<string, AbortController>();
  const done = new Map<string, Set<() => void>>();

  const settle = async (taskId: string, patch: TaskPatch) => {
    const { record, applied } = await store.update(taskId, { ...patch, lastUpdatedAt: Date.now() });
    jobs.delete(taskId);
    for (const wake of done.get(taskId) ?? []) wake();
    done.delete(taskId);
    if (applied && record !== undefined && client.connected) {
      client
        .notify('notifications/tasks/status', legacyTask(record) as unknown as Record<string, unknown>)
        .catch(() => undefined);
    }
  };

  const receive: ClientMiddleware = async (ctx, next) => {
    if (ctx.direction !== 'inbound' || ctx.kind !== 'request' || !TASKABLE.has(ctx.method)) return next();
    const task = ctx.params?.task;
    if (!isObject(task) || !taskClientEra(ctx.era).receivesTasks) return next();
    const requested = task.ttl;
    if (requested !== undefined && (typeof requested !== 'number' || !Number.isInteger(requested) || requested < 0)) {
      throw invalidParamsError('params.task.ttl must be a non-negative integer (milliseconds)', { ttl: requested });
    }
    const ttlMs = Math.max(1_000, Math.min(typeof requested === 'number' ? requested : defaultTtlMs, maxTtlMs));
    const now = Date.now();
    const record: TaskRecord = {
      taskId: newTaskId(),
      owner: null,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      expiresAt: now + ttlMs,
      pollIntervalMs,
      era: 'legacy',
      request: { method: ctx.method, params: {} },
      context: { protocolVersion: ctx.protocolVersion ?? '2025-11-25', clientCapabilities: client.capabilities },
    };
    try {
      await store.create(record, { maxLivePerOwner: maxLive });
    } catch (error) {
      throw new JsonRpcError(JsonRpcErrorCode.InvalidRequest, (error as Error).message, { reason: 'task_limit' });
    }
    const job = new AbortController();
    jobs.set(record.taskId, job);
    ctx.rebind({ signal: job.signal });
    next().then(
      (result) => settle(record.taskId, { status: 'completed', result: result as Record<string, unknown> }),
      (error: unknown) => {
        const object = JsonRpcError.is(error)
          ? error.toJSON()
          : { code: JsonRpcErrorCode.InternalError, message: (error as Error)?.message ?? String(error) };
        return settle(record.taskId, { status: 'failed', statusMessage: object.message, error: object });
      },
    );
    return { task: legacyTask(record) };
  };
  client.use(receive);

  const find = async (params: unknown): Promise<TaskRecord> => {
    const taskId = isObject(params) ? params.taskId : undefined;
    if (typeof taskId !== 'string') throw invalidParamsError('params.taskId must be a string', { taskId });
    const record = await store.get(taskId);
    if (record === undefined) throw invalidParamsError('Failed to retrieve task: Task not found', { taskId });
    return record;
  };

  client.setRequestHandler('tasks/get', async (params) => legacyTask(await find(params)));
  client.setRequestHandler('tasks/list', async (params) => {
    const cursor = isObject(params) ? params.cursor : undefined;
    if (cursor !== undefined && typeof cursor !== 'string') throw invalidParamsError('cursor must be a string');
    try {
      const page = await store.list(null, { cursor, limit: 50 });
      return page.nextCursor === undefined
        ? { tasks: page.tasks.map(legacyTask) }
        : { tasks: page.tasks.map(legacyTask), nextCursor: page.nextCursor };
    } catch (error) {
      throw invalidParamsError((error as Error).message, { cursor });
    }
  });
  client.setRequestHandler('tasks/cancel', async (params) => {
    const record = await find(params);
    if (isTerminal(record.status)) {
      throw invalidParamsError(`Cannot cancel task: already in terminal status '${record.status}'`, {
        taskId: record.taskId,
      });
    }
    jobs.get(record.taskId)?.abort(new Error('Cancelled by the server'));
    await settle(record.taskId, {
      status: 'cancelled',
      statusMessage: 'The task was cancelled by request.',
      error: { code: JsonRpcErrorCode.InternalError, message: `Task ${record.taskId} was cancelled` },
    });
    return legacyTask((await store.get(record.taskId)) ?? record);
  });
  client.setRequestHandler('tasks/result', async (params, ctx) => {
    let record = await find(params);
    while (!isTerminal(record.status)) {
      await new Promise<void>((resolve) => {
        let wakers = done.get(record.taskId);
        if (wakers === undefined) {
          wakers = new Set();
          done.set(record.taskId, wakers);
        }
        const wake = () => {
          clearTimeout(timer);
          wakers!.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, pollIntervalMs);
        wakers.add(wake);
        ctx.signal?.addEventListener('abort', wake, { once: true });
      });
      ctx.signal?.throwIfAborted();
      record = await find(params);
    }
    if (record.status === 'completed' && record.result !== undefined) {
      const meta = isObject(record.result._meta) ? record.result._meta : undefined;
      return { ...record.result, _meta: { ...meta, [MetaKeys.RelatedTask]: { taskId: record.taskId } } };
    }
    const error = record.error ?? { code: JsonRpcErrorCode.InternalError, message: 'The task ended without a result' };
    throw new JsonRpcError(error.code, error.message, error.data);
  });
}
