import { randomBytes } from 'node:crypto';
import type { Implementation, ServerCapabilities } from '@mcpkit/protocol';
import { InputRounds, installResourceSubscriptions, Server, type ServerRequestContext } from '@mcpkit/server';
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
 * own, declaring what the upstream declared (tasks and extensions excepted: they are not forwarded).
 */
export function createForwardingServer(
  upstream: UpstreamDescription,
  upstreamFor: (ctx: ServerRequestContext) => Upstream | Promise<Upstream>,
): Server {
  const {
    extensions: _extensions,
    tasks: _tasks,
    experimental: _experimental,
    ...capabilities
  } = upstream.capabilities as ServerCapabilities & { tasks?: unknown; experimental?: unknown };
  const server = new Server(upstream.serverInfo, {
    capabilities: { ...capabilities, logging: {} },
    instructions: upstream.instructions,
    // 2026-07-28 hosts are asked by multi round-trip requests: the secret only has to outlive this process.
    inputRounds: new InputRounds({ requestStateSecret: randomBytes(32).toString('base64url') }),
  });
  for (const [capability, methods] of Object.entries(FORWARDED)) {
    if (!(capability in capabilities)) continue;
    for (const method of methods) {
      server.setRequestHandler(method, async (params, ctx) =>
        (await upstreamFor(ctx)).forward(method, params as Record<string, unknown> | undefined, ctx),
      );
    }
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
