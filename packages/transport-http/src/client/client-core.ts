import type { JsonRpcErrorObject, JsonRpcMessage, JsonRpcRequest } from '@mcpkit/jsonrpc-core';
import type { HttpAnswer, HttpExchange } from './http-exchange';
import type { AbortSource, Canceller } from './request-abort';
import type { HeadersOption } from './request-headers';

// What the era halves of StreamableHttpClientTransport (legacy-session.ts, modern-requests.ts) share with it: the
// request bookkeeping types, and the few transport operations each era builds on.

/** A request sent and not yet answered. */
export interface InFlight {
  readonly request: JsonRpcRequest;
  /**
   * Whether the request goes by the 2026-07-28 rules, as its own envelope says (not the transport's era: the probe
   * comes before negotiation). Its cancellation, repair, resumption and what its result teaches follow it.
   */
  readonly modern: boolean;
  /** Aborts the request's POST and its response stream. */
  readonly cancel: Canceller;
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
  /** Aborts every stream of the chain: the request's canceller, or the standalone stream's. */
  readonly cancel: Canceller;
  lastEventId?: string;
  retryMs?: number;
  attempts: number;
}

/** The answer to a request the transport sends for itself (its response is returned, never delivered). */
export type PrivateAnswer = { result: unknown } | { error: JsonRpcErrorObject };

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
  /** POSTs one message with its era's headers; rejects with `ERR_NETWORK` when no answer arrives. */
  post(message: JsonRpcMessage, signal: AbortSource, modern: boolean): Promise<HttpAnswer>;
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
