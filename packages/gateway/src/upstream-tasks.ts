// How a tool call crosses as a task: the gateway's own `TasksServer` (installed on the front server through
// `server.extend`) makes the downstream task, and the mount's `TasksClient` (installed on the upstream client through
// `client.extend`) runs the upstream one. The downstream task mirrors the upstream task: its status message, its
// questions to the user, its cancellation and its result, in whichever era each side speaks.
import type { Client, InputHandlers } from '@mcpkit/client';
import type { CallToolResult, ToolExecution } from '@mcpkit/protocol';
import type { ServerRequestContext } from '@mcpkit/server';
import type { TaskHandle, TasksClient, TasksServer } from '@mcpkit/tasks';
import { downstreamEra } from './eras/downstream-era';
import { upstreamEra } from './eras/upstream-era';
import type { UpstreamRequests } from './upstream-requests';

/** The two halves a mount needs to cross tasks; either missing, calls cross inline as before. */
export interface TaskCrossing {
  readonly server: TasksServer;
  readonly client: TasksClient;
}

/**
 * How an upstream tool may run as a task, as the downstream should see it. A 2025-11-25 upstream lists it
 * (`execution.taskSupport`, with `capabilities.tasks.requests.tools.call`); a 2026-07-28 upstream lists none (its
 * `Tool` has no `execution`) but may answer any call with a task once the extension is declared, so every tool of one
 * that declares the extension is `optional` here and the upstream decides.
 */
export function crossedExecution(client: Client, execution: ToolExecution | undefined): ToolExecution | undefined {
  return upstreamEra(client.era).taskExecution(client.serverCapabilities, execution);
}

/**
 * Whether the downstream asked for a task: 2025-11-25 with `params.task` (the `TasksServer` made the task already, so
 * the handler runs in it), 2026-07-28 by declaring the extension in the request's client capabilities.
 */
export function wantsTask(ctx: ServerRequestContext): boolean {
  if (ctx.get('task') !== undefined) return true;
  return downstreamEra(ctx.era).asksTaskByCapabilities(ctx);
}

/**
 * Starts the upstream call as a task and answers the downstream one: inline when the upstream ran it inline, else as
 * a downstream task (already made in 2025-11-25; made now, with `runAsTask`, in 2026-07-28, so that input rounds of
 * the call itself still cross as rounds) that follows the upstream task to its end.
 */
export async function callAsTask(
  crossing: TaskCrossing,
  ctx: ServerRequestContext,
  params: Record<string, unknown>,
  downstream: (result: CallToolResult) => CallToolResult,
  requests: UpstreamRequests,
): Promise<CallToolResult> {
  const track = <T>(run: () => Promise<T>) => requests.track(ctx, run);
  const handle = await track(() =>
    crossing.client.callToolAsTask(params as { name: string; arguments?: Record<string, unknown> }, {
      signal: ctx.cancellation,
      // 2026-07-28: the request declares what the caller can answer (the tasks extension among it), and its input
      // rounds before the task exists are asked of this caller.
      ...requests.taskCallOptions(crossing.client.client, ctx),
      // 2025-11-25 keeps the task's progress coming after the call; the downstream task passes it on (or, in
      // 2026-07-28, turns it into its status message). Read through `ctx` at each call: the task rebinds it.
      onProgress: (progress) => void ctx.progress(progress.progress, progress.total, progress.message).catch(() => {}),
    }),
  );
  if (handle.immediate) return downstream(downstreamEra(ctx.era).result(await handle.wait()));
  // 2026-07-28: the upstream task's input requests are asked of this caller (through the downstream task).
  const inputHandlers = requests.taskCallOptions(crossing.client.client, ctx).inputHandlers;
  const follow = async () => {
    try {
      return downstream(await track(() => followTask(handle, ctx, inputHandlers)));
    } catch (error) {
      // The downstream task fails with the upstream's error, or one naming the mount (it runs detached from the call).
      throw requests.failure(error, 'tools/call');
    }
  };
  return ctx.get('task') !== undefined ? follow() : crossing.server.runAsTask(ctx, follow);
}

/** Mirrors the upstream task in the downstream one until it ends; a downstream cancel cancels it upstream. */
async function followTask(
  handle: TaskHandle,
  ctx: ServerRequestContext,
  inputHandlers: InputHandlers | undefined,
): Promise<CallToolResult> {
  const task = ctx.get('task');
  let shown: string | undefined;
  const stopWatching = handle.onStatus((info) => {
    const message = info.statusMessage;
    if (task === undefined || message === undefined || message === shown) return;
    shown = message;
    task.setStatusMessage(message).catch(() => {});
  });
  const cancel = () => void handle.cancel().catch(() => {});
  // The task rebound `ctx`: its signal and cancellation are the downstream task's (aborted by tasks/cancel).
  const cancellation = ctx.cancellation;
  cancellation.addEventListener('abort', cancel, { once: true });
  try {
    return downstreamEra(ctx.era).result(await handle.wait({ signal: ctx.signal, inputHandlers }));
  } finally {
    cancellation.removeEventListener('abort', cancel);
    stopWatching();
    handle.release();
  }
}
