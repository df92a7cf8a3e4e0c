import type { JsonRpcMessage, MessageInfo, Transport, TransportSendOptions } from '@mcpkit/jsonrpc-core';
import { WrappedTransport } from './wrapped-transport';

/** What {@link tapTransport} tells you. A throwing observer is reported through `onerror`, never breaks the flow. */
export interface TransportObserver {
  /** A message received, before the peer sees it. */
  inbound?(message: JsonRpcMessage, info: MessageInfo | undefined): void;
  /** A message about to be sent. */
  outbound?(message: JsonRpcMessage, options: TransportSendOptions | undefined): void;
  /** The transport closed (with the reason the inner transport gave). */
  closed?(reason: Error | undefined): void;
}

class TapTransport extends WrappedTransport {
  readonly #observer: TransportObserver;

  constructor(inner: Transport, observer: TransportObserver) {
    super(inner);
    this.#observer = observer;
  }

  #safely(run: () => void): void {
    try {
      run();
    } catch (error) {
      this.report(error instanceof Error ? error : new Error(String(error)));
    }
  }

  protected override sendThrough(message: JsonRpcMessage, options: TransportSendOptions | undefined) {
    const outbound = this.#observer.outbound;
    if (outbound !== undefined) this.#safely(() => outbound.call(this.#observer, message, options));
    return this.inner.send(message, options);
  }

  protected override receive(message: JsonRpcMessage, info: MessageInfo | undefined): void {
    const inbound = this.#observer.inbound;
    if (inbound !== undefined) this.#safely(() => inbound.call(this.#observer, message, info));
    this.deliver(message, info);
  }

  override transportClosed(reason?: Error): void {
    const closed = this.#observer.closed;
    if (closed !== undefined) this.#safely(() => closed.call(this.#observer, reason));
    super.transportClosed(reason);
  }
}

/**
 * Observes every message a transport carries, both ways, without changing any: for debugging, wire logs and tests.
 * Works on any transport, client or server side.
 *
 * @example
 * const transport = tapTransport(new StdioClientTransport({ command: 'node', args: ['server.js'] }), {
 *   inbound: (message) => console.error('←', JSON.stringify(message)),
 *   outbound: (message) => console.error('→', JSON.stringify(message)),
 * });
 * await client.connect(transport);
 */
export function tapTransport(transport: Transport, observer: TransportObserver): Transport {
  return new TapTransport(transport, observer);
}
