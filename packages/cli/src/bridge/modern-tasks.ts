// 2026-07-28 tasks for a host of that revision in front of a 2025-11-25 upstream's tasks. The upstream's task is the
// task; what the bridge keeps is one relay per task waiting for input: a 2025-11-25 server asks a task's questions
// only as requests on an open `tasks/result`, so the bridge holds that request open and shows its questions as the
// task's `inputRequests` until the host answers them with `tasks/update`.
import { isJsonObject, JsonRpcError, JsonRpcErrorCode, toErrorObject } from '@mcpkit/jsonrpc-core';
import { MetaKeys } from '@mcpkit/protocol';
import type { ServerRequestContext } from '@mcpkit/server';
import type { ForwardedCall, Outcome } from './forwarded-call';
import { readUpstreamTask, type Upstream } from './upstream';

/** Relays (tasks waiting for input) per upstream at once; past it the oldest is cancelled. */
const MAX_RELAYS = 100;
/** How long a `tasks/get` of a task in `input_required` waits for the upstream's questions to arrive. */
const QUESTIONS_WAIT_MS = 2_000;

interface LegacyTask {
  taskId: string;
  status: string;
  statusMessage?: string;
  createdAt?: string;
  lastUpdatedAt?: string;
  ttl?: number | null;
  pollInterval?: number;
}

/** The 2026-07-28 task of a 2025-11-25 one (`ttlMs`, `pollIntervalMs`). */
function modernTask(task: LegacyTask): Record<string, unknown> {
  const modern: Record<string, unknown> = {
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt ?? task.createdAt,
    ttlMs: task.ttl ?? null,
  };
  if (task.statusMessage !== undefined) modern.statusMessage = task.statusMessage;
  if (task.pollInterval !== undefined) modern.pollIntervalMs = task.pollInterval;
  return modern;
}

function taskIdOf(params: Record<string, unknown>, ctx: ServerRequestContext): string {
  const taskId = params.taskId;
  if (typeof taskId !== 'string' || taskId === '') {
    throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, `${ctx.method} needs params.taskId (a non-empty string)`, {
      taskId,
    });
  }
  return taskId;
}

/** The translation, with the relays of each upstream. */
export class ModernTasksOverLegacy {
  readonly #relays = new WeakMap<Upstream, Map<string, ForwardedCall>>();

  /**
   * A `tools/call` of a host that declared the extension: task-augmented upstream when the tool allows it (its
   * 2025-11-25 `execution.taskSupport`), answered with `resultType: "task"`; otherwise forwarded as it is.
   */
  async call(upstream: Upstream, params: Record<string, unknown>, ctx: ServerRequestContext): Promise<unknown> {
    const name = params.name;
    const support = typeof name === 'string' ? await upstream.taskSupport(name) : undefined;
    if (support !== 'optional' && support !== 'required') return await upstream.forward('tools/call', params, ctx);
    const created = (await upstream.forward('tools/call', { ...params, task: {} }, ctx)) as { task?: unknown };
    if (created?.task === undefined) return created;
    return { resultType: 'task', ...modernTask(readUpstreamTask<LegacyTask>(created.task)) };
  }

  /** `tasks/get`: the upstream's task; its questions (`input_required`) or its result or error (terminal) inline. */
  async get(upstream: Upstream, params: Record<string, unknown>, ctx: ServerRequestContext): Promise<unknown> {
    const taskId = taskIdOf(params, ctx);
    const task = readUpstreamTask<LegacyTask>(await upstream.forward('tasks/get', { taskId }, ctx));
    const hostTask = modernTask(task);
    switch (task.status) {
      case 'input_required': {
        const relay = await this.#relay(upstream, taskId, ctx);
        await relay.changed(QUESTIONS_WAIT_MS);
        return { ...hostTask, inputRequests: relay.openQuestions() };
      }
      case 'completed':
      case 'failed': {
        const outcome = await this.#payload(upstream, taskId, ctx);
        if (!outcome.ok) return { ...hostTask, status: 'failed', error: toErrorObject(outcome.error) };
        const result = { ...(outcome.value as Record<string, unknown>) };
        if (isJsonObject(result._meta)) {
          const { [MetaKeys.RelatedTask]: _related, ...meta } = result._meta;
          if (Object.keys(meta).length === 0) delete result._meta;
          else result._meta = meta;
        }
        // SEP-2663: a tool's `isError` result is a completed task in 2026-07-28 (`failed` is for protocol errors).
        return { ...hostTask, status: 'completed', result: { content: [], ...result, resultType: 'complete' } };
      }
      default:
        return hostTask;
    }
  }

  /** `tasks/update`: the host's answers to the task's open questions (keys not open are ignored); the ack is empty. */
  async update(upstream: Upstream, params: Record<string, unknown>, ctx: ServerRequestContext): Promise<unknown> {
    const taskId = taskIdOf(params, ctx);
    const responses = params.inputResponses;
    if (!isJsonObject(responses)) {
      throw new JsonRpcError(
        JsonRpcErrorCode.InvalidParams,
        'tasks/update needs params.inputResponses (an object of answers by key)',
        { inputResponses: responses },
      );
    }
    const relay = this.#relays.get(upstream)?.get(taskId);
    if (relay !== undefined) for (const [key, answer] of Object.entries(responses)) relay.answer(key, answer);
    return {};
  }

  /** `tasks/cancel`: cancelled upstream (a task already finished is acknowledged, as 2026-07-28 has it). */
  async cancel(upstream: Upstream, params: Record<string, unknown>, ctx: ServerRequestContext): Promise<unknown> {
    const taskId = taskIdOf(params, ctx);
    try {
      await upstream.forward('tasks/cancel', { taskId }, ctx);
    } catch (error) {
      if (!(error instanceof JsonRpcError) || error.code !== JsonRpcErrorCode.InvalidParams) throw error;
      // Not found, or terminal already: 2026-07-28 tells them apart by reading the task.
      await upstream.forward('tasks/get', { taskId }, ctx);
    }
    const relays = this.#relays.get(upstream);
    relays?.get(taskId)?.abort(new JsonRpcError(JsonRpcErrorCode.InternalError, `Task ${taskId} was cancelled`));
    relays?.delete(taskId);
    return {};
  }

  /** The upstream `tasks/result` held open for a task waiting for input (started once, while it runs). */
  async #relay(upstream: Upstream, taskId: string, ctx: ServerRequestContext): Promise<ForwardedCall> {
    let relays = this.#relays.get(upstream);
    if (relays === undefined) {
      relays = new Map();
      this.#relays.set(upstream, relays);
    }
    const running = relays.get(taskId);
    if (running !== undefined && running.outcome === undefined) return running;
    if (relays.size >= MAX_RELAYS) {
      const [oldest] = relays.keys();
      if (oldest !== undefined) {
        relays.get(oldest)?.abort(new JsonRpcError(JsonRpcErrorCode.InternalError, 'Too many tasks wait for input'));
        relays.delete(oldest);
      }
    }
    const relay = await upstream.start('tasks/result', { taskId }, ctx, { detached: true });
    relays.set(taskId, relay);
    return relay;
  }

  /** A finished task's result or error: from its relay if one saw it end, else the upstream's `tasks/result`. */
  async #payload(upstream: Upstream, taskId: string, ctx: ServerRequestContext): Promise<Outcome> {
    const relays = this.#relays.get(upstream);
    const relay = relays?.get(taskId);
    if (relay !== undefined) {
      await relay.changed(QUESTIONS_WAIT_MS);
      relays?.delete(taskId);
      if (relay.outcome !== undefined) return relay.outcome;
    }
    try {
      return { ok: true, value: await upstream.forward('tasks/result', { taskId }, ctx) };
    } catch (error) {
      return { ok: false, error };
    }
  }
}
