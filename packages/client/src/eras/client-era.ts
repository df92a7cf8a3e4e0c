// One protocol era's behaviour on the client side, behind one object (the server's `EraStrategy` is the model):
// negotiation picks the object once, the session carries it, and the rest of the client asks it instead of testing
// which era it speaks. Only types here, so every part of the client may import them without a cycle.
import type { JsonObject, JsonRpcPeer } from '@mcpkit/jsonrpc-core';
import type { Implementation, LoggingLevel, RequestMeta, ServerCapabilities } from '@mcpkit/protocol';
import type { CallOptions, Era } from '../options';
import type { SubscribeFilter, Subscription, SubscriptionNotification } from '../subscription-types';

/**
 * What a connection settled with the server. Negotiation creates it; a fresh `server/discover` answer and a version
 * switch after -32022 update it. A plain object: the client owns it, the pieces that send requests read it.
 */
export interface SessionState {
  /** The era's behaviour, chosen once by negotiation. */
  readonly era: ClientEra;
  /** The protocol version requests are sent with. */
  version: string;
  serverCapabilities: ServerCapabilities;
  /** Legacy: from `initialize`; modern: from the discover result's `_meta`. */
  serverInfo: Implementation | undefined;
  instructions: string | undefined;
}

/** A live connection: the peer and what negotiation settled. */
export interface Connection {
  readonly peer: JsonRpcPeer;
  readonly session: SessionState;
}

/** Options of `client.subscribe`. */
export interface SubscribeOptions {
  /** Aborts subscribing (before the acknowledgement). */
  signal?: AbortSignal;
  /** 2026-07-28: how long the acknowledgement may take; legacy: the timeout of `resources/subscribe`. */
  timeoutMs?: number;
}

/**
 * Where `Client` keeps subscriptions (its `Subscriptions`; `LeanClient` has none): what an era's `subscribe` hands the
 * work to. Declared here, so the era objects need not import the subscription manager.
 */
export interface SubscriptionKeeper {
  /** 2024-11-05 … 2025-11-25: `resources/subscribe` per URI and the list-changed notifications the server declared. */
  subscribeLegacy(
    session: SessionState,
    filter: SubscribeFilter,
    onNotification: (notification: SubscriptionNotification) => void,
    options: SubscribeOptions,
  ): Promise<Subscription>;
  /** 2026-07-28: one `subscriptions/listen` stream whose request carries `meta` (the era's envelope). */
  openStream(
    peer: JsonRpcPeer,
    meta: RequestMeta,
    filter: SubscribeFilter,
    onNotification: (notification: SubscriptionNotification) => void,
    options: SubscribeOptions,
  ): Promise<Subscription>;
}

/**
 * What differs between 2024-11-05 … 2025-11-25 (`legacy`) and 2026-07-28 (`modern`) for a client. One object per era
 * and client, built with the client: the flags are plain fields and the methods allocate nothing beyond what the
 * era's wire format needs, so asking the era costs the request path nothing.
 */
export interface ClientEra {
  readonly name: Era;
  /** Results may be cached (2026-07-28 results carry `ttlMs` / `cacheScope`). */
  readonly cachesResults: boolean;
  /** A result may be `input_required` (2026-07-28 asks for input inside results, not with server→client requests). */
  readonly inputInResults: boolean;
  /** The spec's server→client requests (`ping`, sampling, elicitation, roots) exist; else they answer -32601. */
  readonly answersServerRequests: boolean;
  /**
   * The params of a request as sent in `version`: 2026-07-28 wraps `_meta` in the envelope; legacy only merges the
   * call's extra `_meta` keys (and returns `params` itself when there are none).
   */
  wireParams(version: string, params: JsonObject | undefined, options: CallOptions): JsonObject | undefined;
  /**
   * The version to re-send a request with after its first attempt failed with `error` (2026-07-28: -32022 names the
   * versions the server speaks), or undefined: the error stands.
   */
  retryVersion(error: unknown): string | undefined;
  /** Updates `session` from a later `server/discover` answer (2026-07-28; legacy has no such request). */
  refresh(session: SessionState, discovered: unknown): void;
  /** `client.setLoggingLevel`: legacy sends `logging/setLevel`; 2026-07-28 makes it the envelope's default level. */
  setLogLevel(level: LoggingLevel, options: CallOptions | undefined): Promise<void>;
  /**
   * `client.subscribe` (`Client` only: `subscriptions` is what it installs): legacy `resources/subscribe` +
   * list-changed listeners; 2026-07-28 one listen stream.
   */
  subscribe(
    connection: Connection,
    subscriptions: SubscriptionKeeper,
    filter: SubscribeFilter,
    onNotification: (notification: SubscriptionNotification) => void,
    options: SubscribeOptions,
  ): Promise<Subscription>;
  /** `client.notifyRootsListChanged`: sends the notification (legacy, true) or nothing (2026-07-28, false). */
  notifyRootsChanged(connection: Connection): Promise<boolean>;
}
