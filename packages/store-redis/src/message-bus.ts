import type { BusMessage, BusUnsubscribe, MessageBus } from '@mcpkit/server';
import type { Redis } from 'ioredis';

/** Options of {@link RedisMessageBus}. */
export interface RedisMessageBusOptions {
  /** Prefix of every channel. Default `'mcp:'`. */
  prefix?: string;
  /**
   * The connection that subscribes (a connection in subscriber mode can do nothing else). Default: a duplicate of the
   * client given, made here and closed by `close()`.
   */
  subscriber?: Redis;
  /** A listener that threw. Default: `console.error`. */
  onError?: (error: Error) => void;
}

/**
 * A {@link MessageBus} on Redis pub/sub: `publish` is one PUBLISH on the given client (its reply says whether anyone
 * listens), and one subscriber connection carries every topic this instance listens to. Delivery is at most once, in
 * order per publishing connection, as pub/sub gives it; ioredis resubscribes after a reconnection by itself.
 *
 * @example
 * const bus = new RedisMessageBus(redis);
 * const handler = createStreamableHttpHandler(mcp, { bus, sessionStore, eventStore });
 * await createWebSocketServer(mcp, { bus, port: 3001 });
 */
export class RedisMessageBus implements MessageBus {
  readonly #redis: Redis;
  readonly #subscriber: Redis;
  readonly #ownSubscriber: boolean;
  readonly #prefix: string;
  readonly #onError: (error: Error) => void;
  readonly #listeners = new Map<string, Set<(message: BusMessage) => void>>();
  #connecting: Promise<void> | undefined = undefined;

  constructor(redis: Redis, options: RedisMessageBusOptions = {}) {
    this.#redis = redis;
    this.#ownSubscriber = options.subscriber === undefined;
    // Its own connection may queue commands while it connects (a subscription made at start-up waits for it).
    this.#subscriber = options.subscriber ?? redis.duplicate({ lazyConnect: true, enableOfflineQueue: true });
    this.#prefix = options.prefix ?? 'mcp:';
    this.#onError = options.onError ?? ((error) => console.error(error));
    this.#subscriber.on('message', (channel: string, text: string) => this.#receive(channel, text));
    // The subscriber's connection errors are the client's to retry; they must not crash the process.
    if (this.#ownSubscriber) this.#subscriber.on('error', () => undefined);
  }

  async publish(topic: string, message: BusMessage): Promise<boolean> {
    return (await this.#redis.publish(this.#prefix + topic, JSON.stringify(message))) > 0;
  }

  async subscribe(topic: string, listener: (message: BusMessage) => void): Promise<BusUnsubscribe> {
    const channel = this.#prefix + topic;
    let listeners = this.#listeners.get(channel);
    if (listeners === undefined) {
      listeners = new Set();
      this.#listeners.set(channel, listeners);
      try {
        if (this.#subscriber.status === 'wait') {
          this.#connecting ??= this.#subscriber.connect().catch((error: unknown) => {
            this.#connecting = undefined;
            throw error;
          });
        }
        await this.#connecting;
        await this.#subscriber.subscribe(channel);
      } catch (error) {
        this.#listeners.delete(channel);
        throw error;
      }
    }
    const one = (message: BusMessage) => listener(message);
    listeners.add(one);
    return async () => {
      listeners.delete(one);
      if (listeners.size > 0 || this.#listeners.get(channel) !== listeners) return;
      this.#listeners.delete(channel);
      await this.#subscriber.unsubscribe(channel).catch(() => undefined);
    };
  }

  /** Closes the subscriber connection when this bus made it (the publishing client is yours to close). */
  async close(): Promise<void> {
    this.#listeners.clear();
    if (this.#ownSubscriber) await this.#subscriber.quit().catch(() => this.#subscriber.disconnect());
  }

  #receive(channel: string, text: string): void {
    const listeners = this.#listeners.get(channel);
    if (listeners === undefined) return;
    let message: BusMessage;
    try {
      message = JSON.parse(text) as BusMessage;
    } catch (error) {
      this.#onError(new Error(`RedisMessageBus: a message on ${channel} is not JSON`, { cause: error }));
      return;
    }
    for (const listener of [...listeners]) {
      try {
        listener(message);
      } catch (error) {
        this.#onError(error as Error);
      }
    }
  }
}
