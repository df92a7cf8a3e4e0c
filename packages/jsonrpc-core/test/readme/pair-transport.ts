import type { JsonRpcMessage, MessageInfo, Transport } from '@mcpkit/jsonrpc-core';

/** Two transports wired to each other in memory, written against the Transport contract alone. */
export class PairTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  #other?: PairTransport;
  #state: 'new' | 'started' | 'closed' = 'new';
  #inbox: JsonRpcMessage[] = []; // what arrived before start()
  #ended = false; // onclose ran

  static pair(): [PairTransport, PairTransport] {
    const a = new PairTransport();
    const b = new PairTransport();
    a.#other = b;
    b.#other = a;
    return [a, b];
  }

  // Called once, by peer.connect(), after it has set onmessage/onclose/onerror.
  async start(): Promise<void> {
    if (this.#state !== 'new') throw new Error(`PairTransport.start: cannot start a ${this.#state} transport`);
    this.#state = 'started';
    for (const message of this.#inbox.splice(0)) this.#deliver(message);
  }

  // Reject (or throw) when the message cannot go out: never drop it silently.
  async send(message: JsonRpcMessage): Promise<void> {
    if (this.#state === 'closed') throw new Error('PairTransport.send: the transport is closed');
    const other = this.#other!;
    if (other.#state === 'started') other.#deliver(message);
    else other.#inbox.push(message);
  }

  // Idempotent; closing one side closes the other; each side calls onclose exactly once.
  async close(): Promise<void> {
    this.#closed();
    this.#other!.#closed();
  }

  // Sends stop at once, but a message whose send resolved is not lost: onclose is queued behind the deliveries
  // already on their way (microtasks run in order), and nothing is delivered after it.
  #closed(): void {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#inbox = [];
    queueMicrotask(() => {
      this.#ended = true;
      this.onclose?.();
    });
  }

  // Deliver asynchronously (never re-enter the sender) and in order; nothing after onclose.
  #deliver(message: JsonRpcMessage): void {
    queueMicrotask(() => {
      if (!this.#ended) this.onmessage?.(message);
    });
  }
}
