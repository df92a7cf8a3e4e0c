import type { EventStore, StoredEvent } from '@mcpkit/transport-http';
import type { DurableObjectStorageLike } from './platform';

// A session's SSE events in its Durable Object's storage, so a client that lost a stream resumes with Last-Event-ID
// even when the stream was cut mid-call. Keys sort by seq (fixed-width base 36), one prefix per stream, so a replay is
// one ordered `list`. Writes are not awaited by the caller's event loop turn: the object's output gate holds every
// response until they are durable, which is the guarantee we need (an event a client saw is stored).

/** Options for {@link DurableObjectEventStore}. */
export interface DurableObjectEventStoreOptions {
  /** Events kept per session; the oldest go first. Default 256. */
  maxEventsPerSession?: number;
}

const PREFIX = 'mcp-event:';
const SEQ_WIDTH = 11; // base 36: past Number.MAX_SAFE_INTEGER

function streamPrefix(sessionId: string, streamId: string): string {
  return `${PREFIX}${sessionId}:${streamId}:`;
}

function seqKey(seq: number): string {
  return seq.toString(36).padStart(SEQ_WIDTH, '0');
}

/**
 * An `EventStore` (of `@mcpkit/transport-http`) on a Durable Object's storage: what {@link defineMcpSessionObject}
 * uses by default. Bounded per session; everything of a session goes when it ends.
 *
 * @example
 * const handler = createStreamableHttpHandler(server, { eventStore: new DurableObjectEventStore(state.storage) });
 */
export class DurableObjectEventStore implements EventStore {
  readonly #storage: DurableObjectStorageLike;
  readonly #max: number;
  /**
   * Keys of each session's kept events, oldest first (this object holds the session, so it knows them all); read from
   * storage once per session after the object starts, so a restart does not lift the bound.
   */
  readonly #keys = new Map<string, string[] | Promise<string[]>>();

  constructor(storage: DurableObjectStorageLike, options: DurableObjectEventStoreOptions = {}) {
    this.#storage = storage;
    this.#max = options.maxEventsPerSession ?? 256;
    if (!(this.#max >= 1)) throw new RangeError(`DurableObjectEventStore: maxEventsPerSession must be at least 1`);
  }

  async append(sessionId: string, streamId: string, event: StoredEvent): Promise<void> {
    const key = streamPrefix(sessionId, streamId) + seqKey(event.seq);
    const keys = await this.#keysOf(sessionId);
    keys.push(key);
    const dropped = keys.length > this.#max ? keys.splice(0, keys.length - this.#max) : [];
    await this.#storage.put(key, event);
    if (dropped.length > 0) await this.#storage.delete(dropped);
  }

  async #keysOf(sessionId: string): Promise<string[]> {
    const known = this.#keys.get(sessionId);
    if (known !== undefined) return known instanceof Promise ? await known : known;
    // `seq` grows across the session's streams: the stored keys, ordered by it, are oldest first.
    const loading = this.#storage
      .list({ prefix: `${PREFIX}${sessionId}:` })
      .then((found) => [...found.keys()].sort((a, b) => (a.slice(-SEQ_WIDTH) < b.slice(-SEQ_WIDTH) ? -1 : 1)));
    this.#keys.set(sessionId, loading);
    const keys = await loading;
    // A delete of the session while the keys were read leaves it deleted.
    if (this.#keys.has(sessionId)) this.#keys.set(sessionId, keys);
    return keys;
  }

  async replayAfter(sessionId: string, streamId: string, afterSeq: number): Promise<readonly StoredEvent[]> {
    const prefix = streamPrefix(sessionId, streamId);
    const found = await this.#storage.list<StoredEvent>({ prefix, start: prefix + seqKey(afterSeq + 1) });
    return [...found.values()];
  }

  async deleteSession(sessionId: string): Promise<void> {
    this.#keys.delete(sessionId);
    const prefix = `${PREFIX}${sessionId}:`;
    for (;;) {
      const batch = await this.#storage.list({ prefix, limit: 128 });
      if (batch.size === 0) return;
      await this.#storage.delete([...batch.keys()]);
    }
  }
}
