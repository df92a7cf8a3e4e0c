import { brandPrototype, type CodedErrorArgs, defineCodedError, hasBrand, markErrorFactoryClass } from './coded-error';
import type { MessageHead } from './message-head';
import type { JsonRpcErrorObject, RequestId } from './messages';

/**
 * The error codes JSON-RPC 2.0 reserves. Codes from -32000 to -32099 are left to the application (MCP uses some).
 *
 * @example
 * throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, 'name must be a string');
 */
export const JsonRpcErrorCode = {
  /** The text was not valid JSON. */
  ParseError: -32700,
  /** The JSON was not a valid JSON-RPC message. */
  InvalidRequest: -32600,
  /** No handler is registered for the method. */
  MethodNotFound: -32601,
  /** The handler rejected the parameters. */
  InvalidParams: -32602,
  /** The handler failed for another reason. */
  InternalError: -32603,
} as const;

export type JsonRpcErrorCode = (typeof JsonRpcErrorCode)[keyof typeof JsonRpcErrorCode];

// Brands are registered symbols (Symbol.for), so two copies of this package in one program still recognise each
// other's errors. `instanceof` on the base classes checks the brand; subclasses keep ordinary prototype-chain
// `instanceof`.
const JSON_RPC_ERROR_BRAND = Symbol.for('@mcpkit/jsonrpc-core/JsonRpcError');

function isInstance(ctor: Function, base: Function, value: unknown, brand: symbol): boolean {
  return ctor === base ? hasBrand(value, brand) : Function.prototype[Symbol.hasInstance].call(ctor, value);
}

/**
 * Defines a local error class: one that this side raised (never something the peer said), with a fixed string `code`
 * and a brand under `@mcpkit/jsonrpc-core/<name>`. The constructor takes `(message, data, options)`.
 */
function defineLocalError<Code extends string, Data>(name: string, code: Code) {
  const Base = defineCodedError<Code, Data>(name, `@mcpkit/jsonrpc-core/${name}`);
  abstract class LocalError extends Base {
    constructor(message: string, data: Data, options?: ErrorOptions) {
      // `Data` is generic here, so the conditional tuple of the base's tail cannot be resolved: it is [data, options].
      super(code, message, ...([data, options] as CodedErrorArgs<Data>));
    }
  }
  markErrorFactoryClass(LocalError);
  return LocalError;
}

/**
 * An error the peer sent, or one a handler throws to send a specific JSON-RPC error.
 *
 * Thrown from a request handler, its `code`, `message` and `data` become the error response. A request whose response
 * is an error rejects with a `JsonRpcError` built from it. The local failures (connection closed, timeout, abort) are
 * different classes with string codes, so they can never be mistaken for something the peer said.
 *
 * @example
 * router.setRequestHandler('divide', (params) => {
 *   const { a, b } = params as { a: number; b: number };
 *   if (b === 0) throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, 'b must not be 0', { b });
 *   return a / b;
 * });
 */
// The class body never names the class (see `jsonRpcError` below): esbuild turns a class that refers to itself into
// `var JsonRpcError = class _JsonRpcError`, and `console.log(error)` of the built package then printed `_JsonRpcError`.
export class JsonRpcError extends Error {
  override name = 'JsonRpcError';
  /** The JSON-RPC error code (an integer). */
  readonly code: number;
  /** Extra data the sender attached, if any. */
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.data = data;
  }

  static {
    // biome-ignore lint/complexity/noThisInStatic: naming the class in its body makes esbuild rename it (see above)
    brandPrototype(this.prototype, JSON_RPC_ERROR_BRAND);
  }

  /**
   * True for any `JsonRpcError`, including one created by another copy of this package.
   *
   * @example
   * try { await peer.request('x'); } catch (error) { if (JsonRpcError.is(error)) console.log(error.code); }
   */
  static is(value: unknown): value is JsonRpcError {
    return hasBrand(value, JSON_RPC_ERROR_BRAND);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class `instanceof` was used with; subclasses keep prototype checks
    return isJsonRpcErrorInstance(this, value);
  }

  /**
   * Rebuilds an error from the `error` member of an error response.
   *
   * @example
   * const error = JsonRpcError.fromObject(response.error);
   */
  static fromObject(error: JsonRpcErrorObject): JsonRpcError {
    return jsonRpcError(error.code, error.message, error.data);
  }

  /**
   * A -32601 error naming the method.
   *
   * @example
   * throw JsonRpcError.methodNotFound('tools/call');
   */
  static methodNotFound(method: string): JsonRpcError {
    return jsonRpcError(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method}`, { method });
  }

  /**
   * A -32602 error for parameters a handler rejects.
   *
   * @example
   * throw JsonRpcError.invalidParams('uri must be a string', { received: typeof params.uri });
   */
  static invalidParams(message: string, data?: unknown): JsonRpcError {
    return jsonRpcError(JsonRpcErrorCode.InvalidParams, message, data);
  }

  /** The wire form: `{ code, message, data? }` (without `data` when there is none). */
  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

/** `new JsonRpcError(...)` for the class's own static methods, which must not name the class in its body. */
function jsonRpcError(code: number, message: string, data?: unknown): JsonRpcError {
  return new JsonRpcError(code, message, data);
}

function isJsonRpcErrorInstance(ctor: Function, value: unknown): boolean {
  return isInstance(ctor, JsonRpcError, value, JSON_RPC_ERROR_BRAND);
}

/** What `ConnectionClosedError` knows about the request it ended. */
export interface ConnectionClosedErrorData {
  method?: string;
  requestId?: RequestId;
}

/**
 * The connection closed (or was never open) while a request was pending or before it could be sent. Local: the peer
 * never answered.
 *
 * @example
 * try { await peer.request('slow'); } catch (error) { if (ConnectionClosedError.is(error)) reconnect(); }
 */
export class ConnectionClosedError extends defineLocalError<'ERR_CONNECTION_CLOSED', ConnectionClosedErrorData>(
  'ConnectionClosedError',
  'ERR_CONNECTION_CLOSED',
) {
  constructor(message: string, data: ConnectionClosedErrorData = {}, options?: ErrorOptions) {
    super(message, data, options);
  }
}

/** What `RequestTimeoutError` knows about the request that timed out. */
export interface RequestTimeoutErrorData {
  method: string;
  requestId: RequestId;
  /** The limit that expired, in milliseconds. */
  timeoutMs: number;
  /** True when the max-total limit expired; false for the idle limit. */
  maxTotal: boolean;
}

/**
 * No response arrived in time. Local: the request was forgotten and, where the protocol allows, a cancellation was
 * sent.
 *
 * @example
 * try { await peer.request('slow', {}, { timeoutMs: 5_000 }); }
 * catch (error) { if (RequestTimeoutError.is(error)) console.log(error.data.timeoutMs); }
 */
export class RequestTimeoutError extends defineLocalError<'ERR_REQUEST_TIMEOUT', RequestTimeoutErrorData>(
  'RequestTimeoutError',
  'ERR_REQUEST_TIMEOUT',
) {}

/** What `RequestAbortedError` knows about the aborted request. */
export interface RequestAbortedErrorData {
  method?: string;
  requestId?: RequestId;
  /** The abort reason (`signal.reason`, or the reason a peer gave when it cancelled). */
  reason: unknown;
}

/**
 * A request was aborted: by the caller's `AbortSignal` (outgoing), or by the peer's cancellation (the reason an inbound
 * handler's `ctx.signal` carries). Local: never a response from the peer.
 *
 * @example
 * const controller = new AbortController();
 * const pending = peer.request('slow', {}, { signal: controller.signal });
 * controller.abort('user pressed stop');
 * await pending.catch((error) => RequestAbortedError.is(error) && console.log(error.reason)); // 'user pressed stop'
 */
export class RequestAbortedError extends defineLocalError<'ERR_REQUEST_ABORTED', RequestAbortedErrorData>(
  'RequestAbortedError',
  'ERR_REQUEST_ABORTED',
) {
  constructor(message: string, data: RequestAbortedErrorData, options?: ErrorOptions) {
    super(message, data, options ?? (data.reason instanceof Error ? { cause: data.reason } : undefined));
  }

  /** The abort reason. */
  get reason(): unknown {
    return this.data.reason;
  }
}

/** What `FrameTooLargeError` knows about the oversized line. */
export interface FrameTooLargeErrorData {
  /** The configured limit. */
  maxLineBytes: number;
  /** How much of the line had arrived when the limit was crossed (the line is at least this long). */
  receivedBytes: number;
  /**
   * What the line's first bytes (up to 64 KiB) say about the message: its `id` and whether it is a request or a
   * response, so a transport can answer the request or fail its own pending one at once (see `readMessageHead`).
   */
  head: MessageHead;
}

/**
 * A newline-delimited frame grew past `maxLineBytes`. The decoder dropped it and resumes at the next newline.
 *
 * @example
 * const decoder = new LineDecoder({ onLine, onError: (error) => FrameTooLargeError.is(error) && log(error.data) });
 */
export class FrameTooLargeError extends defineLocalError<'ERR_FRAME_TOO_LARGE', FrameTooLargeErrorData>(
  'FrameTooLargeError',
  'ERR_FRAME_TOO_LARGE',
) {}

/** What `InvalidMessageError` knows about the rejected message. */
export interface InvalidMessageErrorData {
  /** The value the transport delivered. */
  received: unknown;
  /** The JSON-RPC error describing what is wrong with it. */
  error: JsonRpcErrorObject;
}

/**
 * A transport delivered something that is not a valid JSON-RPC message and the peer could not answer it (no request
 * id could be recovered). Reported through `onerror`; the connection stays open.
 *
 * @example
 * peer.onerror = (error) => { if (InvalidMessageError.is(error)) log(error.data.error.message); };
 */
export class InvalidMessageError extends defineLocalError<'ERR_INVALID_MESSAGE', InvalidMessageErrorData>(
  'InvalidMessageError',
  'ERR_INVALID_MESSAGE',
) {}

/** What `UnknownResponseError` knows about the unmatched response. */
export interface UnknownResponseErrorData {
  /** The response's id. */
  id: RequestId | null;
}

/**
 * A response arrived whose id matches no pending request: usually a late answer to a request that already timed out or
 * was aborted. Reported through `onerror` and otherwise ignored.
 *
 * @example
 * peer.onerror = (error) => { if (!UnknownResponseError.is(error)) console.error(error); };
 */
export class UnknownResponseError extends defineLocalError<'ERR_UNKNOWN_RESPONSE', UnknownResponseErrorData>(
  'UnknownResponseError',
  'ERR_UNKNOWN_RESPONSE',
) {}
