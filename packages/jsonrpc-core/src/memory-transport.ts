import { ConnectionClosedError } from './errors';
import type { JsonRpcMessage } from './messages';
import type { MessageInfo, Transport, TransportSendOptions } from './transport';

/** A fixed `MessageInfo`, or one computed per delivered message. */
export type MessageInfoSource = MessageInfo | ((message: JsonRpcMessage) => MessageInfo | undefined);

/** Options for one side of a linked pair. */
export interface InMemoryTransportOptions {
  /** Attached to every message this side delivers to its `onmessage` (e.g. `{ auth }` to test authorisation). */
  messageInfo?: MessageInfoSource;
  /** Reported as `sessionId`. */
  sessionId?: string;
}

/** Options for `createLinkedTransports`: one set per side. */
export interface LinkedTransportsOptions {
  /** Options of the first transport of the pair (e.g. the `messageInfo` its receiver sees). */
  first?: InMemoryTransportOptions;
  /** Options of the second transport of the pair. */
  second?: InMemoryTransportOptions;
}

/**
 * One end of an in-process channel made by `createLinkedTransports`. Messages are delivered asynchronously (one
 * microtask each), in order, by reference (not copied). Messages sent before the receiving side started are held
 * until it starts. A message whose `send` resolved is delivered even when the pair closes right after: each side's
 * `onclose` runs after the messages already on their way to it (a started side), and none comes after it.
 */
export class InMemoryTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  readonly sessionId: string | undefined;
  /** What this side attaches to the messages it delivers; may be changed at any time. */
  messageInfo: MessageInfoSource | undefined;
  #other: InMemoryTransport | undefined = undefined;
  #started = false;
  #closed = false;
  /** Set when `onclose` is due: deliveries queued after that point are dropped, none runs after `onclose`. */
  #closeDelivered = false;
  #held: JsonRpcMessage[] = [];

  /** Use `createLinkedTransports()`; an unlinked transport cannot send. */
  constructor(options: InMemoryTransportOptions = {}) {
    this.messageInfo = options.messageInfo;
    this.sessionId = options.sessionId;
  }

  /** Links two transports into a pair. */
  static link(first: InMemoryTransport, second: InMemoryTransport): void {
    if (first.#other !== undefined || second.#other !== undefined) {
      throw new Error('InMemoryTransport.link: a transport can be linked only once');
    }
    first.#other = second;
    second.#other = first;
  }

  /** True once either side closed. */
  get closed(): boolean {
    return this.#closed;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('InMemoryTransport.start: already started (start is called once)');
    if (this.#closed) throw new ConnectionClosedError('InMemoryTransport.start: the transport is closed');
    this.#started = true;
    const held = this.#held;
    this.#held = [];
    for (const message of held) this.#schedule(message);
  }

  send(message: JsonRpcMessage, _options?: TransportSendOptions): Promise<void> {
    const other = this.#other;
    if (this.#closed || other === undefined) {
      return Promise.reject(
        new ConnectionClosedError(
          this.#closed
            ? 'InMemoryTransport.send: the transport is closed'
            : 'InMemoryTransport.send: not linked; create transports with createLinkedTransports()',
        ),
      );
    }
    other.#receive(message);
    return Promise.resolve();
  }

  /**
   * Closes both sides; each side's `onclose` runs once, after the messages already sent to it (deliveries are
   * microtasks, first in first out, so queueing `onclose` behind them keeps the order). Resolves once both ran.
   */
  async close(): Promise<void> {
    const other = this.#other;
    const closeSelf = this.#markClosed();
    const closeOther = other === undefined ? false : other.#markClosed();
    if (!closeSelf && !closeOther) return;
    if (closeSelf) queueMicrotask(() => this.#deliverClose());
    if (closeOther) queueMicrotask(() => other!.#deliverClose());
    await new Promise<void>((resolve) => queueMicrotask(resolve));
  }

  #deliverClose(): void {
    this.#closeDelivered = true;
    this.onclose?.();
  }

  #markClosed(): boolean {
    if (this.#closed) return false;
    this.#closed = true;
    this.#held = [];
    return true;
  }

  #receive(message: JsonRpcMessage): void {
    if (this.#started) this.#schedule(message);
    else this.#held.push(message);
  }

  #schedule(message: JsonRpcMessage): void {
    queueMicrotask(() => {
      if (this.#closeDelivered) return;
      const source = this.messageInfo;
      const info = typeof source === 'function' ? source(message) : source;
      try {
        this.onmessage?.(message, info);
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }
}

/**
 * Two transports connected to each other, for tests and in-process peers. Close either and both close.
 *
 * @example
 * const [clientSide, serverSide] = createLinkedTransports({ second: { messageInfo: { auth: { token: 't' } } } });
 * await server.connect(serverSide);
 * await client.connect(clientSide);
 */
export function createLinkedTransports(options: LinkedTransportsOptions = {}): [InMemoryTransport, InMemoryTransport] {
  const first = new InMemoryTransport(options.first);
  const second = new InMemoryTransport(options.second);
  InMemoryTransport.link(first, second);
  return [first, second];
}
