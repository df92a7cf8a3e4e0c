import type { HttpSession } from './http-session';

// The legacy sessions of one handler: lookup by id, the cap, and idle expiry. A session is idle when no request of it
// is in flight and neither a request nor a delivered event touched it for `idleMs`: an open stream that nothing
// travels on keeps no session alive (a client that holds a GET stream open and goes away must not pin its session
// forever), while a stream carrying events does, and so does a call that is still running.

/** Options for {@link SessionTable}. */
export interface SessionTableOptions {
  readonly idleMs: number;
  readonly maxSessions: number;
  /** At most this many sessions per client (principal, else remote address); sessions with no client key are not counted. */
  readonly maxSessionsPerClient: number;
  /** Errors of sessions ended by the sweeper (nobody awaits those). */
  readonly onError: (error: Error) => void;
}

/** @internal The live legacy sessions of one `createStreamableHttpHandler`. */
export class SessionTable {
  readonly #sessions = new Map<string, HttpSession>();
  readonly #idleMs: number;
  readonly #maxSessions: number;
  readonly #maxPerClient: number;
  /** Sessions per client key, and the key of each session that has one (only sessions with a key are counted). */
  readonly #perClient = new Map<string, number>();
  readonly #clientOf = new Map<string, string>();
  readonly #onError: (error: Error) => void;
  #sweeper: ReturnType<typeof setInterval> | undefined = undefined;

  constructor(options: SessionTableOptions) {
    this.#idleMs = options.idleMs;
    this.#maxSessions = options.maxSessions;
    this.#maxPerClient = options.maxSessionsPerClient;
    this.#onError = options.onError;
  }

  get size(): number {
    return this.#sessions.size;
  }

  get maxSessions(): number {
    return this.#maxSessions;
  }

  get maxSessionsPerClient(): number {
    return this.#maxPerClient;
  }

  /**
   * Whether one more session fits: `'full'` when the table is, `'client'` when this client already has its share, else
   * `true` (expired sessions are ended first when a limit is reached).
   */
  hasRoom(clientKey: string | undefined): true | 'full' | 'client' {
    const fits = () =>
      this.#sessions.size >= this.#maxSessions
        ? 'full'
        : clientKey !== undefined && (this.#perClient.get(clientKey) ?? 0) >= this.#maxPerClient
          ? 'client'
          : true;
    if (fits() === true) return true;
    this.#sweep();
    return fits();
  }

  add(session: HttpSession, clientKey?: string): void {
    this.#sessions.set(session.sessionId, session);
    if (clientKey !== undefined) {
      this.#clientOf.set(session.sessionId, clientKey);
      this.#perClient.set(clientKey, (this.#perClient.get(clientKey) ?? 0) + 1);
    }
    this.#startSweeper();
  }

  /** Sessions of one client now (0 for an unknown key). */
  countOf(clientKey: string): number {
    return this.#perClient.get(clientKey) ?? 0;
  }

  /** The session with this id, idle or not. */
  get(sessionId: string): HttpSession | undefined {
    return this.#sessions.get(sessionId);
  }

  /** Every session in the table. */
  values(): IterableIterator<HttpSession> {
    return this.#sessions.values();
  }

  /** The live session with this id: `undefined` when unknown, `'expired'` when it was idle too long (now ended). */
  find(sessionId: string): HttpSession | 'expired' | undefined {
    const session = this.#sessions.get(sessionId);
    if (session === undefined || !this.#isIdle(session, Date.now())) return session;
    this.end(session).catch(this.#onError);
    return 'expired';
  }

  /** Ends a session: it leaves the table at once, then its peer (or itself) closes. */
  async end(session: HttpSession): Promise<void> {
    this.forget(session);
    if (session.peer !== undefined) await session.peer.close();
    else await session.close();
  }

  /** Drops a session that closed by itself. */
  forget(session: HttpSession): void {
    if (this.#sessions.get(session.sessionId) === session) {
      this.#sessions.delete(session.sessionId);
      const key = this.#clientOf.get(session.sessionId);
      if (key !== undefined) {
        this.#clientOf.delete(session.sessionId);
        const left = (this.#perClient.get(key) ?? 1) - 1;
        if (left > 0) this.#perClient.set(key, left);
        else this.#perClient.delete(key);
      }
    }
    if (this.#sessions.size === 0) this.#stopSweeper();
  }

  /** Ends every session. */
  async endAll(): Promise<void> {
    this.#stopSweeper();
    await Promise.all([...this.#sessions.values()].map((session) => this.end(session)));
  }

  #isIdle(session: HttpSession, now: number): boolean {
    return !session.busy && now - session.lastActive > this.#idleMs;
  }

  #startSweeper(): void {
    if (this.#sweeper !== undefined || !Number.isFinite(this.#idleMs)) return;
    const every = Math.max(1000, Math.min(60_000, Math.floor(this.#idleMs / 4)));
    this.#sweeper = setInterval(() => this.#sweep(), every);
    (this.#sweeper as { unref?: () => void }).unref?.();
  }

  #stopSweeper(): void {
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }

  #sweep(): void {
    const now = Date.now();
    for (const session of [...this.#sessions.values()]) {
      if (this.#isIdle(session, now)) this.end(session).catch(this.#onError);
    }
  }
}
