import { applySessionPatch, type SessionPatch, type SessionRecord, type SessionStore } from '@mcpkit/transport-http';
import type { DurableObjectStorageLike } from './platform';

// A legacy session's state in its Durable Object's storage, so the session outlives the object's eviction: when workerd
// starts the object again, the handler finds the session here (through the same `SessionStore` seam that
// `@mcpkit/store-redis` fills for a Node cluster) and restores it in the new incarnation. The object is the only
// writer and workerd's input gate holds other events while a storage call is pending, so read-modify-write here needs
// no transaction.

/** What is kept per session: the record, its expiry, and the requests of its newest POST streams. */
interface Kept {
  record: SessionRecord;
  expiresAt: number;
  /** `[streamId, requestIds]`, newest last. */
  streams: [string, (string | number)[]][];
}

const PREFIX = 'mcp-session:';
/** How many POST streams' requests are kept per session (the `SessionStore` contract asks for 64 or more). */
const STREAMS_KEPT = 64;

function keyOf(sessionId: string): string {
  return PREFIX + sessionId;
}

/**
 * A `SessionStore` (of `@mcpkit/transport-http`) on a Durable Object's storage: what {@link defineMcpSessionObject}
 * gives its handler, so the session it holds (negotiated version, capabilities, client info, log level, subscriptions)
 * is restored after the object is evicted or workerd restarts. Expiry is kept with the record; an expired session
 * reads as absent.
 *
 * @example
 * const handler = createStreamableHttpHandler(server, {
 *   sessionStore: new DurableObjectSessionStore(state.storage),
 *   bus: new InProcessMessageBus(),
 *   eventStore: new DurableObjectEventStore(state.storage),
 * });
 */
export class DurableObjectSessionStore implements SessionStore {
  readonly #storage: DurableObjectStorageLike;
  readonly #now: () => number;

  constructor(storage: DurableObjectStorageLike, options: { now?: () => number } = {}) {
    this.#storage = storage;
    this.#now = options.now ?? Date.now;
  }

  async create(record: SessionRecord, ttlMs: number): Promise<void> {
    const kept: Kept = { record, expiresAt: this.#now() + ttlMs, streams: [] };
    await this.#storage.put(keyOf(record.sessionId), kept);
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const kept = await this.#live(sessionId);
    // A copy: the handler changes the record it holds, and must not change the stored one behind the store's back.
    return kept === undefined ? undefined : structuredClone(kept.record);
  }

  async touch(
    sessionId: string,
    ttlMs: number,
    stream?: { id: string; requests: readonly (string | number)[] },
  ): Promise<number | undefined> {
    const kept = await this.#live(sessionId);
    if (kept === undefined) return undefined;
    const expiresAt = this.#now() + ttlMs;
    // Every request touches: the expiry is written only once it moved by a sixteenth of the timeout, or with a stream.
    if (stream !== undefined || expiresAt - kept.expiresAt > ttlMs / 16) {
      kept.expiresAt = expiresAt;
      if (stream !== undefined) {
        kept.streams.push([stream.id, [...stream.requests]]);
        if (kept.streams.length > STREAMS_KEPT) kept.streams.splice(0, kept.streams.length - STREAMS_KEPT);
      }
      await this.#storage.put(keyOf(sessionId), kept);
    }
    return kept.record.version;
  }

  async streamRequests(sessionId: string, streamId: string): Promise<(string | number)[] | undefined> {
    const kept = await this.#live(sessionId);
    const requests = kept?.streams.find(([id]) => id === streamId)?.[1];
    return requests === undefined ? undefined : [...requests];
  }

  async update(sessionId: string, patch: SessionPatch, ttlMs: number): Promise<number | undefined> {
    const kept = await this.#live(sessionId);
    if (kept === undefined) return undefined;
    applySessionPatch(kept.record, patch);
    kept.record.version++;
    kept.expiresAt = this.#now() + ttlMs;
    await this.#storage.put(keyOf(sessionId), kept);
    return kept.record.version;
  }

  async claimHome(sessionId: string, expected: string, instance: string): Promise<string | undefined> {
    const kept = await this.#live(sessionId);
    if (kept === undefined) return undefined;
    if (kept.record.home === expected) {
      kept.record.home = instance;
      kept.record.version++;
      await this.#storage.put(keyOf(sessionId), kept);
    }
    return kept.record.home;
  }

  async delete(sessionId: string): Promise<void> {
    await this.#storage.delete([keyOf(sessionId)]);
  }

  /**
   * When the last session kept here expires (`undefined`: none is kept, or all have expired). The session object's
   * alarm uses it to clean up only what nobody can resume.
   */
  async expiresAt(): Promise<number | undefined> {
    const now = this.#now();
    let latest: number | undefined;
    for (const kept of (await this.#storage.list<Kept>({ prefix: PREFIX })).values()) {
      if (kept.expiresAt > now && (latest === undefined || kept.expiresAt > latest)) latest = kept.expiresAt;
    }
    return latest;
  }

  async #live(sessionId: string): Promise<Kept | undefined> {
    const kept = await this.#storage.get<Kept>(keyOf(sessionId));
    if (kept === undefined) return undefined;
    if (kept.expiresAt <= this.#now()) {
      await this.#storage.delete([keyOf(sessionId)]);
      return undefined;
    }
    return kept;
  }
}
