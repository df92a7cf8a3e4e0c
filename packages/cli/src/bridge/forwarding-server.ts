import { randomBytes } from 'node:crypto';
import { type Implementation, type ServerCapabilities, TASKS_EXTENSION_ID } from '@mcpkit/protocol';
import {
  InputRounds,
  installResourceSubscriptions,
  Server,
  type ServerMiddleware,
  type ServerRequestContext,
} from '@mcpkit/server';
import { CROSSED_EXTENSIONS, LEGACY_TASK_METHODS, takesModernTasks } from './crossing';
import { callAsTask, cancelTask, getTask, LEGACY_TASKS_CAPABILITY, taskResult } from './legacy-tasks';
import type { Upstream } from './upstream';

/** What the server facing the host declares: the upstream's own, as its first connection reported it. */
export interface UpstreamDescription {
  serverInfo: Implementation;
  capabilities: ServerCapabilities;
  instructions?: string;
}

/** The methods forwarded, by the capability that gates them. */
const FORWARDED: Record<string, readonly string[]> = {
  tools: ['tools/list', 'tools/call'],
  resources: ['resources/list', 'resources/read', 'resources/templates/list'],
  prompts: ['prompts/list', 'prompts/get'],
  completions: ['completion/complete'],
};

/**
 * A low-level mcpkit `Server` that answers every request by forwarding it to an {@link Upstream} (chosen per request:
 * one per host session, or one shared), in whichever era the host speaks. Its `initialize` / `server/discover` are its
 * own, declaring what the upstream declared: the core capabilities, the extensions in `CROSSED_EXTENSIONS` (others
 * are reported through `onSkipped` and left out) and tasks, to hosts of the upstream's own era (a task does not cross
 * eras: 2025-11-25 tasks and the 2026-07-28 extension differ in how input and results reach the client).
 */
export function createForwardingServer(
  upstream: UpstreamDescription,
  upstreamFor: (ctx: ServerRequestContext) => Upstream | Promise<Upstream>,
  onSkipped?: (extension: string) => void,
): Server {
  const {
    extensions = {},
    tasks: legacyTasks,
    experimental: _experimental,
    ...capabilities
  } = upstream.capabilities as ServerCapabilities & { tasks?: Record<string, unknown>; experimental?: unknown };
  const modernTasks = Object.hasOwn(extensions, TASKS_EXTENSION_ID);
  // 2025-11-25 hosts get tasks in their words: the upstream's own, or the bridge's translation of the extension's.
  const hostTasks = legacyTasks ?? (modernTasks ? LEGACY_TASKS_CAPABILITY : undefined);
  const server = new Server(upstream.serverInfo, {
    capabilities: { ...capabilities, ...(hostTasks === undefined ? {} : { tasks: hostTasks }), logging: {} },
    instructions: upstream.instructions,
    // 2026-07-28 hosts are asked by multi round-trip requests: the secret only has to outlive this process.
    inputRounds: new InputRounds({ requestStateSecret: randomBytes(32).toString('base64url') }),
  });
  const forward = (method: string) => async (params: unknown, ctx: ServerRequestContext) =>
    (await upstreamFor(ctx)).forward(method, params as Record<string, unknown> | undefined, ctx);
  for (const [capability, methods] of Object.entries(FORWARDED)) {
    if (!(capability in capabilities)) continue;
    for (const method of methods) server.setRequestHandler(method, forward(method));
  }
  // A 2025-11-25 host's task-augmented call to a 2026-07-28 remote: translated (the era of the request decides).
  if (modernTasks && 'tools' in capabilities) {
    const callTool = async (params: unknown, ctx: ServerRequestContext) => {
      const own = (params ?? {}) as Record<string, unknown>;
      const target = await upstreamFor(ctx);
      if (own.task !== undefined && !takesModernTasks(ctx)) return await callAsTask(target, own, ctx);
      return await target.forward('tools/call', own, ctx);
    };
    server.setRequestHandler('tools/call', callTool);
    // 2026-07-28 has no `Tool.execution`: the server may answer any call with a task, which is 2025-11-25's
    // `taskSupport: 'optional'` (a call the remote runs inline is answered with its result, as it came).
    server.setRequestHandler('tools/list', async (params: unknown, ctx: ServerRequestContext) => {
      const listed = (await forward('tools/list')(params, ctx)) as { tools?: Record<string, unknown>[] };
      if (takesModernTasks(ctx) || !Array.isArray(listed?.tools)) return listed;
      return {
        ...listed,
        tools: listed.tools.map((tool) =>
          tool.execution === undefined ? { ...tool, execution: { taskSupport: 'optional' } } : tool,
        ),
      };
    });
  }
  if (legacyTasks !== undefined) {
    for (const method of LEGACY_TASK_METHODS) server.setRequestHandler(method, forward(method));
  }
  for (const [id, declaration] of Object.entries(extensions)) {
    const methods = CROSSED_EXTENSIONS[id];
    if (methods === undefined) {
      onSkipped?.(id);
      continue;
    }
    server.extend({
      id,
      declaration: declaration as Record<string, unknown>,
      methods:
        id === TASKS_EXTENSION_ID
          ? tasksMethods(upstreamFor, forward)
          : Object.fromEntries(methods.map((method) => [method, forward(method)])),
    });
  }
  // Each era's hosts see their own tasks vocabulary (SEP-2663 keeps the legacy capability out of `server/discover`).
  if (hostTasks !== undefined) server.use('server/discover', withoutTasks('tasks'));
  if (modernTasks) server.use('initialize', withoutTasks('extension'));
  if ((capabilities as ServerCapabilities).resources?.subscribe) {
    installResourceSubscriptions(server);
    server.use('resources/subscribe', async (ctx, next) => {
      const uri = (ctx.params as { uri?: unknown } | undefined)?.uri;
      if (typeof uri === 'string' && ctx.kind === 'request') await (await upstreamFor(ctx)).subscribeResource(uri);
      return await next();
    });
  }
  return server;
}

/**
 * The tasks extension's methods, for both eras of hosts: forwarded as they are for a 2026-07-28 host; translated to
 * the 2025-11-25 methods (`tasks/get`, `tasks/result`, `tasks/cancel`) for an older one.
 */
function tasksMethods(
  upstreamFor: (ctx: ServerRequestContext) => Upstream | Promise<Upstream>,
  forward: (method: string) => (params: unknown, ctx: ServerRequestContext) => Promise<unknown>,
): Record<string, (params: unknown, ctx: ServerRequestContext) => Promise<unknown>> {
  const either =
    (
      method: string,
      legacy: (upstream: Upstream, params: Record<string, unknown>, ctx: ServerRequestContext) => unknown,
    ) =>
    async (params: unknown, ctx: ServerRequestContext) =>
      takesModernTasks(ctx)
        ? await forward(method)(params, ctx)
        : await legacy(await upstreamFor(ctx), (params ?? {}) as Record<string, unknown>, ctx);
  return {
    'tasks/get': either('tasks/get', getTask),
    'tasks/cancel': either('tasks/cancel', cancelTask),
    'tasks/update': forward('tasks/update'),
    'tasks/result': either('tasks/result', taskResult),
  };
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
