// What crosses a bridge besides the core: extensions (their methods, by id) and tasks, and what a forwarded request
// declares upstream on the host's behalf.
import { type ClientCapabilities, type LoggingLevel, methodAvailability, TASKS_EXTENSION_ID } from '@mcpkit/protocol';
import type { ServerRequestContext } from '@mcpkit/server';

/**
 * Extensions the bridges cross, with the methods each adds. A declaration does not list its extension's methods, so
 * an extension missing here is not advertised to hosts (the bridge could not forward its methods).
 */
export const CROSSED_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  // 2026-07-28 tasks (installed with their translation for 2025-11-25 hosts: task-crossing.ts).
  [TASKS_EXTENSION_ID]: ['tasks/get', 'tasks/update', 'tasks/cancel'],
  'io.modelcontextprotocol/skills': ['skills/list', 'skills/get', 'resources/directory/read'],
  // MCP Apps has no methods of its own: its `ui://` resources and the tools' `_meta.ui` cross with resources and tools.
  'io.modelcontextprotocol/ui': [],
};

/** Whether the host's revision has the 2026-07-28 tasks extension (the protocol's method table says: `tasks/update`). */
export function takesModernTasks(ctx: ServerRequestContext): boolean {
  return methodAvailability('tasks/update', ctx.protocolVersion).available;
}

/**
 * What a forwarded request declares to a 2026-07-28 upstream (which reads capabilities per request; older ones read
 * the bridge's `initialize` and ignore this): what the host can answer of what crosses — sampling, elicitation,
 * roots, and its crossed extensions (so a remote runs a call as a task, or shows MCP Apps tools, only for a host that
 * can take it). `tasks`: declare the tasks extension whatever the host declared (the bridge translates the task for a
 * 2025-11-25 host).
 */
export function hostCapabilities(ctx: ServerRequestContext, tasks = false): ClientCapabilities {
  const host = ctx.clientCapabilities;
  const declared: ClientCapabilities = {};
  if (host.sampling !== undefined) declared.sampling = host.sampling;
  if (host.elicitation !== undefined) declared.elicitation = host.elicitation;
  if (host.roots !== undefined) declared.roots = host.roots;
  // The tasks extension is the 2026-07-28 vocabulary: a host of an older revision that declares it anyway (a client
  // declares its extensions in both eras) cannot take a task in that shape.
  const modernTasks = takesModernTasks(ctx);
  for (const [id, declaration] of Object.entries(host.extensions ?? {})) {
    if (!Object.hasOwn(CROSSED_EXTENSIONS, id) || (id === TASKS_EXTENSION_ID && !modernTasks)) continue;
    declared.extensions ??= {};
    declared.extensions[id] = declaration;
  }
  if (tasks) declared.extensions = { ...declared.extensions, [TASKS_EXTENSION_ID]: {} };
  return declared;
}

/**
 * The log level a forwarded request asks of a 2026-07-28 upstream (which sends log messages only when a request asks):
 * the host's. A host of a revision with `logging/setLevel` that set none gets every message, as its revision has it;
 * the side facing the host filters by the host's level either way.
 */
export function hostLogLevel(ctx: ServerRequestContext): LoggingLevel | undefined {
  const level = ctx.session?.logLevel ?? ctx.logLevel;
  if (level !== undefined) return level;
  return methodAvailability('logging/setLevel', ctx.protocolVersion).available ? 'debug' : undefined;
}

/** The task a `tools/call` answer created, if it is one (2025-11-25 `CreateTaskResult`: `{ task: { taskId } }`). */
export function createdTaskId(result: unknown): string | undefined {
  const task = (result as { task?: { taskId?: unknown } } | undefined)?.task;
  return typeof task?.taskId === 'string' ? task.taskId : undefined;
}
