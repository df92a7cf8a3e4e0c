// Resource subscriptions belong to the resources feature, not to every server: a tools-only server answers
// `resources/subscribe` with -32601 (it declares no `resources.subscribe`) and carries none of this code.
import { toError } from '@mcpkit/jsonrpc-core';
import { invalidParamsError } from '@mcpkit/protocol';
import type { Server } from '../server/server';
import type { ServerSession } from '../session/session';

const NO_SUBSCRIPTIONS: ReadonlySet<string> = new Set();

// The URIs each legacy session subscribed to (a set only once it subscribes to one).
const subscribed = new WeakMap<ServerSession, Set<string>>();

function uriParam(method: string, params: unknown): string {
  const uri = (params as { uri?: unknown } | undefined)?.uri;
  if (typeof uri !== 'string') throw invalidParamsError(`${method} needs params.uri (a string)`);
  return uri;
}

/**
 * The resource URIs a legacy session subscribed to with `resources/subscribe` (empty for modern connections, whose
 * subscriptions are their listen streams' filters).
 *
 * @example
 * resourceSubscriptionsOf(session).has('file:///README.md');
 */
export function resourceSubscriptionsOf(session: ServerSession): ReadonlySet<string> {
  return subscribed.get(session) ?? NO_SUBSCRIPTIONS;
}

/**
 * Replaces the resource URIs a legacy session is subscribed to: for session stores that move a session between
 * instances (the HTTP handler's cluster mode restores a session's subscriptions on the instance that takes it over).
 *
 * @example
 * restoreResourceSubscriptions(session, record.resourceSubscriptions);
 */
export function restoreResourceSubscriptions(session: ServerSession, uris: Iterable<string>): void {
  const set = new Set(uris);
  if (set.size === 0) subscribed.delete(session);
  else subscribed.set(session, set);
}

/**
 * Makes `server` answer `resources/subscribe` / `resources/unsubscribe` (legacy sessions) and deliver
 * `server.notifyResourceUpdated(uri)` as `notifications/resources/updated` to the legacy sessions subscribed to `uri`
 * and to the 2026-07-28 listen streams whose `resourceSubscriptions` name it. `McpServer` installs it with its
 * resources; a low-level `Server` that serves resources itself and declares `resources.subscribe` calls it once.
 *
 * @example
 * const server = new Server(info, { capabilities: { resources: { subscribe: true } } });
 * installResourceSubscriptions(server);
 * server.notifyResourceUpdated('file:///README.md');
 */
export function installResourceSubscriptions(server: Server): void {
  server.setRequestHandler('resources/subscribe', (params, ctx) => {
    const uri = uriParam('resources/subscribe', params);
    const session = ctx.session;
    if (session !== undefined) {
      const uris = subscribed.get(session);
      if (uris === undefined) subscribed.set(session, new Set([uri]));
      else uris.add(uri);
    }
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', (params, ctx) => {
    const uri = uriParam('resources/unsubscribe', params);
    if (ctx.session !== undefined) subscribed.get(ctx.session)?.delete(uri);
    return {};
  });
  const report = (error: unknown) => {
    try {
      server.onerror?.(toError(error));
    } catch {
      // A throwing onerror must not turn a failed notification into an unhandled rejection.
    }
  };
  server.resourceUpdates = (uri) => {
    for (const session of server.sessions) {
      // Only legacy sessions are ever in `subscribed`: 2026-07-28 has no resources/subscribe (its gate answers -32601
      // before this handler runs), and `restoreResourceSubscriptions` is for legacy sessions restored from a store.
      if (subscribed.get(session)?.has(uri) === true) {
        session.notify('notifications/resources/updated', { uri }).catch(report);
      }
    }
    for (const stream of server.listenStreams) {
      if (stream.filter.resourceSubscriptions?.includes(uri)) {
        stream.send('notifications/resources/updated', { uri }).catch(report);
      }
    }
  };
}
