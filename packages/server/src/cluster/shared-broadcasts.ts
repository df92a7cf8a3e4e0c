import type { BusMessage, BusUnsubscribe, MessageBus, ServerBroadcast } from './message-bus';

export type { ServerBroadcast };

import type { Server } from '../server/server';

/** The bus topic server broadcasts travel on. */
export const BROADCAST_TOPIC = 'mcpkit:broadcast';

const LISTS: ReadonlySet<string> = new Set(['tools', 'prompts', 'resources']);

interface Sharing {
  readonly bus: MessageBus;
  users: number;
  readonly unsubscribe: Promise<BusUnsubscribe>;
}

const sharing = new WeakMap<Server, Sharing>();

function broadcastOf(message: BusMessage): ServerBroadcast | undefined {
  if (message.type === 'list_changed' && typeof message.list === 'string' && LISTS.has(message.list)) {
    return { type: 'list_changed', list: message.list as 'tools' | 'prompts' | 'resources' };
  }
  if (message.type === 'resource_updated' && typeof message.uri === 'string') {
    return { type: 'resource_updated', uri: message.uri };
  }
  return undefined;
}

function deliver(server: Server, broadcast: ServerBroadcast): void {
  if (broadcast.type === 'list_changed') server.deliverListChanged(broadcast.list);
  else server.deliverResourceUpdated(broadcast.uri);
}

/**
 * Makes `server.sendListChanged` and `server.notifyResourceUpdated` (and `McpServer`'s list changes) reach the
 * clients of every instance sharing `bus`: the broadcast is published once and each instance, this one included,
 * tells the clients connected to it (legacy sessions, listen streams, WebSocket connections). The HTTP and WebSocket
 * servers call it for their `bus` option; call it yourself for other transports. Several calls with the same bus
 * share one subscription; the returned function releases this call's share.
 *
 * @example
 * const stop = await shareBroadcasts(mcp.server, bus);
 * mcp.notifyResourceUpdated('file:///report.md'); // subscribers on every instance hear of it
 */
export async function shareBroadcasts(
  server: Server,
  bus: MessageBus,
  onError: (error: Error) => void = (error) => server.onerror?.(error),
): Promise<() => Promise<void>> {
  let share = sharing.get(server);
  if (share !== undefined && share.bus !== bus) {
    throw new Error(
      'shareBroadcasts: this server already shares its broadcasts on another bus; give every transport the same one',
    );
  }
  if (share === undefined) {
    const unsubscribe = bus.subscribe(BROADCAST_TOPIC, (message) => {
      const broadcast = broadcastOf(message);
      if (broadcast !== undefined) deliver(server, broadcast);
    });
    share = { bus, users: 0, unsubscribe };
    sharing.set(server, share);
    try {
      await unsubscribe;
    } catch (error) {
      sharing.delete(server);
      throw error;
    }
    server.broadcastRelay = (broadcast) => {
      bus.publish(BROADCAST_TOPIC, broadcast).then(
        (heard) => {
          // Nobody subscribed (not even this instance: it is leaving the bus): tell this process's clients anyway.
          if (!heard) deliver(server, broadcast);
        },
        (error: unknown) => {
          // The bus is down: this instance's clients still hear of it; the others' miss it, and are told why.
          deliver(server, broadcast);
          onError(
            new Error(
              `A ${broadcast.type} broadcast reached only this instance's clients: the message bus failed (${(error as Error)?.message ?? error})`,
              { cause: error },
            ),
          );
        },
      );
    };
  } else {
    await share.unsubscribe;
  }
  share.users++;
  const current = share;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    if (--current.users > 0) return;
    if (sharing.get(server) === current) sharing.delete(server);
    server.broadcastRelay = undefined;
    await (await current.unsubscribe)();
  };
}
