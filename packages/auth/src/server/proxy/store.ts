// Where the proxy keeps its state: registered clients, authorization transactions, codes and refresh grants.

/**
 * A key-value store with expiring entries. Values are JSON-compatible objects, so a shared store (Redis, a database)
 * can hold them as JSON; keys are namespaced by the proxy (`client:…`, `tx:…`, `code:…`, `refresh:…`), and codes,
 * refresh tokens and client secrets are keyed or stored by their SHA-256, never in the clear.
 *
 * @example
 * ```ts
 * // Redis, for proxies running as several instances:
 * const store: OAuthProxyStore = {
 *   async get(key) { const v = await redis.get(key); return v === null ? undefined : JSON.parse(v); },
 *   async set(key, value, ttl) { await redis.set(key, JSON.stringify(value), ...(ttl ? ['EX', ttl] : [])); },
 *   async take(key) { const v = await redis.getdel(key); return v === null ? undefined : JSON.parse(v); },
 *   async delete(key) { await redis.del(key); },
 * };
 * ```
 */
export interface OAuthProxyStore {
  get(key: string): Promise<Record<string, unknown> | undefined>;
  /** Stores `value`; it expires after `ttlSeconds` (never when undefined). */
  set(key: string, value: Record<string, unknown>, ttlSeconds?: number): Promise<void>;
  /**
   * Reads and deletes in one step. Authorization codes and refresh tokens are single-use: of two requests racing with
   * the same one, only one may get the value, so a shared store must do this atomically (Redis `GETDEL`).
   */
  take(key: string): Promise<Record<string, unknown> | undefined>;
  delete(key: string): Promise<void>;
}

/** Options of {@link InMemoryOAuthProxyStore}. */
export interface InMemoryOAuthProxyStoreOptions {
  /** At most this many entries; the oldest is dropped beyond it (after expired ones). Default 10 000. */
  maxEntries?: number;
  /** The clock, in milliseconds (for tests). Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  readonly value: Record<string, unknown>;
  readonly expiresAt: number;
}

/**
 * The default store: bounded, expiring, in this process. Fine for one instance; state is lost on restart (clients
 * then register again), and several instances need a shared {@link OAuthProxyStore}.
 *
 * @example
 * ```ts
 * const proxy = createOAuthProxy({ ...options, store: new InMemoryOAuthProxyStore({ maxEntries: 50_000 }) });
 * ```
 */
export class InMemoryOAuthProxyStore implements OAuthProxyStore {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: InMemoryOAuthProxyStoreOptions = {}) {
    this.#maxEntries = Math.max(1, options.maxEntries ?? 10_000);
    this.#now = options.now ?? Date.now;
  }

  /** Entries held now, expired ones not yet swept included. */
  get size(): number {
    return this.#entries.size;
  }

  async get(key: string): Promise<Record<string, unknown> | undefined> {
    return this.#live(key)?.value;
  }

  async set(key: string, value: Record<string, unknown>, ttlSeconds?: number): Promise<void> {
    // Re-inserting moves the key to the end, so eviction order stays "least recently written first".
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) this.#makeRoom();
    const expiresAt = ttlSeconds === undefined ? Number.POSITIVE_INFINITY : this.#now() + ttlSeconds * 1000;
    this.#entries.set(key, { value, expiresAt });
  }

  async take(key: string): Promise<Record<string, unknown> | undefined> {
    const entry = this.#live(key);
    if (entry !== undefined) this.#entries.delete(key);
    return entry?.value;
  }

  async delete(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  #makeRoom(): void {
    const now = this.#now();
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
    // Still full: drop the oldest writes. Map iteration is insertion order.
    for (const key of this.#entries.keys()) {
      if (this.#entries.size < this.#maxEntries) break;
      this.#entries.delete(key);
    }
  }
}
