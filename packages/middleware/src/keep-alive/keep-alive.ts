import type { Client } from '@mcpkit/client';
import { methodExists } from '@mcpkit/protocol';
import type { ServerMiddleware, ServerSession } from '@mcpkit/server';
import { type KeepAliveOptions, keepAliveSettings, Pinger } from './pinger';

/** Whether the revision a connection negotiated has `ping` (the legacy ones; 2026-07-28 removed it). */
const hasPing = (version: string | undefined): boolean => version !== undefined && methodExists('ping', version);

/**
 * Server-side keep-alive (legacy era): once a session has initialized, the server sends it `ping` every
 * `intervalMs`; after `maxMissed` pings in a row without an answer within `timeoutMs` the session is closed, and
 * every request still pending on it fails at once with a `ConnectionClosedError` naming the {@link KeepAliveError}.
 * 2026-07-28 has no `ping` (and no connection to keep alive): modern requests are left alone. Works on every
 * session transport (stdio, WebSocket, legacy HTTP sessions — there the ping needs the client's GET stream; a ping
 * that cannot be sent is not counted as missed).
 *
 * @example
 * server.use(keepAlive({ intervalMs: 15_000, maxMissed: 2, onClose: (error) => console.error(error.message) }));
 */
export function keepAlive(options: KeepAliveOptions = {}): ServerMiddleware {
  const settings = keepAliveSettings(options);
  const watched = new WeakSet<ServerSession>();
  const watch = (session: ServerSession) => {
    if (watched.has(session)) return;
    watched.add(session);
    new Pinger(
      {
        ping: (timeoutMs) => session.request('ping', undefined, { timeoutMs, maxTotalTimeoutMs: timeoutMs }),
        alive: () => session.connected && hasPing(session.protocolVersion),
        close: (reason) => session.close(reason),
      },
      settings,
    ).start();
  };
  return async (ctx, next) => {
    const session = ctx.session;
    if (session === undefined || ctx.method !== 'initialize' || ctx.kind !== 'request') return next();
    const result = await next();
    if (hasPing(session.protocolVersion)) watch(session);
    return result;
  };
}

/**
 * Client-side keep-alive (legacy era): while `client` is connected to a legacy server it sends `ping` every
 * `intervalMs`; after `maxMissed` pings in a row without an answer within `timeoutMs` it closes the client, and every
 * request still pending fails at once with a `ConnectionClosedError` naming the {@link KeepAliveError}. Survives
 * reconnects (`connect` after `close`); returns a function that stops it.
 *
 * @example
 * const stop = keepClientAlive(client, { intervalMs: 15_000 });
 * await client.connect(transport);
 * // …
 * stop();
 */
export function keepClientAlive(client: Client, options: KeepAliveOptions = {}): () => void {
  const pinger = new Pinger(
    {
      // Between connections, or connected in the modern era (no ping there): nothing to ping this round.
      ping: (timeoutMs) =>
        client.connected && hasPing(client.protocolVersion)
          ? client.ping({ timeoutMs, maxTotalTimeoutMs: timeoutMs })
          : Promise.resolve(),
      alive: () => true,
      close: (reason) => client.close(reason),
    },
    keepAliveSettings(options),
  );
  pinger.start();
  return () => pinger.stop();
}
