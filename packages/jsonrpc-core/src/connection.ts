// One transport's lifetime inside a peer. A module of its own, generic over the peer, so it needs nothing of the peer
// but the three entry points its owner class hands it once (`Connection.owner`: shared, not a field per connection).
import type { InboundRequestContext } from './context';
import type { RunningHandlers } from './in-flight';
import type { JsonRpcMessage, RequestId } from './messages';
import type { MessageInfo, Transport, TransportReceiver } from './transport';

/** What a connection reports to the peer that owns it. */
export interface ConnectionOwnerEntries<P> {
  receive(peer: P, connection: Connection<P>, message: unknown, info: MessageInfo | undefined): void;
  closed(peer: P, connection: Connection<P>, reason: Error | undefined): void;
  report(peer: P, error: unknown): void;
}

/**
 * One transport's lifetime inside the peer. Handlers answer on the connection their request came from. It is also
 * the transport's receiver when the transport takes one (`attachReceiver`), so such a connection needs no closures.
 */
export class Connection<P> implements TransportReceiver, RunningHandlers {
  /** The owner's entry points, set once by the peer class (jsonrpc-core's `JsonRpcPeer` is the one owner). */
  static owner: ConnectionOwnerEntries<never>;
  readonly peer: P;
  readonly transport: Transport;
  closed = false;
  closing: Promise<void> | undefined = undefined;
  closeEmitted = false;
  /** The running handler while only one runs (sequential clients): no map for it. */
  one: InboundRequestContext | undefined = undefined;
  /** The running handlers while two or more run at once; dropped when none is left. */
  running: Map<RequestId, InboundRequestContext> | undefined = undefined;
  /** Whether the other side has sent anything on this connection yet (`JsonRpcPeer.onFirstMessage`). */
  heard = false;
  /** Waiting for the first message; dropped once it arrived. */
  firstMessageListeners: Array<() => void> | undefined = undefined;

  constructor(peer: P, transport: Transport) {
    this.peer = peer;
    this.transport = transport;
  }

  /** As `JsonRpcPeer.onFirstMessage`, for this connection. */
  onFirstMessage(listener: () => void): () => void {
    if (this.heard) {
      listener();
      return () => {};
    }
    this.firstMessageListeners ??= [];
    const listeners = this.firstMessageListeners;
    listeners.push(listener);
    return () => {
      const index = listeners.indexOf(listener);
      if (index >= 0) listeners.splice(index, 1);
    };
  }

  /** The other side sent its first message: its listeners run (a failing one is reported, the others still run). */
  heardFirstMessage(): void {
    this.heard = true;
    const listeners = this.firstMessageListeners;
    this.firstMessageListeners = undefined;
    for (const listener of listeners ?? []) {
      try {
        listener();
      } catch (error) {
        (Connection.owner as ConnectionOwnerEntries<P>).report(this.peer, error);
      }
    }
  }

  receiveMessage(message: JsonRpcMessage, info?: MessageInfo): void {
    (Connection.owner as ConnectionOwnerEntries<P>).receive(this.peer, this, message, info);
  }

  transportClosed(reason?: Error): void {
    (Connection.owner as ConnectionOwnerEntries<P>).closed(this.peer, this, reason);
  }

  transportError(error: Error): void {
    (Connection.owner as ConnectionOwnerEntries<P>).report(this.peer, error);
  }
}
