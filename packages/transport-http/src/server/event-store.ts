/**
 * One SSE event kept for redelivery. `seq` increases with every event of a session (across its streams); `id` is
 * what the client saw in the `id:` field (`<streamId>-<seq in base 36>`), so any process that shares the store can
 * parse a `Last-Event-ID` back into a stream and a `seq`.
 */
export interface StoredEvent {
  id: string;
  seq: number;
  /**
   * The `seq` of the stream's previous event (its priming event for the first one), so a replay can tell whether
   * events in between are missing (evicted).
   */
  previousSeq: number;
  /** The JSON-RPC message as it was sent: its JSON text. */
  data: string;
}

/**
 * Where the legacy-era Streamable HTTP server keeps the events it sent, so a client that lost a stream (a network
 * drop, or the server closing it mid-call — SSE polling, SEP-1699) can reconnect with `Last-Event-ID` and receive
 * exactly what it missed. An event stays replayable until the store's own retention policy (count, size, age) drops
 * it or the session ends — never because it was written to a socket, since a written event may still die in the
 * network. Every method may return a promise: implement it over Redis or a database to resume across instances.
 *
 * @example
 * const handler = createStreamableHttpHandler(server, {
 *   eventStore: new InMemoryEventStore({ maxEventsPerSession: 500, maxAgeMs: 60_000 }),
 * });
 */
export interface EventStore {
  /** Keeps one event of a stream. Events of a session arrive in `seq` order. */
  append(sessionId: string, streamId: string, event: StoredEvent): void | Promise<void>;
  /**
   * The events of `streamId` with `seq > afterSeq` that are still kept, in `seq` order. Missing ones are not an
   * error here: the caller sees the gap through `previousSeq` and reports it.
   */
  replayAfter(
    sessionId: string,
    streamId: string,
    afterSeq: number,
  ): readonly StoredEvent[] | Promise<readonly StoredEvent[]>;
  /** Forgets everything of a session (it ended or expired: nobody can ask for its events any more). */
  deleteSession(sessionId: string): void | Promise<void>;
}

/** Options for {@link InMemoryEventStore}. */
export interface InMemoryEventStoreOptions {
  /** Events kept per session; the oldest go first. Default 256. */
  maxEventsPerSession?: number;
  /**
   * Event bytes kept per session (the JSON text, counted in UTF-16 units, plus about 200 per event for the entry);
   * the oldest go first, but a session's newest event is always kept, however large. Default 1 MiB.
   */
  maxBytesPerSession?: number;
  /** Event bytes kept across all sessions, counted the same way; the oldest go first. Default 16 MiB. */
  maxBytes?: number;
  /** Events older than this are dropped. Default 5 minutes. */
  maxAgeMs?: number;
  /** The clock (ms), for tests. Default `Date.now`. */
  now?: () => number;
}

/** What an entry costs beyond its text, about: the entry and event objects, the id string, two queue slots. */
const ENTRY_OVERHEAD = 200;

interface Entry {
  readonly event: StoredEvent;
  readonly streamId: string;
  readonly log: SessionLog;
  readonly at: number;
  readonly size: number;
  /** False once evicted (it may still sit in the global queue until it reaches the head). */
  live: boolean;
}

/** A FIFO with O(1) shift: an array and a head index, compacted when the dead prefix grows. */
class Queue<T> {
  #items: T[] = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  peek(): T | undefined {
    return this.#items[this.#head];
  }

  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head++] = undefined as T;
    if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  /** Keeps the items `keep` accepts, in order. */
  retain(keep: (item: T) => boolean): void {
    const kept: T[] = [];
    for (let index = this.#head; index < this.#items.length; index++) {
      const item = this.#items[index]!;
      if (keep(item)) kept.push(item);
    }
    this.#items = kept;
    this.#head = 0;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (let index = this.#head; index < this.#items.length; index++) yield this.#items[index]!;
  }
}

interface SessionLog {
  readonly id: string;
  readonly entries: Queue<Entry>;
  bytes: number;
}

/**
 * The default event store: in memory, for one process. Bounded three ways — events and bytes per session, bytes in
 * all, and age — and cheap: an append is two queue pushes, eviction happens as events arrive (no timers), and a
 * replay scans one session's events. Use a shared store when clients may reconnect to another instance.
 */
export class InMemoryEventStore implements EventStore {
  readonly #maxEvents: number;
  readonly #maxSessionBytes: number;
  readonly #maxBytes: number;
  readonly #maxAgeMs: number;
  readonly #now: () => number;
  readonly #sessions = new Map<string, SessionLog>();
  /** Every live entry of every session in append order (plus evicted ones not yet at the head). */
  readonly #all = new Queue<Entry>();
  #bytes = 0;
  #dead = 0;

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.#maxEvents = positive('maxEventsPerSession', options.maxEventsPerSession ?? 256);
    this.#maxSessionBytes = positive('maxBytesPerSession', options.maxBytesPerSession ?? 1024 * 1024);
    this.#maxBytes = positive('maxBytes', options.maxBytes ?? 16 * 1024 * 1024);
    this.#maxAgeMs = positive('maxAgeMs', options.maxAgeMs ?? 5 * 60_000);
    this.#now = options.now ?? Date.now;
  }

  append(sessionId: string, streamId: string, event: StoredEvent): void {
    let log = this.#sessions.get(sessionId);
    if (log === undefined) {
      log = { id: sessionId, entries: new Queue(), bytes: 0 };
      this.#sessions.set(sessionId, log);
    }
    const now = this.#now();
    const size = event.data.length + event.id.length + ENTRY_OVERHEAD;
    const entry: Entry = { event, streamId, log, at: now, size, live: true };
    log.entries.push(entry);
    log.bytes += size;
    this.#bytes += size;
    this.#all.push(entry);
    while (log.entries.length > this.#maxEvents || (log.bytes > this.#maxSessionBytes && log.entries.length > 1)) {
      this.#evict(log.entries.shift()!);
    }
    this.#trim(now);
  }

  replayAfter(sessionId: string, streamId: string, afterSeq: number): StoredEvent[] {
    this.#trim(this.#now());
    const log = this.#sessions.get(sessionId);
    const out: StoredEvent[] = [];
    if (log === undefined) return out;
    for (const entry of log.entries) {
      if (entry.streamId === streamId && entry.event.seq > afterSeq) out.push(entry.event);
    }
    return out;
  }

  deleteSession(sessionId: string): void {
    const log = this.#sessions.get(sessionId);
    if (log === undefined) return;
    this.#sessions.delete(sessionId);
    for (const entry of log.entries) this.#evict(entry);
    this.#compact();
  }

  /** Events kept now, across sessions (for tests and metrics). */
  get size(): number {
    let total = 0;
    for (const log of this.#sessions.values()) total += log.entries.length;
    return total;
  }

  /** Bytes kept now, counted as the limits count them. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Drops the oldest entries while they are too old or the store is over its total. */
  #trim(now: number): void {
    const oldest = now - this.#maxAgeMs;
    for (let head = this.#all.peek(); head !== undefined; head = this.#all.peek()) {
      if (head.live && this.#bytes <= this.#maxBytes && head.at >= oldest) break;
      this.#all.shift();
      if (!head.live) {
        this.#dead--;
        continue;
      }
      // The oldest live entry of all is the oldest of its session too.
      head.log.entries.shift();
      this.#evict(head);
      this.#dead--;
    }
    this.#compact();
  }

  #evict(entry: Entry): void {
    if (!entry.live) return;
    entry.live = false;
    this.#dead++;
    entry.log.bytes -= entry.size;
    this.#bytes -= entry.size;
    if (entry.log.entries.length === 0 && this.#sessions.get(entry.log.id) === entry.log) {
      this.#sessions.delete(entry.log.id);
    }
  }

  /** Evicted entries wait in the global queue until they reach its head; past half of it, they are swept out. */
  #compact(): void {
    if (this.#dead < 1024 || this.#dead * 2 < this.#all.length) return;
    this.#all.retain((entry) => entry.live);
    this.#dead = 0;
  }
}

function positive(name: string, value: number): number {
  if (!(value >= 1)) throw new RangeError(`InMemoryEventStore: ${name} must be at least 1, got ${value}`);
  return value;
}
