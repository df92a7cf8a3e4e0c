// How tasks cross a bridge, for each pairing of the host's revision and the upstream's tasks vocabulary: as they are
// within one (2025-11-25 `capabilities.tasks`, or the 2026-07-28 extension), translated across (legacy-tasks.ts for a
// 2025-11-25 host and a 2026-07-28 upstream, modern-tasks.ts the other way round). The adapter for the upstream's
// vocabulary (eras/upstream-tasks.ts) says which; this file installs it.
import { type ServerCapabilities, TASKS_EXTENSION_ID } from '@mcpkit/protocol';
import type { Server, ServerMiddleware, ServerRequestContext } from '@mcpkit/server';
import { takesModernTasks } from './crossing';
import type { TasksHandler, UpstreamTasks } from './eras/upstream-tasks';
import type { Upstream } from './upstream';

/**
 * Installs the tasks methods (one extension, its handlers chosen per request by the host's revision), `tools/call`
 * when a call may become a task across the eras, and the middleware that gives each era's hosts their own vocabulary.
 */
export function installTasks(
  server: Server,
  tasks: UpstreamTasks | undefined,
  tools: boolean,
  upstreamFor: (ctx: ServerRequestContext) => Upstream | Promise<Upstream>,
): void {
  if (tasks === undefined) return;
  const byHost =
    ([legacy, modern]: readonly [TasksHandler, TasksHandler]) =>
    async (params: unknown, ctx: ServerRequestContext) =>
      (takesModernTasks(ctx) ? modern : legacy)(await upstreamFor(ctx), (params ?? {}) as Record<string, unknown>, ctx);
  server.extend({
    id: TASKS_EXTENSION_ID,
    declaration: tasks.declaration ?? {},
    methods: Object.fromEntries(Object.entries(tasks.handlers).map(([method, pair]) => [method, byHost(pair)])),
  });
  if (tools) {
    const { legacyHostTaskCall, modernHostTaskCall } = tasks;
    server.setRequestHandler('tools/call', async (params: unknown, ctx: ServerRequestContext) => {
      const own = (params ?? {}) as Record<string, unknown>;
      const upstream = await upstreamFor(ctx);
      if (!takesModernTasks(ctx)) {
        // A 2025-11-25 host asks for a task with `params.task`.
        if (own.task !== undefined && legacyHostTaskCall !== undefined)
          return await legacyHostTaskCall(upstream, own, ctx);
      } else if (
        modernHostTaskCall !== undefined &&
        ctx.clientCapabilities.extensions?.[TASKS_EXTENSION_ID] !== undefined
      ) {
        // A 2026-07-28 host takes a task whenever it declared the extension.
        return await modernHostTaskCall(upstream, own, ctx);
      }
      return await upstream.forward('tools/call', own, ctx);
    });
  }
  if (tools && tasks.everyToolOptional) {
    // 2026-07-28 has no `Tool.execution`: the server may answer any call with a task, which is 2025-11-25's
    // `taskSupport: 'optional'` (a call the upstream runs inline is answered with its result, as it came).
    server.setRequestHandler('tools/list', async (params: unknown, ctx: ServerRequestContext) => {
      const listed = (await (
        await upstreamFor(ctx)
      ).forward('tools/list', params as Record<string, unknown> | undefined, ctx)) as {
        tools?: Record<string, unknown>[];
      };
      if (takesModernTasks(ctx) || !Array.isArray(listed?.tools)) return listed;
      return {
        ...listed,
        tools: listed.tools.map((tool) =>
          tool.execution === undefined ? { ...tool, execution: { taskSupport: 'optional' } } : tool,
        ),
      };
    });
  }
  // Each era's hosts see their own vocabulary (SEP-2663 keeps the legacy capability out of `server/discover`).
  server.use('server/discover', withoutTasks('tasks'));
  server.use('initialize', withoutTasks('extension'));
}

/** A middleware taking one tasks vocabulary out of an `initialize` / `server/discover` answer. */
function withoutTasks(which: 'tasks' | 'extension'): ServerMiddleware {
  return async (_ctx, next) => {
    const result = (await next()) as { capabilities?: ServerCapabilities & { tasks?: unknown } } | undefined;
    if (result?.capabilities === undefined) return result;
    const capabilities = { ...result.capabilities };
    if (which === 'tasks') delete capabilities.tasks;
    else if (capabilities.extensions !== undefined) {
      const { [TASKS_EXTENSION_ID]: _tasks, ...others } = capabilities.extensions;
      if (Object.keys(others).length === 0) delete capabilities.extensions;
      else capabilities.extensions = others;
    }
    return { ...result, capabilities };
  };
}
