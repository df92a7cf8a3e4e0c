// The upstream's tasks, one adapter per vocabulary it declares (2025-11-25 `capabilities.tasks`, or the 2026-07-28
// extension), each saying what it gives the bridge's hosts of both revisions: their capability and declaration, the
// tasks methods, and how a `tools/call` becomes a task. Chosen once, from the upstream's capabilities.
import { JsonRpcError, JsonRpcErrorCode } from '@mcpkit/jsonrpc-core';
import type { ServerRequestContext } from '@mcpkit/server';
import { callAsTask, cancelTask, getTask, LEGACY_TASKS_CAPABILITY, taskResult } from '../legacy-tasks';
import { ModernTasksOverLegacy } from '../modern-tasks';
import type { Upstream } from '../upstream';

/** A tasks method as the bridge answers it. */
export type TasksHandler = (
  upstream: Upstream,
  params: Record<string, unknown>,
  ctx: ServerRequestContext,
) => Promise<unknown>;

/** How the upstream's tasks cross the bridge. */
export interface UpstreamTasks {
  /** What 2025-11-25 hosts are told (`capabilities.tasks`): the upstream's own, or what the translation offers. */
  readonly hostCapability: Record<string, unknown>;
  /** What 2026-07-28 hosts are told (the extension's declaration); none: an empty one. */
  readonly declaration?: Record<string, unknown>;
  /** The tasks methods: [for a 2025-11-25 host, for a 2026-07-28 host]. */
  readonly handlers: Readonly<Record<string, readonly [TasksHandler, TasksHandler]>>;
  /** A 2025-11-25 host's `tools/call` with `params.task`, when the bridge makes the task (else it is forwarded). */
  readonly legacyHostTaskCall?: TasksHandler;
  /** A 2026-07-28 host's `tools/call` declaring the extension, when the bridge makes the task (else forwarded). */
  readonly modernHostTaskCall?: TasksHandler;
  /** Whether 2025-11-25 hosts see every tool as `taskSupport: 'optional'` (the upstream's `Tool` has no `execution`). */
  readonly everyToolOptional?: true;
}

const asIs =
  (method: string): TasksHandler =>
  (upstream, params, ctx) =>
    upstream.forward(method, params, ctx);

const notCrossed =
  (method: string): TasksHandler =>
  async (_upstream, _params, ctx) => {
    throw new JsonRpcError(
      JsonRpcErrorCode.MethodNotFound,
      `Method not found: ${method} (not in ${ctx.protocolVersion}, or the upstream's tasks have none)`,
      { method },
    );
  };

/** A 2025-11-25 upstream's `capabilities.tasks`: as they are for its hosts, translated for 2026-07-28 ones. */
function legacyUpstreamTasks(capability: Record<string, unknown>): UpstreamTasks {
  const relays = new ModernTasksOverLegacy();
  return {
    hostCapability: capability,
    handlers: {
      'tasks/get': [asIs('tasks/get'), (...args) => relays.get(...args)],
      'tasks/cancel': [asIs('tasks/cancel'), (...args) => relays.cancel(...args)],
      'tasks/result': [asIs('tasks/result'), notCrossed('tasks/result')],
      'tasks/list': [asIs('tasks/list'), notCrossed('tasks/list')],
      'tasks/update': [notCrossed('tasks/update'), (...args) => relays.update(...args)],
    },
    modernHostTaskCall: (...args) => relays.call(...args),
  };
}

/** A 2026-07-28 upstream's tasks extension: as it is for its hosts, translated for 2025-11-25 ones. */
function modernUpstreamTasks(declaration: Record<string, unknown>): UpstreamTasks {
  return {
    hostCapability: LEGACY_TASKS_CAPABILITY,
    declaration,
    handlers: {
      'tasks/get': [getTask, asIs('tasks/get')],
      'tasks/cancel': [cancelTask, asIs('tasks/cancel')],
      'tasks/result': [taskResult, notCrossed('tasks/result')],
      'tasks/list': [notCrossed('tasks/list'), notCrossed('tasks/list')],
      'tasks/update': [notCrossed('tasks/update'), asIs('tasks/update')],
    },
    legacyHostTaskCall: callAsTask,
    everyToolOptional: true,
  };
}

/**
 * The adapter for what the upstream declared: `capability` (2025-11-25 `capabilities.tasks`) and `declaration` (the
 * 2026-07-28 extension's); none without either. An upstream declaring both gets the 2025-11-25 adapter's parts where
 * both have one (its capability and tasks methods), and the extension's where only it has one.
 */
export function upstreamTasks(
  capability: Record<string, unknown> | undefined,
  declaration: Record<string, unknown> | undefined,
): UpstreamTasks | undefined {
  const fromExtension = declaration === undefined ? undefined : modernUpstreamTasks(declaration);
  if (capability === undefined) return fromExtension;
  return { ...fromExtension, ...legacyUpstreamTasks(capability) };
}
