import { isJsonObject } from '@mcpkit/jsonrpc-core';
import {
  honouredSubscriptionFilter,
  invalidParamsError,
  isLoggingLevel,
  MetaKeys,
  type ServerCapabilities,
  type SubscriptionFilter,
} from '@mcpkit/protocol';
import { ListenStream } from '../listen/listen-stream';
import type { ServerRequestHandler } from './handlers';

/** What the built-in methods need of the server (`Server` is one). */
export interface BuiltInsHost {
  readonly supportedVersions: readonly string[];
  readonly capabilities: ServerCapabilities;
  readonly instructions: string | undefined;
  setRequestHandler(method: string, handler: ServerRequestHandler<never>): void;
}

/**
 * Installs the methods every MCP server answers the same way: `ping`, `server/discover`, `logging/setLevel` and
 * `subscriptions/listen` (modern; open streams go in `streams`).
 * `initialize` is not among them: the dispatcher answers it, since it decides the era.
 */
export function installBuiltIns(server: BuiltInsHost, streams: Set<ListenStream>): void {
  server.setRequestHandler('ping', () => ({}));
  server.setRequestHandler('server/discover', () => {
    const result: Record<string, unknown> = {
      supportedVersions: [...server.supportedVersions],
      capabilities: server.capabilities,
    };
    if (server.instructions !== undefined) result.instructions = server.instructions;
    return result as never;
  });
  server.setRequestHandler('logging/setLevel', (params, ctx) => {
    const level = (params as { level?: unknown } | undefined)?.level;
    if (!isLoggingLevel(level)) throw invalidParamsError(`Unknown logging level ${JSON.stringify(level)}`);
    if (ctx.session !== undefined) ctx.session.logLevel = level;
    return {};
  });
  server.setRequestHandler('subscriptions/listen', async (params, ctx) => {
    const requested = (params as { notifications?: unknown } | undefined)?.notifications;
    if (!isJsonObject(requested)) {
      throw invalidParamsError('subscriptions/listen needs params.notifications (a subscription filter object)');
    }
    const honoured = honouredSubscriptionFilter(requested as SubscriptionFilter, server.capabilities);
    const id = ctx.requestId;
    // The acknowledgement is the first message of the stream; nothing for it is sent before.
    await ctx.notify('notifications/subscriptions/acknowledged', {
      _meta: { [MetaKeys.SubscriptionId]: id },
      notifications: honoured,
    });
    const signal = ctx.signal;
    return new Promise((resolve, reject) => {
      const stream = new ListenStream(
        id,
        honoured,
        ctx.session,
        (method, notificationParams) => ctx.notify(method, notificationParams),
        (result) => {
          streams.delete(stream);
          resolve(result as never);
        },
        ctx.info,
      );
      // Cancelled (notifications/cancelled, stream closed, connection gone): no response goes out, but the handler
      // must still finish so the peer forgets it.
      const cancel = () => {
        streams.delete(stream);
        reject(signal.reason);
      };
      if (signal.aborted) return cancel();
      streams.add(stream);
      signal.addEventListener('abort', cancel, { once: true });
    });
  });
}
