// Proof that the contract suite can fail: transports broken on purpose, each failing the check aimed at its fault
// (and only through a TransportContractError naming that check).
import type { JsonRpcMessage, MessageInfo, Transport } from '@mcpkit/jsonrpc-core';
import { describe, expect, it } from 'vitest';
import { type ContractCase, TransportContractError, type TransportPair, transportContractCases } from '../src/index';

interface Faults {
  /** Drops whatever is still queued when the channel closes, though `send` resolved for it. */
  dropOnClose?: boolean;
  /** Calls `onclose` again on a second `close()`. */
  doubleClose?: boolean;
  /** Swaps every other pair of messages. */
  reorder?: boolean;
  /** Accepts `send` after close and drops the message. */
  sendAfterClose?: boolean;
}

/** A deliberately faulty in-process transport: a macrotask queue per direction, and the faults asked for. */
class FaultyTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  other!: FaultyTransport;
  closed = false;
  #queue: JsonRpcMessage[] = [];
  #held: JsonRpcMessage | undefined;
  #flushing = false;

  constructor(readonly faults: Faults) {}

  async start(): Promise<void> {}

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.closed) {
      if (this.faults.sendAfterClose) return;
      throw new Error('closed');
    }
    if (this.faults.reorder && this.#held === undefined) {
      this.#held = message;
      return;
    }
    this.other.#enqueue(message);
    if (this.#held !== undefined) {
      this.other.#enqueue(this.#held);
      this.#held = undefined;
    }
  }

  #enqueue(message: JsonRpcMessage): void {
    this.#queue.push(message);
    if (this.#flushing) return;
    this.#flushing = true;
    setTimeout(() => this.#flush(), 1);
  }

  #flush(): void {
    this.#flushing = false;
    const queue = this.#queue.splice(0);
    for (const message of queue) this.onmessage?.(message);
    if (this.closed && !this.faults.dropOnClose) this.onclose?.();
  }

  async close(): Promise<void> {
    for (const end of [this, this.other]) {
      if (end.closed) {
        if (this.faults.doubleClose) end.onclose?.();
        continue;
      }
      end.closed = true;
      if (end.#held !== undefined) end.other.#enqueue(end.#held);
      end.#held = undefined;
      if (this.faults.dropOnClose) {
        end.#queue.length = 0;
        end.onclose?.();
      } else if (!end.#flushing) {
        end.onclose?.();
      }
      // Otherwise #flush delivers the queue and then onclose.
    }
  }
}

function pairWith(faults: Faults): () => TransportPair {
  return () => {
    const client = new FaultyTransport(faults);
    const server = new FaultyTransport(faults);
    client.other = server;
    server.other = client;
    return { client, server };
  };
}

async function outcome(contractCase: ContractCase): Promise<TransportContractError | undefined> {
  try {
    await contractCase.run();
    return undefined;
  } catch (error) {
    if (error instanceof TransportContractError) return error;
    throw error;
  }
}

async function failures(faults: Faults): Promise<Map<string, string>> {
  const failed = new Map<string, string>();
  for (const contractCase of transportContractCases(pairWith(faults), { timeoutMs: 500, inFlight: 20 })) {
    const error = await outcome(contractCase);
    if (error !== undefined) failed.set(contractCase.name, error.message);
  }
  return failed;
}

describe('the contract suite fails broken transports', () => {
  it('passes the same transport without faults (the baseline the faults are measured against)', async () => {
    expect([...(await failures({})).keys()]).toEqual([]);
  });

  it('a transport that drops queued messages on close fails the no-message-lost checks', async () => {
    const failed = await failures({ dropOnClose: true });
    expect([...failed.keys()]).toEqual([
      'loses no message when the server closes right after sending',
      'loses no message when the client closes right after sending',
    ]);
    expect(failed.get('loses no message when the server closes right after sending')).toMatch(
      /what reached the client before its onclose differs/,
    );
  });

  it('a transport that calls onclose twice fails both close checks', async () => {
    const failed = await failures({ doubleClose: true });
    expect([...failed.keys()]).toEqual([
      'close() on the client end runs each end’s onclose once',
      'close() on the server end runs each end’s onclose once',
    ]);
    expect(failed.get('close() on the client end runs each end’s onclose once')).toMatch(
      /onclose ran 2 times \(the contract: once\)/,
    );
  });

  it('a transport that reorders messages fails the order check', async () => {
    const failed = await failures({ reorder: true });
    expect(failed.has('delivers messages in the order they were sent, both ways')).toBe(true);
    expect(failed.get('delivers messages in the order they were sent, both ways')).toMatch(
      /the order of client→server/,
    );
  });

  it('a transport that accepts send after close fails the send-after-close checks', async () => {
    const failed = await failures({ sendAfterClose: true });
    expect(failed.get('send() after close rejects or throws, on both ends')).toMatch(
      /accepted a message after it closed/,
    );
    expect(failed.has('a send pending when the channel closes settles (never hangs)')).toBe(true);
  });
});
