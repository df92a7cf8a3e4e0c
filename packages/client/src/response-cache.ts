import type { CacheScope } from '@mcpkit/protocol';

/** Options for {@link ResponseCache}. */
export interface ResponseCacheOptions {
  /** Most entries kept; the oldest are evicted first. Default 500. */
  maxEntries?: number;
  /** The clock, for tests. Default `Date.now`. */
  now?: () => number;
}

interface Entry {
  readonly value: unknown;
  readonly expiresAt: number;
  readonly method: string;
}

// Separates the parts of a key; it cannot occur in a method name or in JSON text's structural characters.
const SEPARATOR = '\u0000';

/**
 * Cached results of 2026-07-28 cacheable requests (`server/discover`, the four lists, `resources/read`), honouring
 * `ttlMs` and `cacheScope` (SEP-2549):
 *
 * - an entry is fresh while `now < receivedAt + ttlMs`; a missing, zero or negative `ttlMs` is never stored;
 * - `public` entries are shared by every authorization context; `private` entries belong to the context they were
 *   fetched in, and a lookup from another context never sees them.
 *
 * One instance may be shared by many clients (pass it as `cache`); each client passes its own auth-context key.
 *
 * @example
 * ```ts
 * const cache = new ResponseCache({ maxEntries: 100 });
 * const alice = new Client(info, { cache, authContextKey: 'alice' });
 * const bob = new Client(info, { cache, authContextKey: 'bob' }); // never sees alice's private entries
 * ```
 */
export class ResponseCache {
  readonly #entries = new Map<string, Entry>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: ResponseCacheOptions = {}) {
    this.#maxEntries = Math.max(1, options.maxEntries ?? 500);
    this.#now = options.now ?? Date.now;
  }

  /** Entries currently held (fresh or not yet evicted). */
  get size(): number {
    return this.#entries.size;
  }

  /** The fresh result for `requestKey`: a public one, or a private one of `authContext`. */
  get(method: string, requestKey: string, authContext: string): unknown {
    const now = this.#now();
    return (
      this.#fresh(publicKey(method, requestKey), now) ?? this.#fresh(privateKey(method, requestKey, authContext), now)
    );
  }

  /** Stores `value` if its hints allow it. Returns whether it was stored. */
  set(
    method: string,
    requestKey: string,
    authContext: string,
    value: unknown,
    ttlMs: number | undefined,
    scope: CacheScope | undefined,
  ): boolean {
    if (typeof ttlMs !== 'number' || !(ttlMs > 0)) return false;
    // An unknown scope is treated as private: sharing is the risky direction.
    const key = scope === 'public' ? publicKey(method, requestKey) : privateKey(method, requestKey, authContext);
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: this.#now() + ttlMs, method });
    if (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    return true;
  }

  /** Drops every entry of `method` (all contexts), or only those whose request key matches `requestKey`. */
  invalidate(method: string, requestKey?: string): void {
    for (const [key, entry] of this.#entries) {
      if (entry.method !== method) continue;
      if (requestKey === undefined || key.endsWith(`${SEPARATOR}${requestKey}`)) this.#entries.delete(key);
    }
  }

  /** Drops everything. */
  clear(): void {
    this.#entries.clear();
  }

  #fresh(key: string, now: number): unknown {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (now < entry.expiresAt) return entry.value;
    this.#entries.delete(key);
    return undefined;
  }
}

function publicKey(method: string, requestKey: string): string {
  return `public${SEPARATOR}${method}${SEPARATOR}${requestKey}`;
}

function privateKey(method: string, requestKey: string, authContext: string): string {
  // JSON-encode the context so no context string can forge another's prefix.
  return `private${SEPARATOR}${JSON.stringify(authContext)}${SEPARATOR}${method}${SEPARATOR}${requestKey}`;
}
