import type { ClientCapabilities, Implementation, LoggingLevel } from '@mcpkit/protocol';

/**
 * A legacy-era Streamable HTTP session as every instance of a deployment sees it: what `initialize` negotiated and
 * what later requests changed. Plain JSON.
 */
export interface SessionRecord {
  sessionId: string;
  /** Who owns it (`principalOf` of the identity that initialized it); `null` for an anonymous session. */
  principal: string | null;
  /** The protocol version `initialize` negotiated. */
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
  /** Set by `logging/setLevel`. */
  logLevel?: LoggingLevel;
  /** URIs subscribed with `resources/subscribe`. */
  resourceSubscriptions: string[];
  /** Whether `notifications/initialized` arrived. */
  initialized: boolean;
  /**
   * The instance that numbers and keeps the events of the session's GET stream (the one that initialized it, until
   * it is gone and another takes over).
   */
  home: string;
  createdAt: number;
  /** Grows with every change, so an instance can tell its copy is stale. */
  version: number;
}

/**
 * What may change on a session after `initialize`. Subscriptions change by delta, so two instances subscribing at
 * once both count.
 */
export interface SessionPatch {
  logLevel?: LoggingLevel;
  initialized?: boolean;
  /** URIs to add to `resourceSubscriptions`. */
  subscribe?: string[];
  /** URIs to remove from `resourceSubscriptions`. */
  unsubscribe?: string[];
}

/**
 * Where legacy sessions live when several instances serve them (scale-out): any instance can load a session another
 * created, and expiry is the store's (every request extends it by the idle timeout). The handler keeps a copy of each
 * session it serves and checks `version` on every request, so one round trip (`touch`) is the steady-state cost.
 * `@mcpkit/store-redis` implements it on Redis; {@link InMemorySessionStore} serves instances of one process.
 *
 * @example
 * const handler = createStreamableHttpHandler(mcp, { sessionStore: new RedisSessionStore(redis), bus, eventStore });
 */
export interface SessionStore {
  /** Stores a new session, expiring after `ttlMs` unless touched. */
  create(record: SessionRecord, ttlMs: number): Promise<void>;
  /** The session, or `undefined` when it does not exist (never created, deleted, or expired). */
  get(sessionId: string): Promise<SessionRecord | undefined>;
  /**
   * Extends the session's expiry to `ttlMs` from now and, with `stream`, records the requests a new POST stream
   * carries (so another instance can answer them with an error if the one running them dies; a store may keep only
   * the newest streams, 64 or more). Resolves to the session's `version`, or `undefined` when it does not exist.
   */
  touch(
    sessionId: string,
    ttlMs: number,
    stream?: { id: string; requests: readonly (string | number)[] },
  ): Promise<number | undefined>;
  /** The requests recorded for POST stream `streamId` by `touch`, or `undefined` when none are kept. */
  streamRequests(sessionId: string, streamId: string): Promise<(string | number)[] | undefined>;
  /** Applies `patch`, increments `version`, extends expiry; resolves to the new version (`undefined`: no session). */
  update(sessionId: string, patch: SessionPatch, ttlMs: number): Promise<number | undefined>;
  /**
   * Makes `instance` the session's home if its home is still `expected` (that instance is gone); resolves to the home
   * after the call (`undefined`: no session).
   */
  claimHome(sessionId: string, expected: string, instance: string): Promise<string | undefined>;
  /** Deletes the session (DELETE, or it failed to initialize). */
  delete(sessionId: string): Promise<void>;
}

interface Kept {
  record: SessionRecord;
  expiresAt: number;
  /** Requests per POST stream, newest last. */
  streams: Map<string, (string | number)[]> | undefined;
}

/** How many POST streams' requests are kept per session. */
const STREAMS_KEPT = 64;

/**
 * A {@link SessionStore} in this process's memory, for several handlers of one process (tests, a single machine
 * running instances side by side). Expired sessions read as absent and are dropped as they are met.
 */
export class InMemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, Kept>();
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** Sessions kept now, expired ones not yet met included. */
  get size(): number {
    return this.#sessions.size;
  }

  async create(record: SessionRecord, ttlMs: number): Promise<void> {
    this.#sessions.set(record.sessionId, {
      record: structuredClone(record),
      expiresAt: this.#now() + ttlMs,
      streams: undefined,
    });
  }

  async get(sessionId: string): Promise<SessionRecord | undefined> {
    const kept = this.#live(sessionId);
    return kept === undefined ? undefined : structuredClone(kept.record);
  }

  async touch(
    sessionId: string,
    ttlMs: number,
    stream?: { id: string; requests: readonly (string | number)[] },
  ): Promise<number | undefined> {
    const kept = this.#live(sessionId);
    if (kept === undefined) return undefined;
    kept.expiresAt = this.#now() + ttlMs;
    if (stream !== undefined) {
      kept.streams ??= new Map();
      kept.streams.set(stream.id, [...stream.requests]);
      if (kept.streams.size > STREAMS_KEPT) kept.streams.delete(kept.streams.keys().next().value as string);
    }
    return kept.record.version;
  }

  async streamRequests(sessionId: string, streamId: string): Promise<(string | number)[] | undefined> {
    const requests = this.#live(sessionId)?.streams?.get(streamId);
    return requests === undefined ? undefined : [...requests];
  }

  async update(sessionId: string, patch: SessionPatch, ttlMs: number): Promise<number | undefined> {
    const kept = this.#live(sessionId);
    if (kept === undefined) return undefined;
    applySessionPatch(kept.record, patch);
    kept.record.version++;
    kept.expiresAt = this.#now() + ttlMs;
    return kept.record.version;
  }

  async claimHome(sessionId: string, expected: string, instance: string): Promise<string | undefined> {
    const kept = this.#live(sessionId);
    if (kept === undefined) return undefined;
    if (kept.record.home === expected) {
      kept.record.home = instance;
      kept.record.version++;
    }
    return kept.record.home;
  }

  async delete(sessionId: string): Promise<void> {
    this.#sessions.delete(sessionId);
  }

  #live(sessionId: string): Kept | undefined {
    const kept = this.#sessions.get(sessionId);
    if (kept === undefined) return undefined;
    if (kept.expiresAt <= this.#now()) {
      this.#sessions.delete(sessionId);
      return undefined;
    }
    return kept;
  }
}

/**
 * Applies `patch` to `record` in place (not `version`): what every `SessionStore` does on `update`, so that stores
 * written elsewhere (a Durable Object's, a database's) treat a patch alike.
 *
 * @example
 * applySessionPatch(record, { subscribe: ['file:///notes.md'] });
 * record.version++;
 */
export function applySessionPatch(record: SessionRecord, patch: SessionPatch): void {
  if (patch.logLevel !== undefined) record.logLevel = patch.logLevel;
  if (patch.initialized !== undefined) record.initialized = patch.initialized;
  if (patch.subscribe !== undefined || patch.unsubscribe !== undefined) {
    const uris = new Set(record.resourceSubscriptions);
    for (const uri of patch.subscribe ?? []) uris.add(uri);
    for (const uri of patch.unsubscribe ?? []) uris.delete(uri);
    record.resourceSubscriptions = [...uris];
  }
}
