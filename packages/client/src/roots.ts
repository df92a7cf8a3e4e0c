// `client.notifyRootsListChanged`: legacy sends `notifications/roots/list_changed`; 2026-07-28 has no such
// notification (a server asks for roots inside each request that needs them), so nothing is sent there.
import { assertCapability, type ClientCapabilities } from '@mcpkit/protocol';
import type { Connection } from './requests';

/** Sends `notifications/roots/list_changed` on a legacy connection (true); a modern one sends nothing (false). */
export async function notifyRootsChanged(connection: Connection, capabilities: ClientCapabilities): Promise<boolean> {
  const method = 'notifications/roots/list_changed';
  const { peer, session } = connection;
  if (session.era === 'modern') return false;
  assertCapability(method, session.version, { client: capabilities });
  await peer.notify(method);
  return true;
}
