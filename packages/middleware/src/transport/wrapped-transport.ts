import type {
  JsonRpcMessage,
  JsonRpcRequest,
  MessageInfo,
  Transport,
  TransportReceiver,
  TransportSendOptions,
} from '@mcpkit/jsonrpc-core';

/**
 * A transport around another one: by default it passes everything through both ways. Subclasses override
 * {@link sendThrough} (what goes out) and {@link receive} (what comes in). It speaks both ways a peer may attach (the
 * three slots, or `attachReceiver`) and attaches to the inner transport the way the inner one prefers, so wrapping
 * costs a server with many idle sessions no closures per message.
 */
export class WrappedTransport implements Transport, TransportReceiver {
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onclose?: (reason?: Error) => void;
  onerror?: (error: Error) => void;
  readonly inner: Transport;
  #receiver: TransportReceiver | undefined;

  constructor(inner: Transport) {
    this.inner = inner;
    if (typeof inner.cancelsBySignal === 'function') {
      this.cancelsBySignal = (request) => inner.cancelsBySignal!(request);
    }
  }

  cancelsBySignal?(request: JsonRpcRequest): boolean;

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  attachReceiver(receiver: TransportReceiver): void {
    this.#receiver = receiver;
  }

  start(): Promise<void> {
    const inner = this.inner;
    if (typeof inner.attachReceiver === 'function') {
      inner.attachReceiver(this);
    } else {
      inner.onmessage = (message, info) => this.receiveMessage(message, info);
      inner.onclose = (reason) => this.transportClosed(reason);
      inner.onerror = (error) => this.transportError(error);
    }
    return inner.start();
  }

  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> | void {
    return this.sendThrough(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** What goes out: by default, straight to the inner transport. */
  protected sendThrough(message: JsonRpcMessage, options: TransportSendOptions | undefined): Promise<void> | void {
    return this.inner.send(message, options);
  }

  /** What comes in: by default, straight to the peer. */
  protected receive(message: JsonRpcMessage, info: MessageInfo | undefined): void {
    this.deliver(message, info);
  }

  /** Hands a message to the peer. */
  protected deliver(message: JsonRpcMessage, info: MessageInfo | undefined): void {
    const receiver = this.#receiver;
    if (receiver !== undefined) receiver.receiveMessage(message, info);
    else this.onmessage?.(message, info);
  }

  /** Reports a problem to the peer. */
  protected report(error: Error): void {
    const receiver = this.#receiver;
    if (receiver !== undefined) receiver.transportError(error);
    else this.onerror?.(error);
  }

  /** @internal The inner transport's receiver side. */
  receiveMessage(message: JsonRpcMessage, info?: MessageInfo): void {
    this.receive(message, info);
  }

  /** @internal */
  transportClosed(reason?: Error): void {
    const receiver = this.#receiver;
    if (receiver !== undefined) receiver.transportClosed(reason);
    else this.onclose?.(reason);
  }

  /** @internal */
  transportError(error: Error): void {
    this.report(error);
  }
}
