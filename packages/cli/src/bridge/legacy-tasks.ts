// 2025-11-25 tasks for a host of that revision in front of a 2026-07-28 remote's tasks extension: the bridge speaks
// each side's vocabulary. The remote's task is the task (same id, same store); the bridge keeps no state of its own.
import { JsonRpcError, JsonRpcErrorCode } from '@mcpkit/jsonrpc-core';
import { type InputRequest, MetaKeys } from '@mcpkit/protocol';
import type { ServerRequestContext } from '@mcpkit/server';
import { readUpstreamTask, type Upstream } from './upstream';

/** What the bridge declares to 2025-11-25 hosts: no `list` (2026-07-28 has no `tasks/list`). */
export const LEGACY_TASKS_CAPABILITY = { cancel: {}, requests: { tools: { call: {} } } };

/** Bounds of the remote's suggested polling interval while a `tasks/result` waits. */
const MIN_POLL_MS = 50;
const MAX_POLL_MS = 5_000;

interface ModernTask {
  taskId: string;
  status: string;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  ttlMs?: number | null;
  pollIntervalMs?: number;
  inputRequests?: Record<string, InputRequest>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** The 2025-11-25 `Task` of a 2026-07-28 one (`ttl`, `pollInterval`; no input requests, result or error). */
function legacyTask(task: ModernTask): Record<string, unknown> {
  const legacy: Record<string, unknown> = {
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt ?? new Date().toISOString(),
    lastUpdatedAt: task.lastUpdatedAt ?? task.createdAt ?? new Date().toISOString(),
    ttl: task.ttlMs ?? null,
  };
  if (task.statusMessage !== undefined) legacy.statusMessage = task.statusMessage;
  if (task.pollIntervalMs !== undefined) legacy.pollInterval = task.pollIntervalMs;
  return legacy;
}

/** A task-augmented `tools/call` (`params.task`): a call the remote may answer with a task, as a `CreateTaskResult`. */
export async function callAsTask(
  upstream: Upstream,
  params: Record<string, unknown>,
  ctx: ServerRequestContext,
): Promise<unknown> {
  const { task: _task, ...call } = params;
  const result = await upstream.forward('tools/call', call, ctx, { declareTasks: true });
  // A remote that ran the call inline answers with the result itself (the host's task client takes it as it is).
  if ((result as { resultType?: unknown } | undefined)?.resultType !== 'task') return result;
  return { task: legacyTask(readUpstreamTask<ModernTask>(result, undefined)) };
}

/** `tasks/get`: the remote's task, in 2025-11-25 words. */
export async function getTask(upstream: Upstream, params: Record<string, unknown>, ctx: ServerRequestContext) {
  return legacyTask(await upstreamTask(upstream, params.taskId, ctx));
}

/** `tasks/cancel`: cancelled upstream, then read back (2026-07-28's ack is empty). */
export async function cancelTask(upstream: Upstream, params: Record<string, unknown>, ctx: ServerRequestContext) {
  const before = await upstreamTask(upstream, params.taskId, ctx);
  if (before.status === 'completed' || before.status === 'failed' || before.status === 'cancelled') {
    // 2025-11-25 refuses to cancel a finished task (2026-07-28 acknowledges it).
    throw new JsonRpcError(
      JsonRpcErrorCode.InvalidParams,
      `Cannot cancel task: already in terminal status '${before.status}'`,
      { taskId: before.taskId, status: before.status },
    );
  }
  await upstream.forward('tasks/cancel', { taskId: before.taskId }, ctx, { declareTasks: true });
  return legacyTask(await upstreamTask(upstream, before.taskId, ctx));
}

/**
 * `tasks/result`: waits for the remote's task to end, polling `tasks/get` at its suggested interval; its input
 * requests are asked of the host on this request (2025-11-25's way, with the related-task `_meta`) and answered
 * upstream with `tasks/update`.
 */
export async function taskResult(
  upstream: Upstream,
  params: Record<string, unknown>,
  ctx: ServerRequestContext,
): Promise<unknown> {
  // Legacy asks are requests: their keys are the bridge's own, unique in this run (the remote's may repeat per round).
  for (let round = 1; ; round++) {
    ctx.signal.throwIfAborted();
    const task = await upstreamTask(upstream, params.taskId, ctx);
    const related = { [MetaKeys.RelatedTask]: { taskId: task.taskId } };
    switch (task.status) {
      case 'completed': {
        const { resultType: _type, ...result } = task.result ?? { content: [] };
        const meta = typeof result._meta === 'object' && result._meta !== null ? result._meta : {};
        return { ...result, _meta: { ...meta, ...related } };
      }
      case 'failed':
      case 'cancelled': {
        const error = task.error ?? {
          code: JsonRpcErrorCode.InternalError,
          message: `Task ${task.taskId} ended ${task.status}${task.statusMessage ? `: ${task.statusMessage}` : ''}`,
        };
        throw new JsonRpcError(error.code, error.message, error.data);
      }
      case 'input_required': {
        const requests: Record<string, InputRequest> = {};
        for (const [key, request] of Object.entries(task.inputRequests ?? {})) {
          const own = (request.params ?? {}) as Record<string, unknown>;
          const meta = typeof own._meta === 'object' && own._meta !== null ? own._meta : {};
          requests[`${round}:${key}`] = {
            ...request,
            params: { ...own, _meta: { ...meta, ...related } },
          } as InputRequest;
        }
        if (Object.keys(requests).length > 0) {
          const answers = await ctx.ask(requests);
          const inputResponses: Record<string, unknown> = {};
          for (const [key, answer] of Object.entries(answers)) inputResponses[key.slice(key.indexOf(':') + 1)] = answer;
          await upstream.forward('tasks/update', { taskId: task.taskId, inputResponses }, ctx, {
            declareTasks: true,
          });
          continue;
        }
        break;
      }
    }
    const wait = Math.min(Math.max(task.pollIntervalMs ?? 1_000, MIN_POLL_MS), MAX_POLL_MS);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, wait);
      function done() {
        clearTimeout(timer);
        ctx.signal.removeEventListener('abort', done);
        resolve();
      }
      ctx.signal.addEventListener('abort', done, { once: true });
    });
  }
}

async function upstreamTask(upstream: Upstream, taskId: unknown, ctx: ServerRequestContext): Promise<ModernTask> {
  if (typeof taskId !== 'string' || taskId === '') {
    throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, `${ctx.method} needs params.taskId (a non-empty string)`, {
      taskId,
    });
  }
  return readUpstreamTask<ModernTask>(
    await upstream.forward('tasks/get', { taskId }, ctx, { declareTasks: true }),
    taskId,
  );
}
