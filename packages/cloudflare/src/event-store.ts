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
  /** Keys of each session's kept events, oldest first (this object holds the session, so it knows them all). */
  readonly #keys = new Map<string, string[]>();

  constructor(storage: DurableObjectStorageLike, options: DurableObjectEventStoreOptions = {}) {
    this.#storage = storage;
    this.#max = options.maxEventsPerSession ?? 256;
    if (!(this.#max >= 1)) throw new RangeError(`DurableObjectEventStore: maxEventsPerSession must be at least 1`);
  }

  async append(sessionId: string, streamId: string, event: StoredEvent): Promise<void> {
    const key = streamPrefix(sessionId, streamId) + seqKey(event.seq);
    let keys = this.#keys.get(sessionId);
    if (keys === undefined) {
      keys = [];
      this.#keys.set(sessionId, keys);
    }
    keys.push(key);
    const dropped = keys.length > this.#max ? keys.splice(0, keys.length - this.#max) : [];
    await this.#storage.put(key, event);
    if (dropped.length > 0) await this.#storage.delete(dropped);
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
