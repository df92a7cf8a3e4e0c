import type { JsonRpcMessage } from '@mcpkit/jsonrpc-core';

/**
 * One SSE event kept for redelivery. `seq` increases with every event of a session (across its streams); `id` is
 * what the client saw in the `id:` field (`<streamId>-<seq in base 36>`).
 */
export interface StoredEvent {
  id: string;
  seq: number;
  message: JsonRpcMessage;
}

/**
 * Where the legacy-era Streamable HTTP server keeps the events it sent, so a client that lost a stream (a network
 * drop, or the server closing it mid-call — SSE polling, SEP-1699) can reconnect with `Last-Event-ID` and receive
 * exactly what it missed. Implement it over Redis or a database to resume across instances.
 *
 * @example
 * const handler = createStreamableHttpHandler(server, { eventStore: new InMemoryEventStore({ maxEventsPerSession: 500 }) });
 */
export interface EventStore {
  /** Keeps one event of a stream. Events of a stream arrive in `seq` order. */
  append(sessionId: string, streamId: string, event: StoredEvent): void | Promise<void>;
  /**
   * The events of `streamId` with `seq > afterSeq`, in order; `undefined` when some of them are no longer kept (the
   * client then gets what is left, and the server reports the gap through `onError`).
   */
  replayAfter(
    sessionId: string,
    streamId: string,
    afterSeq: number,
  ): readonly StoredEvent[] | undefined | Promise<readonly StoredEvent[] | undefined>;
  /** Forgets a stream that completed and was delivered in full. Optional. */
  deleteStream?(sessionId: string, streamId: string): void | Promise<void>;
  /** Forgets everything of a session (it ended or expired). */
  deleteSession(sessionId: string): void | Promise<void>;
}

/** Options for {@link InMemoryEventStore}. */
export interface InMemoryEventStoreOptions {
  /** Events kept per session; the oldest go first. Default 256. */
  maxEventsPerSession?: number;
}

interface SessionLog {
  events: (StoredEvent & { streamId: string })[];
  /** Per stream, the highest `seq` that was evicted: replays after an earlier point are incomplete. */
  evicted: Map<string, number> | undefined;
}

/**
 * The default event store: in memory, bounded per session, nothing kept for streams delivered in full. Suits one
 * process; use a shared store when clients may reconnect to another instance.
 */
export class InMemoryEventStore implements EventStore {
  readonly #max: number;
  readonly #sessions = new Map<string, SessionLog>();

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.#max = options.maxEventsPerSession ?? 256;
    if (!(this.#max >= 1)) throw new RangeError(`InMemoryEventStore: maxEventsPerSession must be at least 1`);
  }

  append(sessionId: string, streamId: string, event: StoredEvent): void {
    let log = this.#sessions.get(sessionId);
    if (log === undefined) {
      log = { events: [], evicted: undefined };
      this.#sessions.set(sessionId, log);
    }
    log.events.push({ id: event.id, seq: event.seq, message: event.message, streamId });
    if (log.events.length > this.#max) {
      const dropped = log.events.shift()!;
      log.evicted ??= new Map();
      log.evicted.set(dropped.streamId, dropped.seq);
    }
  }

  replayAfter(sessionId: string, streamId: string, afterSeq: number): StoredEvent[] | undefined {
    const log = this.#sessions.get(sessionId);
    if (log === undefined) return [];
    const out: StoredEvent[] = [];
    for (const event of log.events) {
      if (event.streamId === streamId && event.seq > afterSeq) {
        out.push({ id: event.id, seq: event.seq, message: event.message });
      }
    }
    const evicted = log.evicted?.get(streamId);
    return evicted !== undefined && evicted > afterSeq ? undefined : out;
  }

  deleteStream(sessionId: string, streamId: string): void {
    const log = this.#sessions.get(sessionId);
    if (log === undefined) return;
    log.events = log.events.filter((event) => event.streamId !== streamId);
    log.evicted?.delete(streamId);
    if (log.events.length === 0 && (log.evicted === undefined || log.evicted.size === 0)) {
      this.#sessions.delete(sessionId);
    }
  }

  deleteSession(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }

  /** Events kept now, across sessions (for tests and metrics). */
  get size(): number {
    let total = 0;
    for (const log of this.#sessions.values()) total += log.events.length;
    return total;
  }
}
