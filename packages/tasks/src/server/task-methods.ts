import { isJsonObject, JsonRpcError } from '@mcpkit/jsonrpc-core';
import {
  type Era,
  hasCapability,
  invalidParamsError,
  MetaKeys,
  missingRequiredClientCapabilityError,
  TASKS_EXTENSION_ID,
} from '@mcpkit/protocol';
import type { ServerExtension, ServerRequestContext } from '@mcpkit/server';

/** The method table of an extension, as `ServerExtension.methods` takes it. */
type ExtensionMethods = NonNullable<ServerExtension['methods']>;

import { isTerminal, type TaskRecord } from '../task-record';
import type { TaskStore } from '../task-store';
import { detailedModernTask, legacyTask } from '../task-wire';
import { storeRefusal, taskNotFoundError } from './errors';
import type { RunningTask } from './running-task';

/** What the `tasks/*` methods need from the task server. */
export interface TaskMethodsContext {
  /** The task if this requestor owns it, else `undefined` (bad ids throw -32602). */
  owned(taskId: unknown, ctx: ServerRequestContext): Promise<TaskRecord | undefined>;
  owner(ctx: ServerRequestContext): string | undefined;
  running(taskId: string): RunningTask | undefined;
  cancel(record: TaskRecord): Promise<TaskRecord | undefined>;
  /** Scale-out: hands answers to the instance running the task (it is not this one). */
  answerElsewhere: ((taskId: string, responses: Record<string, unknown>) => void) | undefined;
  inputsChanged(task: RunningTask): Promise<void>;
  store: TaskStore;
  listPageSize: number;
  pollIntervalMs: number;
}

type Params = Record<string, unknown> | undefined;
type Handler = (params: Params, ctx: ServerRequestContext) => unknown;

/** 2026-07-28: the tasks methods answer only requests whose client capabilities declare the extension. */
function requireExtension(ctx: ServerRequestContext): void {
  if (!hasCapability(ctx.clientCapabilities, ['extensions', TASKS_EXTENSION_ID])) {
    throw missingRequiredClientCapabilityError(
      { extensions: { [TASKS_EXTENSION_ID]: {} } },
      `${ctx.method} belongs to the ${TASKS_EXTENSION_ID} extension: declare it in the request's client capabilities`,
    );
  }
}

/** Whether `answer` has the shape of a result of `method` (enough to hand it to the handler). */
function answerFits(method: string, answer: unknown): boolean {
  if (!isJsonObject(answer)) return false;
  switch (method) {
    case 'elicitation/create':
      return answer.action === 'accept' || answer.action === 'decline' || answer.action === 'cancel';
    case 'sampling/createMessage':
      return typeof answer.role === 'string' && answer.content !== undefined && typeof answer.model === 'string';
    case 'roots/list':
      return Array.isArray(answer.roots);
    default:
      return true;
  }
}

/** What `tasks/result` answers for a terminal task: the underlying result (related-task `_meta` added) or error. */
function payload(record: TaskRecord): Record<string, unknown> {
  const result = record.result;
  if (result !== undefined && (record.status === 'completed' || record.status === 'failed')) {
    const meta = isJsonObject(result._meta) ? result._meta : undefined;
    return { ...result, _meta: { ...meta, [MetaKeys.RelatedTask]: { taskId: record.taskId } } };
  }
  const error = record.error ?? { code: -32603, message: `Task ${record.taskId} ended without a result` };
  throw new JsonRpcError(error.code, error.message, error.data);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/**
 * The method table of the extension `io.modelcontextprotocol/tasks`: `tasks/get`, `tasks/result`, `tasks/list`,
 * `tasks/cancel` and `tasks/update`. The server's era rules route each to its revisions (2025-11-25: core methods gated
 * by `capabilities.tasks`; 2026-07-28: the extension's `tasks/get|update|cancel`, `tasks/result` and `tasks/list`
 * answering -32601); each handler speaks the vocabulary of the request's era.
 */
export function taskMethods(tasks: TaskMethodsContext): ExtensionMethods {
  const legacy = {
    async get(params: Params, ctx: ServerRequestContext) {
      const record = await tasks.owned(params?.taskId, ctx);
      if (record === undefined) throw taskNotFoundError(params?.taskId);
      return legacyTask(record);
    },

    /** Blocks until the task is terminal, delivering its input requests on this request's stream meanwhile. */
    async result(params: Params, ctx: ServerRequestContext) {
      const taskId = params?.taskId;
      let record = await tasks.owned(taskId, ctx);
      if (record === undefined) throw taskNotFoundError(taskId);
      while (!isTerminal(record.status)) {
        const running = tasks.running(record.taskId);
        if (running !== undefined) {
          running.addWaiter(ctx);
          await Promise.race([running.done, sleep(2 ** 31 - 1, ctx.signal)]);
          running.removeWaiter(ctx);
        } else {
          // Run elsewhere (another instance sharing the store): poll it.
          await sleep(tasks.pollIntervalMs, ctx.signal);
        }
        ctx.signal.throwIfAborted();
        record = await tasks.owned(taskId, ctx);
        if (record === undefined) throw taskNotFoundError(taskId);
      }
      return payload(record);
    },

    async list(params: Params, ctx: ServerRequestContext) {
      const cursor = params?.cursor;
      if (cursor !== undefined && typeof cursor !== 'string') throw invalidParamsError('cursor must be a string');
      let page: Awaited<ReturnType<TaskStore['list']>>;
      try {
        page = await tasks.store.list(tasks.owner(ctx) ?? null, { cursor, limit: tasks.listPageSize });
      } catch (error) {
        throw storeRefusal(error);
      }
      const result: Record<string, unknown> = { tasks: page.tasks.map(legacyTask) };
      if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
      return result;
    },

    async cancel(params: Params, ctx: ServerRequestContext) {
      const record = await tasks.owned(params?.taskId, ctx);
      if (record === undefined) throw taskNotFoundError(params?.taskId);
      if (isTerminal(record.status)) {
        throw invalidParamsError(`Cannot cancel task: already in terminal status '${record.status}'`, {
          taskId: record.taskId,
          status: record.status,
        });
      }
      const cancelled = await tasks.cancel(record);
      if (cancelled === undefined) throw taskNotFoundError(record.taskId);
      // Finished on its own before the cancel took: the spec's answer for a terminal task.
      if (cancelled.status !== 'cancelled') {
        throw invalidParamsError(`Cannot cancel task: already in terminal status '${cancelled.status}'`, {
          taskId: record.taskId,
          status: cancelled.status,
        });
      }
      return legacyTask(cancelled);
    },
  };

  const modern = {
    async get(params: Params, ctx: ServerRequestContext) {
      requireExtension(ctx);
      const record = await tasks.owned(params?.taskId, ctx);
      if (record === undefined) throw taskNotFoundError(params?.taskId);
      return detailedModernTask(record);
    },

    /** Answers the task's pending input requests; keys not pending are ignored (SEP-2663), the ack is empty. */
    async update(params: Params, ctx: ServerRequestContext) {
      requireExtension(ctx);
      const responses = params?.inputResponses;
      if (!isJsonObject(responses)) {
        throw invalidParamsError('tasks/update needs params.inputResponses (an object of answers by key)', {
          inputResponses: responses,
        });
      }
      const record = await tasks.owned(params?.taskId, ctx);
      if (record === undefined) throw taskNotFoundError(params?.taskId);
      const running = tasks.running(record.taskId);
      // Run here: its live pending asks; run elsewhere (scale-out): the stored ones, answered over the bus.
      const elsewhere = running === undefined ? tasks.answerElsewhere : undefined;
      const pending = running?.inputRequests ?? (elsewhere === undefined ? {} : (record.inputRequests ?? {}));
      for (const [key, answer] of Object.entries(responses)) {
        const request = pending[key];
        if (request === undefined) continue;
        if (!answerFits(request.method, answer)) {
          throw invalidParamsError(`inputResponses["${key}"] is not a valid answer to ${request.method}`, {
            key,
            method: request.method,
          });
        }
      }
      if (elsewhere !== undefined) {
        const taken: Record<string, unknown> = {};
        for (const [key, answer] of Object.entries(responses)) if (pending[key] !== undefined) taken[key] = answer;
        if (Object.keys(taken).length > 0) elsewhere(record.taskId, taken);
        return {};
      }
      let answered = false;
      for (const [key, answer] of Object.entries(responses)) {
        if (running !== undefined && pending[key] !== undefined) answered = running.answer(key, answer) || answered;
      }
      if (answered && running !== undefined) await tasks.inputsChanged(running);
      return {};
    },

    async cancel(params: Params, ctx: ServerRequestContext) {
      requireExtension(ctx);
      const record = await tasks.owned(params?.taskId, ctx);
      if (record === undefined) throw taskNotFoundError(params?.taskId);
      // Idempotent: a terminal task gets the same empty ack (SEP-2663).
      if (!isTerminal(record.status)) await tasks.cancel(record);
      return {};
    },
  };

  // Each method's handler per era, which the request's era picks. A method its revision lacks (2026-07-28 tasks/result
  // and tasks/list, 2025-11-25 tasks/update) is answered -32601 by the server's era rules before it gets here, so the
  // other era's handler fills that slot.
  const byEra =
    (handlers: Readonly<Record<Era, Handler>>): Handler =>
    (params, ctx) =>
      handlers[ctx.era](params, ctx);

  return {
    'tasks/get': byEra({ legacy: legacy.get, modern: modern.get }),
    'tasks/result': byEra({ legacy: legacy.result, modern: legacy.result }),
    'tasks/list': byEra({ legacy: legacy.list, modern: legacy.list }),
    'tasks/cancel': byEra({ legacy: legacy.cancel, modern: modern.cancel }),
    'tasks/update': byEra({ legacy: modern.update, modern: modern.update }),
  };
}
