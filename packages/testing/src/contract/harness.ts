import type { JsonRpcMessage, MessageInfo, Transport } from '@mcpkit/jsonrpc-core';
import type { TransportContractOptions, TransportPair } from './types';

/** Thrown by a check that failed: says which rule of the contract broke and what was seen. */
export class TransportContractError extends Error {
  override name = 'TransportContractError';
  readonly code = 'ERR_TRANSPORT_CONTRACT' as const;
  /** The check that failed and what it saw, for debugging. */
  readonly data: { check: string; detail: unknown };

  constructor(check: string, message: string, detail?: unknown) {
    super(`${check}: ${message}`);
    this.data = { check, detail };
  }
}

/** Everything one end reported through its slots, in order. */
export class EndRecord {
  readonly messages: JsonRpcMessage[] = [];
  readonly infos: (MessageInfo | undefined)[] = [];
  readonly errors: Error[] = [];
  closes = 0;
  /** Messages delivered after `onclose` ran (the contract allows none). */
  lateMessages = 0;
  #waiters: (() => void)[] = [];

  constructor(readonly end: 'client' | 'server') {}

  attach(transport: Transport): void {
    transport.onmessage = (message, info) => {
      if (this.closes > 0) this.lateMessages++;
      this.messages.push(message);
      this.infos.push(info);
      this.#changed();
    };
    transport.onclose = () => {
      this.closes++;
      this.#changed();
    };
    transport.onerror = (error) => {
      this.errors.push(error);
      this.#changed();
    };
  }

  #changed(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves once `done()` holds, or throws naming `what` after `timeoutMs`. */
  async until(done: () => boolean, check: string, what: string, timeoutMs: number): Promise<void> {
    if (done()) return;
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new TransportContractError(check, `timed out after ${timeoutMs} ms waiting for ${what}`, {
          end: this.end,
          received: this.messages.length,
          closes: this.closes,
          errors: this.errors.map((error) => error.message),
        });
      }
      // Woken by the next event on this end, or by a short poll (state may also change on the other end).
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 20));
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

/** A started pair with a record of each end. */
export interface Running {
  readonly pair: TransportPair;
  readonly client: EndRecord;
  readonly server: EndRecord;
  readonly timeoutMs: number;
  /** Builds a message with the suite's params merged in. */
  request(id: number | string, method: string, params?: Record<string, unknown>): JsonRpcMessage;
  notification(method: string, params?: Record<string, unknown>): JsonRpcMessage;
}

/** Makes a pair, starts it as a peer would, runs `body`, then closes both ends and disposes of the pair. */
export async function withPair(
  makePair: () => TransportPair | Promise<TransportPair>,
  options: TransportContractOptions,
  body: (running: Running) => Promise<void>,
): Promise<void> {
  const pair = await makePair();
  const client = new EndRecord('client');
  const server = new EndRecord('server');
  const extra = options.params;
  const merge = (params: Record<string, unknown> | undefined) =>
    extra === undefined ? params : { ...params, ...extra };
  const running: Running = {
    pair,
    client,
    server,
    timeoutMs: options.timeoutMs ?? 5_000,
    request: (id, method, params) => {
      const merged = merge(params);
      return merged === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params: merged };
    },
    notification: (method, params) => {
      const merged = merge(params);
      return merged === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params: merged };
    },
  };
  server.attach(pair.server);
  client.attach(pair.client);
  try {
    await pair.server.start();
    await pair.client.start();
    await body(running);
  } finally {
    await settleQuietly(pair.client.close());
    await settleQuietly(pair.server.close());
    await settleQuietly(pair.dispose?.());
  }
}

async function settleQuietly(value: unknown): Promise<void> {
  try {
    await value;
  } catch {
    // Cleanup of a pair a check already judged: a failure here is not the check's result.
  }
}

/** Sends and returns the outcome without throwing: `undefined` when it was accepted, the error otherwise. */
export async function trySend(
  transport: Transport,
  message: JsonRpcMessage,
  options?: Parameters<Transport['send']>[1],
): Promise<unknown> {
  try {
    await transport.send(message, options);
    return undefined;
  } catch (error) {
    return error ?? new Error('send rejected with no reason');
  }
}

/** Resolves after the current turn's microtasks and I/O callbacks had a chance to run. */
export function settle(ms = 0): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Fails `check` when `actual` and `expected` differ as JSON values. */
export function expectSameJson(check: string, what: string, actual: unknown, expected: unknown): void {
  const a = JSON.stringify(actual);
  const b = JSON.stringify(expected);
  if (a === b) return;
  const counts =
    Array.isArray(actual) && Array.isArray(expected)
      ? ` (${actual.length} message(s), expected ${expected.length})`
      : '';
  throw new TransportContractError(check, `${what} differs from what was sent${counts}`, {
    expected: b.length > 400 ? `${b.slice(0, 400)}…` : b,
    actual: a.length > 400 ? `${a.slice(0, 400)}…` : a,
  });
}
