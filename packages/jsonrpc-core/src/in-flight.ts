// What the peer keeps per request in flight, both ways: the handlers running for inbound requests (per connection),
// and the outgoing requests awaiting their responses. Plain state and small helpers; the peer drives them.
import type { AbortLink, AbortSource } from './abort-link';
import type { InboundRequestContext } from './context';
import {
  ConnectionClosedError,
  JsonRpcError,
  JsonRpcErrorCode,
  RequestAbortedError,
  RequestTimeoutError,
  UnknownResponseError,
} from './errors';
import type { JsonRpcErrorObject, JsonRpcMessage, JsonRpcRequest, RequestId } from './messages';
import type { Transport, TransportSendOptions } from './transport';

/** The handlers running on one connection: one in a field while requests come one at a time, a map beyond. */
export interface RunningHandlers {
  /** The running handler while only one runs (sequential clients): no map for it. */
  one: InboundRequestContext | undefined;
  /** The running handlers while two or more run at once; dropped when none is left. */
  running: Map<RequestId, InboundRequestContext> | undefined;
}

// Idle and sequential connections are the many: they keep their one running handler in a field, and only a
// connection with concurrent requests pays for a map.
export function trackRunning(connection: RunningHandlers, ctx: InboundRequestContext): void {
  const running = connection.running;
  if (running !== undefined) {
    running.set(ctx.requestId, ctx);
    return;
  }
  const one = connection.one;
  if (one === undefined || one.requestId === ctx.requestId) {
    connection.one = ctx; // a repeated id replaces the older entry, as Map.set would
    return;
  }
  connection.one = undefined;
  connection.running = new Map([
    [one.requestId, one],
    [ctx.requestId, ctx],
  ]);
}

export function untrackRunning(connection: RunningHandlers, ctx: InboundRequestContext): void {
  if (connection.one === ctx) {
    connection.one = undefined;
    return;
  }
  const running = connection.running;
  if (running === undefined || running.get(ctx.requestId) !== ctx) return;
  running.delete(ctx.requestId);
  if (running.size === 0) connection.running = undefined;
}

export function findRunning(connection: RunningHandlers, id: RequestId): InboundRequestContext | undefined {
  const one = connection.one;
  if (one !== undefined) return one.requestId === id ? one : undefined;
  return connection.running?.get(id);
}

export function takeRunning(connection: RunningHandlers): InboundRequestContext[] {
  const one = connection.one;
  const running = connection.running;
  connection.one = undefined;
  connection.running = undefined;
  if (one !== undefined) return [one];
  return running === undefined ? [] : [...running.values()];
}

/** An outgoing request awaiting its response. */
export interface PendingRequest {
  readonly request: JsonRpcRequest;
  readonly relatedRequestId: RequestId | undefined;
  readonly resolve: (value: unknown) => void;
  readonly reject: (reason: unknown) => void;
  readonly onProgress: ((progress: unknown) => void) | undefined;
  readonly resetOnProgress: boolean;
  /** The idle timeout (0: none), for the error message. */
  readonly timeoutMs: number;
  /** The max-total timeout (0: none), for the error message. */
  readonly maxTotalMs: number;
  /** When the idle timeout expires (`now()` time; Infinity: never); moved on by progress. */
  idleDeadline: number;
  /** When the max-total timeout expires (Infinity: never); moved on only by the end of a `holdTimeouts()` hold. */
  totalDeadline: number;
  signal: AbortSource | undefined;
  onAbort: (() => void) | undefined;
  /**
   * Set when the transport cancels this request itself (`Transport.cancelsBySignal`): aborted instead of sending the
   * protocol's cancellation notification.
   */
  readonly cancel: AbortLink | undefined;
}

export function timeoutValue(value: number | undefined, name: string): number {
  if (value === undefined || value === 0 || value === Infinity) return 0;
  if (!(value > 0))
    throw new RangeError(`${name} must be a positive number of milliseconds, 0 or Infinity; got ${value}`);
  return value;
}

/**
 * `value` as an `Error`: itself when it is one, else an `Error` whose message is `String(value)` (for what an
 * `onerror`-style callback receives from a `catch`).
 *
 * @example
 * promise.catch((error) => onerror(toError(error)));
 */
export function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

/**
 * The error object of a response for anything a handler threw: a `JsonRpcError` as it is (its `data` when it has some),
 * anything else -32603 with the error's message (or "Internal error" when it has none).
 *
 * @example
 * const response = { jsonrpc: '2.0', id, error: toErrorObject(error) };
 */
export function toErrorObject(error: unknown): JsonRpcErrorObject {
  if (JsonRpcError.is(error)) {
    return error.data === undefined
      ? { code: error.code, message: error.message }
      : { code: error.code, message: error.message, data: error.data };
  }
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return { code: JsonRpcErrorCode.InternalError, message: message || 'Internal error' };
}

export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';
}

export function describeId(id: RequestId): string {
  return typeof id === 'string' ? JSON.stringify(id) : String(id);
}

/** Removes a settled request's abort listener. */
export function releasePending(entry: PendingRequest): void {
  if (entry.onAbort !== undefined) {
    entry.signal!.removeEventListener('abort', entry.onAbort);
    entry.onAbort = undefined;
  }
}

/** After a `holdTimeouts()` hold: every deadline moves `heldMs` later. Returns the earliest of them. */
export function shiftDeadlines(pending: Iterable<PendingRequest>, heldMs: number): number {
  let next = Infinity;
  for (const entry of pending) {
    entry.idleDeadline += heldMs;
    entry.totalDeadline += heldMs;
    next = Math.min(next, entry.idleDeadline, entry.totalDeadline);
  }
  return next;
}

/** The pending requests due at `time`, and the earliest deadline of the others (`Infinity` when none is left). */
export function dueRequests(pending: Iterable<PendingRequest>, time: number): { due: PendingRequest[]; next: number } {
  const due: PendingRequest[] = [];
  let next = Infinity;
  for (const entry of pending) {
    const deadline = Math.min(entry.idleDeadline, entry.totalDeadline);
    if (deadline <= time) due.push(entry);
    else if (deadline < next) next = deadline;
  }
  return { due, next };
}

// The errors a request in flight ends with, each naming the method, the id and why.

export function notConnectedError(what: 'request' | 'notification', method: string): ConnectionClosedError {
  return new ConnectionClosedError(`Cannot send ${what} '${method}': the peer is not connected`, { method });
}

function label(method: string, id: RequestId): string {
  return `'${method}' (id ${describeId(id)})`;
}

export function timeoutError(entry: PendingRequest, timeoutMs: number, maxTotal: boolean): RequestTimeoutError {
  const { id, method } = entry.request;
  return new RequestTimeoutError(
    maxTotal
      ? `Request ${label(method, id)} exceeded its maximum total time of ${timeoutMs} ms (maxTotalTimeoutMs)`
      : `Request ${label(method, id)} got no response${entry.onProgress ? ' or progress' : ''} for ${timeoutMs} ms (timeoutMs)`,
    { method, requestId: id, timeoutMs, maxTotal },
  );
}

function abortError(method: string, id: RequestId, how: string, reason: unknown): RequestAbortedError {
  return new RequestAbortedError(`Request ${label(method, id)} was ${how}`, { method, requestId: id, reason });
}

export function abortedError(entry: PendingRequest, reason: unknown): RequestAbortedError {
  return abortError(entry.request.method, entry.request.id, 'aborted', reason);
}

export function cancelledByPeerError(target: InboundRequestContext, reason: unknown): RequestAbortedError {
  return abortError(target.method, target.requestId, 'cancelled by the peer', reason);
}

function closedError(method: string, id: RequestId, state: string, reason: Error | undefined): ConnectionClosedError {
  return new ConnectionClosedError(
    `The connection closed while request ${label(method, id)} was ${state}${reason ? `: ${reason.message}` : ''}`,
    { method, requestId: id },
    reason ? { cause: reason } : undefined,
  );
}

export function closedWhilePendingError(entry: PendingRequest, reason: Error | undefined): ConnectionClosedError {
  return closedError(entry.request.method, entry.request.id, 'pending', reason);
}

export function closedWhileHandlingError(ctx: InboundRequestContext, reason: Error | undefined): ConnectionClosedError {
  return closedError(ctx.method, ctx.requestId, 'being handled', reason);
}

export function unknownResponseError(id: RequestId): UnknownResponseError {
  return new UnknownResponseError(
    `Received a response for unknown request id ${describeId(id)}; it probably arrived after the request timed out or was aborted`,
    { id },
  );
}

/**
 * The send options of a request its transport cancels itself: `cancellation` for transports that read it, `signal`
 * (made on first read) for those that take an `AbortSignal`.
 */
export class CancellableSendOptions implements TransportSendOptions {
  readonly relatedRequestId: RequestId | undefined;
  readonly cancellation: AbortLink;

  constructor(relatedRequestId: RequestId | undefined, cancellation: AbortLink) {
    this.relatedRequestId = relatedRequestId;
    this.cancellation = cancellation;
  }

  get signal(): AbortSignal {
    return this.cancellation.signal;
  }
}

/**
 * Sends without a caller to tell: failures go to `onFailure(error, subject)`; never throws, never leaves a rejection
 * unhandled. Every message goes through here, so the callback is a long-lived function and `subject` (whose failure it
 * is) is passed to it: a closure around the two is made only when the transport answers with a promise (stdio answers
 * a send it buffered with nothing).
 */
/** How a request is sent: with no options, with the request it belongs to, or with the handle that cancels it. */
export function requestSendOptions(
  relatedRequestId: RequestId | undefined,
  cancel: AbortLink | undefined,
): TransportSendOptions | undefined {
  if (cancel !== undefined) return new CancellableSendOptions(relatedRequestId, cancel);
  return relatedRequestId === undefined ? undefined : { relatedRequestId };
}

export function transmit<S>(
  transport: Transport,
  message: JsonRpcMessage,
  options: TransportSendOptions | undefined,
  onFailure: (subject: S, error: unknown) => void,
  subject: S,
): void {
  let sent: Promise<void> | void;
  try {
    sent = transport.send(message, options);
  } catch (error) {
    onFailure(subject, error);
    return;
  }
  if (isPromiseLike(sent)) sent.then(undefined, (error: unknown) => onFailure(subject, error));
}
