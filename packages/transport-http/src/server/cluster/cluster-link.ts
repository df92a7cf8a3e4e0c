import type { JsonRpcMessage, JsonRpcResponse } from '@mcpkit/jsonrpc-core';
import {
  type BusMessage,
  type BusUnsubscribe,
  type MessageBus,
  resourceSubscriptionsOf,
  type ServerSession,
} from '@mcpkit/server';
import { restoreResourceSubscriptions } from '@mcpkit/server/cluster';
import type { EventStore } from '../event-store';
import type { HttpSession } from '../http-session';
import { parseEventId, STANDALONE } from '../out-stream';
import { errorResponse } from '../responses';
import { SseWriter } from '../sse';
import { recoverDeadStream } from './dead-stream';
import { RemoteSink } from './remote-sink';
import { applySessionPatch, type SessionPatch, type SessionRecord, type SessionStore } from './session-store';
import type { SessionCluster } from './shared-session';

// Scale-out of legacy sessions: how the instances sharing a session store and a bus serve each other's sessions.
//
// - Each instance listens on its own topic (`…:i:<id>`) and on one topic for all (`…:sessions`).
// - A session's GET stream lives on its home; a message for it sent from another instance's copy goes to the home.
// - A stream lives where it was opened; a GET that resumes it (or opens the GET stream) on another instance asks the
//   stream's instance to attach a `RemoteSink`, whose events it then writes to its client: `attach` → `attached` /
//   `refused`, then `ev`… and `end`; `detach` when its client goes away.
// - A client's answer to a server→client request goes to the instance that sent it (`answer`); a cancellation, a
//   change of the session's state and its end go to every instance.
// - An instance that does not answer is gone: the GET stream moves to another home, and the requests of a stream
//   that died with its instance are answered with an error so the client can send them again.

/** What the cluster needs from the handler around it. */
export interface ClusterHost {
  /** The copy of this session here, if any. */
  local(sessionId: string): HttpSession | undefined;
  /** Makes a copy of a stored session here (its peer connected and its state restored). */
  materialize(record: SessionRecord): Promise<HttpSession>;
  /** Closes the copy here (the session lives on elsewhere, unless `everywhere`). */
  dropLocal(session: HttpSession, everywhere: boolean): Promise<void>;
  /** The copies here (for the periodic shared touch). */
  copies(): Iterable<HttpSession>;
  readonly keepAliveMs: number;
  readonly maxBufferedBytes: number;
  readonly eventStore: EventStore | undefined;
}

/** Options of {@link ClusterLink}. */
export interface ClusterLinkOptions {
  readonly instanceId: string;
  readonly bus: MessageBus;
  readonly store: SessionStore;
  /** The session idle timeout: the store's expiry, extended on every request. */
  readonly idleMs: number;
  /** How long a GET waits for the instance holding its stream to answer. */
  readonly attachTimeoutMs: number;
  readonly onError: (error: Error) => void;
}

/** The bus topic prefix of the Streamable HTTP handler. */
const PREFIX = 'mcpkit:http';
const SESSIONS_TOPIC = `${PREFIX}:sessions`;

/** The bus topic of one instance. */
function instanceTopic(instanceId: string): string {
  return `${PREFIX}:i:${instanceId}`;
}

/** A GET served here for a stream that lives on another instance. */
interface Proxy {
  readonly writer: SseWriter;
  readonly producer: string;
  settle: ((outcome: BusMessage | undefined) => void) | undefined;
}

/** Thrown (and answered 503) when the session store or the bus fails. */
export class ClusterUnavailableError extends Error {
  override readonly name = 'ClusterUnavailableError';
}

/** The 503 a request gets when the shared state cannot be reached. */
export function unavailableResponse(error: unknown): Response {
  const reason = (error as Error)?.message ?? String(error);
  return errorResponse(
    503,
    -32000,
    `Service Unavailable: the shared session store or message bus did not answer (${reason}); try again shortly`,
    { data: { reason: 'shared_state_unavailable' }, headers: { 'retry-after': '1' } },
  );
}

/** @internal One handler's part in a cluster. */
export class ClusterLink implements SessionCluster<HttpSession> {
  readonly instanceId: string;
  readonly ready: Promise<void>;
  readonly store: SessionStore;
  readonly #bus: MessageBus;
  readonly #idleMs: number;
  readonly #attachTimeoutMs: number;
  readonly #onError: (error: Error) => void;
  readonly #topic: string;
  #host!: ClusterHost;
  readonly #loading = new Map<string, Promise<HttpSession | undefined>>();
  readonly #proxies = new Map<string, Proxy>();
  readonly #remote = new Map<string, RemoteSink>();
  #nextRef = 0;
  #unsubscribe: BusUnsubscribe[] = [];
  #sweeper: ReturnType<typeof setInterval> | undefined;
  #lastSweep = Date.now();

  constructor(options: ClusterLinkOptions) {
    this.instanceId = options.instanceId;
    this.store = options.store;
    this.#bus = options.bus;
    this.#idleMs = options.idleMs;
    this.#attachTimeoutMs = options.attachTimeoutMs;
    this.#onError = options.onError;
    this.#topic = instanceTopic(options.instanceId);
    this.ready = Promise.all([
      this.#bus.subscribe(this.#topic, (message) => this.#onDirect(message)),
      this.#bus.subscribe(SESSIONS_TOPIC, (message) => this.#onSessions(message)),
    ]).then((unsubscribe) => {
      this.#unsubscribe = unsubscribe;
    });
    // Handled where it is awaited (every request waits for it); not an unhandled rejection meanwhile.
    this.ready.catch(() => undefined);
    if (Number.isFinite(this.#idleMs)) {
      // Sessions busy or active here keep their stored expiry fresh without a store write per event.
      const every = Math.max(1000, Math.min(60_000, Math.floor(this.#idleMs / 4)));
      this.#sweeper = setInterval(() => this.#refresh(), every);
      (this.#sweeper as { unref?: () => void }).unref?.();
    }
  }

  /** Set once by the handler that owns this link. */
  bind(host: ClusterHost): void {
    this.#host = host;
  }

  // ------------------------------------------------------------------ sessions

  /** The session's copy here, made from the store when there is none; `undefined` when the store has no such session. */
  async find(sessionId: string): Promise<HttpSession | undefined> {
    const local = this.#host.local(sessionId);
    if (local !== undefined) return local;
    let loading = this.#loading.get(sessionId);
    if (loading === undefined) {
      loading = this.store.get(sessionId).then(async (record) => {
        if (record === undefined) return undefined;
        return this.#host.local(sessionId) ?? (await this.#host.materialize(record));
      });
      this.#loading.set(sessionId, loading);
      loading.then(
        () => this.#loading.delete(sessionId),
        () => this.#loading.delete(sessionId),
      );
    }
    return loading;
  }

  /**
   * A request of the session arrived here: extends its stored expiry (and records the requests of its new POST
   * stream), and refreshes this copy if another instance changed the session. False when the session is gone.
   */
  async touch(session: HttpSession, stream?: { id: string; requests: (string | number)[] }): Promise<boolean> {
    const shared = session.shared!;
    const version = await this.store.touch(session.sessionId, this.#idleMs, stream);
    if (version === undefined) {
      await this.#host.dropLocal(session, true);
      return false;
    }
    if (version !== shared.record.version) await this.#reload(session);
    return true;
  }

  /** Stores a session that `initialize` just created here. */
  async create(session: HttpSession): Promise<void> {
    await this.store.create(session.shared!.record, this.#idleMs);
  }

  /** DELETE: the session ends on every instance. */
  async endEverywhere(session: HttpSession): Promise<void> {
    await this.store.delete(session.sessionId);
    this.#publish(SESSIONS_TOPIC, { t: 'ended', s: session.sessionId, from: this.instanceId });
    await this.#host.dropLocal(session, true);
  }

  async persist(session: HttpSession): Promise<void> {
    const shared = session.shared!;
    const peer = session.peer;
    if (peer === undefined) return;
    const record = shared.record;
    const patch: SessionPatch = {};
    let changed = false;
    if (peer.logLevel !== undefined && peer.logLevel !== record.logLevel) {
      patch.logLevel = peer.logLevel;
      changed = true;
    }
    if (peer.initialized && !record.initialized) {
      patch.initialized = true;
      changed = true;
    }
    const now = resourceSubscriptionsOf(peer);
    const before = new Set(record.resourceSubscriptions);
    const subscribe = [...now].filter((uri) => !before.has(uri));
    const unsubscribe = [...before].filter((uri) => !now.has(uri));
    if (subscribe.length > 0) patch.subscribe = subscribe;
    if (unsubscribe.length > 0) patch.unsubscribe = unsubscribe;
    if (!changed && subscribe.length === 0 && unsubscribe.length === 0) return;
    const version = await this.store.update(session.sessionId, patch, this.#idleMs);
    if (version === undefined) return;
    applySessionPatch(record, patch);
    record.version = version;
    this.#publish(SESSIONS_TOPIC, { t: 'changed', s: session.sessionId, v: version, from: this.instanceId });
  }

  async #reload(session: HttpSession): Promise<void> {
    const record = await this.store.get(session.sessionId);
    if (record === undefined) {
      await this.#host.dropLocal(session, true);
      return;
    }
    session.shared!.record = record;
    if (session.peer !== undefined) restoreState(session.peer, record);
  }

  /** Every few seconds: keeps the stored expiry of sessions busy or active here since the last time. */
  #refresh(): void {
    const since = this.#lastSweep;
    this.#lastSweep = Date.now();
    for (const session of this.#host.copies()) {
      if (!session.busy && session.lastActive <= since) continue;
      this.store.touch(session.sessionId, this.#idleMs).catch((error: unknown) => this.#onError(error as Error));
    }
  }

  // ------------------------------------------------------------------ SessionCluster (hooks of a copy)

  async toHome(session: HttpSession, message: JsonRpcMessage): Promise<void> {
    const home = session.shared!.record.home;
    const heard = await this.#bus.publish(instanceTopic(home), { t: 'home', s: session.sessionId, m: message });
    if (heard) return;
    // The home is gone: this instance keeps the GET stream from now on.
    if ((await this.#takeHome(session, home)) === this.instanceId) await session.deliverFromCluster(message);
    else await this.toHome(session, message);
  }

  toInstance(session: HttpSession, instance: string, message: JsonRpcResponse): void {
    this.#publish(instanceTopic(instance), { t: 'answer', s: session.sessionId, m: message });
  }

  cancelEverywhere(session: HttpSession, message: JsonRpcMessage): void {
    this.#publish(SESSIONS_TOPIC, { t: 'cancel', s: session.sessionId, m: message, from: this.instanceId });
  }

  /** Makes this instance the session's home if `gone` still is; resolves to the home now. */
  async #takeHome(session: HttpSession, gone: string): Promise<string> {
    const home = await this.store.claimHome(session.sessionId, gone, this.instanceId);
    if (home === undefined) throw new ClusterUnavailableError(`Session ${session.sessionId} no longer exists`);
    await this.#reload(session);
    return home;
  }

  // ------------------------------------------------------------------ GET of a stream that lives elsewhere

  /** The instance a GET's stream lives on (this one for ids it cannot place). */
  producerOf(session: HttpSession, lastEventId: string | null): string {
    if (lastEventId === null) return session.shared!.record.home;
    const streamId = parseEventId(lastEventId)?.streamId;
    if (streamId === undefined) return this.instanceId;
    if (streamId === STANDALONE) return session.shared!.record.home;
    const dot = streamId.indexOf('.');
    return dot > 0 ? streamId.slice(0, dot) : this.instanceId;
  }

  /** Serves a GET whose stream lives on `producer` (another instance): its events come over the bus. */
  async openRemote(session: HttpSession, lastEventId: string | null, producer: string): Promise<Response> {
    const ref = (++this.#nextRef).toString(36);
    const writer = new SseWriter(this.#host.keepAliveMs, this.#host.maxBufferedBytes);
    const proxy: Proxy = { writer, producer, settle: undefined };
    const outcome = new Promise<BusMessage | undefined>((resolve) => {
      proxy.settle = resolve;
    });
    this.#proxies.set(ref, proxy);
    writer.onCancel = () => {
      this.#proxies.delete(ref);
      this.#publish(instanceTopic(producer), { t: 'detach', key: `${this.instanceId}/${ref}` });
    };
    const attach = { t: 'attach', s: session.sessionId, last: lastEventId, to: this.instanceId, ref };
    let heard: boolean;
    try {
      heard = await this.#bus.publish(instanceTopic(producer), attach);
    } catch (error) {
      this.#proxies.delete(ref);
      throw error;
    }
    if (!heard) {
      this.#proxies.delete(ref);
      return this.#producerGone(session, lastEventId, producer);
    }
    const timer = setTimeout(() => proxy.settle?.(undefined), this.#attachTimeoutMs);
    const answer = await outcome;
    clearTimeout(timer);
    proxy.settle = undefined;
    if (answer?.t === 'attached') return new Response(writer.stream, { status: 200, headers: session.streamHeaders });
    this.#proxies.delete(ref);
    writer.close();
    if (answer === undefined) {
      return errorResponse(
        503,
        -32000,
        `Service Unavailable: instance ${producer}, which holds this stream, did not answer within ${this.#attachTimeoutMs} ms; try again`,
        { data: { reason: 'instance_unresponsive', instance: producer }, headers: { 'retry-after': '1' } },
      );
    }
    return new Response(String(answer.body ?? ''), {
      status: Number(answer.status) || 500,
      headers: { 'content-type': 'application/json' },
    });
  }

  /** Nobody listens on `producer`'s topic: it is gone. */
  async #producerGone(session: HttpSession, lastEventId: string | null, producer: string): Promise<Response> {
    const streamId = lastEventId === null ? STANDALONE : parseEventId(lastEventId)?.streamId;
    if (streamId === STANDALONE) {
      const home = await this.#takeHome(session, producer);
      return home === this.instanceId ? session.get(lastEventId) : this.openRemote(session, lastEventId, home);
    }
    return recoverDeadStream({
      session,
      store: this.store,
      eventStore: this.#host.eventStore,
      lastEventId: lastEventId!,
      instance: producer,
      keepAliveMs: this.#host.keepAliveMs,
      maxBufferedBytes: this.#host.maxBufferedBytes,
    });
  }

  // ------------------------------------------------------------------ the bus

  #publish(topic: string, message: BusMessage): void {
    this.#bus.publish(topic, message).catch((error: unknown) => this.#onError(error as Error));
  }

  #onDirect(message: BusMessage): void {
    switch (message.t) {
      case 'ev': {
        const proxy = this.#proxies.get(String(message.ref));
        proxy?.writer.event(
          String(message.data),
          message.id as string | undefined,
          message.event as string | undefined,
          message.retry as number | undefined,
        );
        return;
      }
      case 'end': {
        const ref = String(message.ref);
        const proxy = this.#proxies.get(ref);
        if (proxy === undefined) return;
        this.#proxies.delete(ref);
        proxy.settle?.({ t: 'attached' });
        proxy.writer.close();
        return;
      }
      case 'attached':
      case 'refused':
        this.#proxies.get(String(message.ref))?.settle?.(message);
        return;
      case 'detach':
        this.#remote.get(String(message.key))?.cancel();
        return;
      case 'attach':
        this.#attach(message).catch((error: unknown) => {
          this.#onError(error as Error);
          const body = unavailableResponse(error);
          void body.text().then((text) =>
            this.#publish(instanceTopic(String(message.to)), {
              t: 'refused',
              ref: message.ref,
              status: body.status,
              body: text,
            }),
          );
        });
        return;
      case 'home':
        this.#withCopy(message, (session) => session.deliverFromCluster(message.m as JsonRpcMessage));
        return;
      case 'answer': {
        // Only the copy whose peer sent the request can take its answer: no copy here, nobody waits for it.
        const session = this.#host.local(String(message.s));
        session?.receiveFromCluster(message.m as JsonRpcMessage);
        return;
      }
      default:
        return;
    }
  }

  #withCopy(message: BusMessage, use: (session: HttpSession) => void | Promise<void>): void {
    this.find(String(message.s))
      .then((session) => (session === undefined ? undefined : use(session)))
      .catch((error: unknown) => this.#onError(error as Error));
  }

  /** Another instance serves a GET for a stream that lives here: connect a sink that forwards to it. */
  async #attach(message: BusMessage): Promise<void> {
    const to = String(message.to);
    const ref = String(message.ref);
    const reply = instanceTopic(to);
    const session = await this.find(String(message.s));
    if (session === undefined) {
      this.#publish(reply, {
        t: 'refused',
        ref,
        status: 404,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32000, message: 'Session not found: it expired, was deleted, or never existed' },
        }),
      });
      return;
    }
    const key = `${to}/${ref}`;
    const sink = new RemoteSink(this.#bus, reply, ref, () => this.#remote.delete(key), this.#onError);
    this.#remote.set(key, sink);
    const refused = await session.openStream((message.last as string | null) ?? null, sink);
    if (refused !== undefined) {
      this.#remote.delete(key);
      this.#publish(reply, { t: 'refused', ref, status: refused.status, body: await refused.text() });
      return;
    }
    this.#publish(reply, { t: 'attached', ref });
  }

  #onSessions(message: BusMessage): void {
    if (message.from === this.instanceId) return;
    const session = this.#host.local(String(message.s));
    if (session === undefined) return;
    switch (message.t) {
      case 'cancel':
        session.receiveFromCluster(message.m as JsonRpcMessage);
        return;
      case 'ended':
        this.#host.dropLocal(session, false).catch((error: unknown) => this.#onError(error as Error));
        return;
      case 'changed':
        if (Number(message.v) > session.shared!.record.version) {
          this.#reload(session).catch((error: unknown) => this.#onError(error as Error));
        }
        return;
      default:
        return;
    }
  }

  /** Leaves the bus (the handler closed). */
  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    for (const proxy of this.#proxies.values()) proxy.writer.close();
    this.#proxies.clear();
    for (const sink of [...this.#remote.values()]) sink.close();
    await Promise.all(this.#unsubscribe.map((unsubscribe) => unsubscribe().catch(() => undefined)));
  }
}

/** Sets a copy's peer to what the store says (era, version, capabilities, log level, subscriptions). */
export function restoreState(peer: ServerSession, record: SessionRecord): void {
  // The server's legacy era object opens the session: the transport hands it what the store says, nothing more.
  peer.server.restoreSession(peer, {
    protocolVersion: record.protocolVersion,
    clientCapabilities: record.clientCapabilities,
    clientInfo: record.clientInfo,
    logLevel: record.logLevel,
    initialized: record.initialized,
  });
  restoreResourceSubscriptions(peer, record.resourceSubscriptions);
}
