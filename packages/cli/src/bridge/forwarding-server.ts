import { randomBytes } from 'node:crypto';
import { type Implementation, type ServerCapabilities, TASKS_EXTENSION_ID } from '@mcpkit/protocol';
import { InputRounds, installResourceSubscriptions, Server, type ServerRequestContext } from '@mcpkit/server';
import { CROSSED_EXTENSIONS } from './crossing';
import { upstreamTasks } from './eras/upstream-tasks';
import { installTasks } from './task-crossing';
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
 * are reported through `onSkipped` and left out) and tasks, in each host's vocabulary (see task-crossing.ts).
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
  const { [TASKS_EXTENSION_ID]: modernTasks, ...otherExtensions } = extensions as Record<
    string,
    Record<string, unknown>
  >;
  const tasks = upstreamTasks(legacyTasks, modernTasks);
  // 2025-11-25 hosts get tasks in their words: the upstream's own, or the bridge's translation of the extension's.
  const hostTasks = tasks?.hostCapability;
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
  installTasks(server, tasks, 'tools' in capabilities, upstreamFor);
  for (const [id, declaration] of Object.entries(otherExtensions)) {
    const methods = CROSSED_EXTENSIONS[id];
    if (methods === undefined) {
      onSkipped?.(id);
      continue;
    }
    server.extend({
      id,
      declaration,
      methods: Object.fromEntries(methods.map((method) => [method, forward(method)])),
    });
  }
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
