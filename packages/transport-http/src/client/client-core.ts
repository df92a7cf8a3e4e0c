import type { AbortLink, AbortSource, JsonRpcErrorObject, JsonRpcMessage, JsonRpcRequest } from '@mcpkit/jsonrpc-core';
import type { HttpAnswer, HttpExchange } from './http-exchange';
import type { HeadersOption } from './request-headers';

// What the era halves of StreamableHttpClientTransport (legacy-session.ts, modern-requests.ts) share with it: the
// request bookkeeping types, the one interface both halves implement, and the few transport operations each era
// builds on.

/** A request sent and not yet answered. */
export interface InFlight {
  readonly request: JsonRpcRequest;
  /**
   * The era whose rules the request goes by, as its own envelope says (not the transport's era: the probe comes before
   * negotiation). Chosen once when it is sent; its headers, cancellation, repair, resumption and what its result
   * teaches follow it.
   */
  readonly era: HttpEra;
  /** Aborts the request's POST and its response stream. */
  readonly cancel: AbortLink;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** What a request already tried after a refusal, so each repair is attempted at most once. */
export interface RoundTripState {
  relisted: boolean;
  reinitialized: boolean;
}

/** One SSE stream and the GETs that resume it. */
export interface StreamChain {
  /** The request whose response this stream owes; absent for the standalone GET stream. */
  readonly entry?: InFlight;
  /** The era whose rules say what happens when the stream ends early: its request's, or legacy's for the standalone one. */
  readonly era: HttpEra;
  /** Aborts every stream of the chain: the request's canceller, or the standalone stream's. */
  readonly cancel: AbortLink;
  lastEventId?: string;
  retryMs?: number;
  attempts: number;
}

/** The answer to a request the transport sends for itself (its response is returned, never delivered). */
export type PrivateAnswer = { result: unknown } | { error: JsonRpcErrorObject };

/**
 * One era's rules of Streamable HTTP on the client (legacy-session.ts: 2025-03-26 … 2025-11-25; modern-requests.ts:
 * 2026-07-28). The transport picks one per message, once, and asks it instead of testing the era.
 */
export interface HttpEra {
  /** Cancelling a request closes its response stream (2026-07-28) instead of posting `notifications/cancelled`. */
  readonly cancelsBySignal: boolean;
  /** Adds the era's MCP headers for `message` to a POST's `headers`. */
  addHeaders(message: JsonRpcMessage, headers: Record<string, string | undefined>): void;
  /** Takes what the answer to a POST of this era tells it (legacy: the session id the server assigns). */
  answered(answer: HttpAnswer): void;
  /** Learns what a delivered result teaches (legacy: the version of `initialize`; 2026-07-28: tool headers). */
  learn(request: JsonRpcRequest, result: unknown): void;
  /**
   * A request of this era was refused with `error`: repairs what the era can repair and sends the request again
   * (true), or leaves the error to stand (false).
   */
  repair(entry: InFlight, state: RoundTripState, error: JsonRpcErrorObject): Promise<boolean>;
  /**
   * A stream of `chain` ended before it should have (`why`, `failure`): resumes it (legacy, when it carried an event
   * id) or throws `ERR_STREAM_ENDED`.
   */
  streamEnded(chain: StreamChain, why: string, failure: unknown): Promise<void>;
}

/** The transport, as its era halves see it. */
export interface ClientCore {
  readonly url: URL;
  readonly http: HttpExchange;
  readonly headers: HeadersOption | undefined;
  /** Aborted when the transport closes. */
  readonly lifetime: AbortSignal;
  isClosed(): boolean;
  /** Requests sent and not yet answered. */
  inFlightCount(): number;
  /** POSTs a notification or response (202 expected). */
  postOther(message: JsonRpcMessage): Promise<void>;
  /** POSTs `entry`'s request again (after a repair: a new session, re-listed tools). */
  retry(entry: InFlight, state: RoundTripState): Promise<void>;
  /** Sends a request of the transport's own and returns its answer; other messages on the way are delivered. */
  privateCall(request: JsonRpcRequest, signal: AbortSource): Promise<PrivateAnswer>;
  /** Reads an SSE stream of `chain`, delivering its messages; resumes it when it ends too early (legacy era). */
  consume(answer: HttpAnswer, chain: StreamChain): Promise<void>;
  deliver(message: JsonRpcMessage): void;
  /** Settles `entry` (fails it with `error`), once. */
  finish(entry: InFlight, error?: Error): void;
  report(error: Error): void;
  /** Closes the transport with `reason` as `onclose`'s argument. */
  closeWith(reason: Error | undefined): void;
  /** A fresh id for a request of the transport's own. */
  privateId(purpose: string): string;
}
