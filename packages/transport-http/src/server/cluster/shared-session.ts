import type { JsonRpcMessage, JsonRpcResponse, RequestId } from '@mcpkit/jsonrpc-core';
import type { SessionRecord } from './session-store';

// What a legacy session's copy needs to be shared between instances (scale-out): the hooks the cluster provides, the
// state a copy keeps, and how server→client request ids say which instance sent them.

/**
 * @internal What a cluster does for its sessions (implemented by `ClusterLink` for `HttpSession`; generic so this module
 * does not import the session it serves).
 */
export interface SessionCluster<Session> {
  readonly instanceId: string;
  /** Sends a message for the GET stream from a copy that is not the session's home. */
  toHome(session: Session, message: JsonRpcMessage): Promise<void>;
  /** Hands the client's answer to a server→client request to the instance that sent the request. */
  toInstance(session: Session, instance: string, message: JsonRpcResponse): void;
  /** Tells every other instance of a client's `notifications/cancelled` (the request may run there). */
  cancelEverywhere(session: Session, message: JsonRpcMessage): void;
  /** Stores what a state-changing request changed (log level, subscriptions, initialized). */
  persist(session: Session): Promise<void>;
}

/** @internal What a copy of a shared session keeps beyond a local session. */
export interface SharedState {
  /** The stored record as this copy last saw it (`home`: the instance that keeps the GET stream). */
  record: SessionRecord;
  /** When this copy closes, delete the session's events too (it ended everywhere, not only here). */
  endEverywhere: boolean;
  /** Requests that change the session's stored state: their responses wait until it is stored. */
  stateful: Set<RequestId> | undefined;
}

/** @internal Methods whose effect lives in the session record. */
export const STATEFUL: ReadonlySet<string> = new Set([
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
]);

/**
 * @internal Notifications every instance sends to its own copy of a session (`Server` broadcasts reach every instance): only the
 * home's copy delivers them, so the client gets each once.
 */
export const BROADCAST_METHODS: ReadonlySet<string> = new Set([
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
  'notifications/resources/updated',
]);

/** @internal A server→client request id as the client sees it in a cluster: the sending instance, then the peer's own id. */
export function clusterRequestId(instance: string, id: RequestId): string {
  return typeof id === 'number' ? `${instance}:${id}` : `${instance}:'${id}`;
}

/** @internal The sending instance and the peer's own id of a cluster request id, or `undefined` for another id. */
export function parseClusterRequestId(id: RequestId | null): { instance: string; id: RequestId } | undefined {
  if (typeof id !== 'string') return undefined;
  const colon = id.indexOf(':');
  if (colon <= 0) return undefined;
  const rest = id.slice(colon + 1);
  if (rest.startsWith("'")) return { instance: id.slice(0, colon), id: rest.slice(1) };
  const number = Number(rest);
  return rest !== '' && Number.isSafeInteger(number) ? { instance: id.slice(0, colon), id: number } : undefined;
}
