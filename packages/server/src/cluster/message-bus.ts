/** One message on a {@link MessageBus}: a plain JSON object (a bus may serialise it). */
export type BusMessage = { readonly [key: string]: unknown };

/** What one instance tells every other about its clients' lists and resources. */
export type ServerBroadcast =
  | { readonly type: 'list_changed'; readonly list: 'tools' | 'prompts' | 'resources' }
  | { readonly type: 'resource_updated'; readonly uri: string };

/** Stops a subscription; resolves once the bus forgot it. */
export type BusUnsubscribe = () => Promise<void>;

/**
 * Carries messages between the instances of one server deployment (scale-out): a list change or a resource update
 * on one instance reaches clients connected to another, a server→client request's answer reaches the instance whose
 * handler waits for it, a cancellation reaches the instance running the request. Delivery is at most once and in
 * publish order per topic, as Redis pub/sub gives it: what needs to survive a lost message (events for resumption,
 * task records) lives in a store, and the bus only says where to look or carries what a live stream needs now.
 * `@mcpkit/store-redis` implements it on Redis; {@link InProcessMessageBus} connects instances of one process (tests).
 *
 * @example
 * const unsubscribe = await bus.subscribe('orders', (message) => console.log(message.id));
 * await bus.publish('orders', { id: 42 }); // every instance's listener, this one's included, gets { id: 42 }
 * await unsubscribe();
 */
export interface MessageBus {
  /**
   * Sends `message` to every listener of `topic`, on every instance (this one included). Resolves to `false` when the
   * bus knows that nobody listens (Redis: no subscriber), `true` otherwise. Rejects when the bus is unreachable.
   */
  publish(topic: string, message: BusMessage): Promise<boolean>;
  /** Calls `listener` with every message published on `topic` once this resolves; the result unsubscribes. */
  subscribe(topic: string, listener: (message: BusMessage) => void): Promise<BusUnsubscribe>;
}

/**
 * A {@link MessageBus} inside one process: several handlers (instances) of one test or one process share it. Each
 * message is copied through JSON, as a network bus would, and delivered on a later microtask, never during `publish`.
 *
 * @example
 * const bus = new InProcessMessageBus();
 * const a = createStreamableHttpHandler(serverA, { bus, sessionStore });
 * const b = createStreamableHttpHandler(serverB, { bus, sessionStore });
 */
export class InProcessMessageBus implements MessageBus {
  readonly #topics = new Map<string, Set<(message: BusMessage) => void>>();

  async publish(topic: string, message: BusMessage): Promise<boolean> {
    const listeners = this.#topics.get(topic);
    if (listeners === undefined || listeners.size === 0) return false;
    const text = JSON.stringify(message);
    for (const listener of [...listeners]) queueMicrotask(() => listener(JSON.parse(text) as BusMessage));
    return true;
  }

  async subscribe(topic: string, listener: (message: BusMessage) => void): Promise<BusUnsubscribe> {
    let listeners = this.#topics.get(topic);
    if (listeners === undefined) {
      listeners = new Set();
      this.#topics.set(topic, listeners);
    }
    // A wrapper per subscription, so one function subscribed twice is two subscriptions.
    const one = (message: BusMessage) => listener(message);
    listeners.add(one);
    return async () => {
      listeners.delete(one);
      if (listeners.size === 0 && this.#topics.get(topic) === listeners) this.#topics.delete(topic);
    };
  }

  /** Topics with at least one listener (tests). */
  get topics(): number {
    return this.#topics.size;
  }
}
