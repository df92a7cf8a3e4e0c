import type {
  JsonRpcMessage,
  JsonRpcRequest,
  MessageInfo,
  Transport,
  TransportSendOptions,
} from '@mcpkit/jsonrpc-core';

/**
 * A transport that tells its owner when it closed, whatever closed it. The client that connects it sets the slots; the
 * gateway needs to hear the close too (to drop the mount's tools and reconnect), and the `Client` has no close event.
 * It never offers `attachReceiver`, so the peer uses the three slots, which this forwards.
 */
export class WatchedTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onclose?: (reason?: Error) => void;
  onerror?: (error: Error) => void;
  readonly #inner: Transport;

  constructor(inner: Transport, closed: (reason?: Error) => void) {
    this.#inner = inner;
    inner.onmessage = (message, info) => this.onmessage?.(message, info);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = (reason) => {
      try {
        this.onclose?.(reason);
      } finally {
        closed(reason);
      }
    };
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> | void {
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  cancelsBySignal(request: JsonRpcRequest): boolean {
    return this.#inner.cancelsBySignal?.(request) === true;
  }
}
