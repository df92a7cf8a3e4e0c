import type { JsonRpcMessage, TransportSendOptions } from '@mcpkit/jsonrpc-core';
import { DELIVER_HERE, type HttpSession, type SessionRouting } from '../http-session';
import {
  BROADCAST_METHODS,
  clusterRequestId,
  parseClusterRequestId,
  type SessionCluster,
  type SharedState,
  STATEFUL,
} from './shared-session';

// How a copy of a shared session routes (scale-out): every instance that serves a request of the session keeps a copy
// of it. A stream lives on the instance that opened it (its id says which: `<instance>.<n>`), the GET stream on the
// session's home; a message for a stream another instance holds travels on the bus (see cluster-link.ts), and so does
// a client's answer to a server→client request another instance sent (the request id says which: `<instance>:<id>`).

/** @internal The routing of one copy of a shared session (the session keeps it; the cluster link makes it). */
export class SharedRouting implements SessionRouting {
  readonly shared: SharedState;
  readonly #cluster: SessionCluster<HttpSession>;
  readonly #onError: (error: Error) => void;

  constructor(cluster: SessionCluster<HttpSession>, shared: SharedState, onError: (error: Error) => void) {
    this.#cluster = cluster;
    this.shared = shared;
    this.#onError = onError;
  }

  get instanceId(): string {
    return this.#cluster.instanceId;
  }

  send(session: HttpSession, message: JsonRpcMessage, options: TransportSendOptions | undefined): void | Promise<void> {
    if ('method' in message) {
      // The client may answer on any instance: the id tells it where the request came from.
      if ('id' in message) message = { ...message, id: clusterRequestId(this.#cluster.instanceId, message.id) };
      return session.routeHere(message, options);
    }
    const stateful = this.shared.stateful;
    if (stateful === undefined || message.id === null || !stateful.delete(message.id))
      return session.routeHere(message);
    // What the request changed is stored before the client hears it is done.
    return this.#cluster.persist(session).then(
      () => session.routeHere(message),
      (error: unknown) => {
        this.#onError(error as Error);
        return session.routeHere(message);
      },
    );
  }

  forGetStream(session: HttpSession, message: JsonRpcMessage): void | Promise<void> | typeof DELIVER_HERE {
    if (this.shared.record.home === this.#cluster.instanceId) return DELIVER_HERE;
    // The GET stream is the home's. Broadcasts reach the home's own copy: sent from here too, the client would get
    // them twice.
    if ('method' in message && !('id' in message) && BROADCAST_METHODS.has(message.method)) return;
    return this.#cluster.toHome(session, message);
  }

  inbound(session: HttpSession, message: JsonRpcMessage): JsonRpcMessage | undefined {
    const cluster = this.#cluster;
    if (!('method' in message)) {
      const target = parseClusterRequestId(message.id);
      if (target === undefined) return message;
      if (target.instance !== cluster.instanceId) {
        cluster.toInstance(session, target.instance, message);
        return undefined;
      }
      return { ...message, id: target.id };
    }
    if ('id' in message) {
      if (STATEFUL.has(message.method)) {
        this.shared.stateful ??= new Set();
        this.shared.stateful.add(message.id);
      }
    } else if (message.method === 'notifications/cancelled') {
      cluster.cancelEverywhere(session, message);
    } else if (
      message.method === 'notifications/initialized' &&
      session.peer !== undefined &&
      !session.peer.initialized
    ) {
      session.peer.initialized = true;
      cluster.persist(session).catch((error: unknown) => this.#onError(error as Error));
    }
    return message;
  }

  relayed(message: JsonRpcMessage): JsonRpcMessage {
    if ('method' in message) return message;
    const target = parseClusterRequestId(message.id);
    return target === undefined ? message : { ...message, id: target.id };
  }
}
