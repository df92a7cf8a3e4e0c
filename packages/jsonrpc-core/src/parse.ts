import { JsonRpcErrorCode } from './errors';
import type { JsonRpcErrorResponse, JsonRpcMessage, RequestId } from './messages';

/** Options for `parseMessage` and `validateMessage`. */
export interface ParseOptions {
  /**
   * Accept a JSON array as a batch (JSON-RPC 2.0; MCP 2025-03-26 only). Off by default: every other MCP revision
   * forbids batches, so an array is an invalid request.
   */
  allowBatch?: boolean;
}

/**
 * The outcome for one message: the message, or the error response that describes what is wrong with it. `notification`
 * is true when the invalid message has the shape of a notification (a `method`, no `id`): JSON-RPC never answers a
 * notification, even an invalid one, so a transport reports it and sends nothing back.
 */
export type MessageResult =
  | { ok: true; message: JsonRpcMessage; batch?: undefined }
  | { ok: false; error: JsonRpcErrorResponse; batch?: undefined; notification?: boolean };

/** The outcome for a batch: one `MessageResult` per element, in order. Only with `allowBatch`. */
export interface BatchResult {
  ok: true;
  message?: undefined;
  batch: MessageResult[];
}

/** `MessageResult`, or `BatchResult` when batches are allowed and the input was a non-empty array. */
export type ParseResult = MessageResult | BatchResult;

// Internal message kinds returned by classifyMessage; numbers so classifying a valid message allocates nothing.
/** @internal */
export const KIND_REQUEST = 1;
/** @internal */
export const KIND_NOTIFICATION = 2;
/** @internal */
export const KIND_RESPONSE = 3;
/** @internal */
export type MessageKind = typeof KIND_REQUEST | typeof KIND_NOTIFICATION | typeof KIND_RESPONSE;

type Shape = { readonly [key: string]: unknown };

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

function invalid(id: unknown, reason: string): JsonRpcErrorResponse {
  return {
    jsonrpc: '2.0',
    id: isRequestId(id) ? id : null,
    error: { code: JsonRpcErrorCode.InvalidRequest, message: `Invalid Request: ${reason}` },
  };
}

/**
 * Checks one value and says which kind of message it is, or returns the -32600 error response describing the first
 * problem (with the request id when one can be recovered). Shared by `validateMessage` and the peer, so a message is
 * checked once and a valid one costs no allocation.
 *
 * @internal
 */
export function classifyMessage(value: unknown): MessageKind | JsonRpcErrorResponse {
  if (typeof value !== 'object' || value === null) return invalid(null, 'a message must be a JSON object');
  if (Array.isArray(value)) return invalid(null, 'batches are not accepted');
  const message = value as Shape;
  const id = message.id;
  if (message.jsonrpc !== '2.0') return invalid(id, '"jsonrpc" must be "2.0"');

  const method = message.method;
  if (method !== undefined) {
    if (typeof method !== 'string') return invalid(id, '"method" must be a string');
    const params = message.params;
    if (params !== undefined && (typeof params !== 'object' || params === null)) {
      return invalid(id, '"params" must be an object or an array');
    }
    if (id === undefined) return KIND_NOTIFICATION;
    if (!isRequestId(id)) return invalid(null, '"id" must be a string or a finite number');
    return KIND_REQUEST;
  }

  const error = message.error;
  if (message.result !== undefined) {
    if (error !== undefined) return invalid(id, 'a response must carry exactly one of "result" and "error"');
    if (!isRequestId(id)) return invalid(null, 'a success response needs a string or finite number "id"');
    return KIND_RESPONSE;
  }
  if (error !== undefined) {
    if (id !== undefined && id !== null && !isRequestId(id)) {
      return invalid(null, '"id" must be a string, a finite number or null');
    }
    if (typeof error !== 'object' || error === null) return invalid(id, '"error" must be an object');
    const { code, message: text } = error as Shape;
    if (!Number.isInteger(code)) return invalid(id, '"error.code" must be an integer');
    if (typeof text !== 'string') return invalid(id, '"error.message" must be a string');
    return KIND_RESPONSE;
  }
  return invalid(id, 'a message needs "method" (request, notification) or "result"/"error" (response)');
}

/** Whether an invalid value has the shape of a notification: an object with a `method` and no `id`. */
function shapedAsNotification(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'method' in value && !('id' in value);
}

function validateOne(value: unknown): MessageResult {
  const kind = classifyMessage(value);
  if (typeof kind === 'object') {
    return shapedAsNotification(value) ? { ok: false, error: kind, notification: true } : { ok: false, error: kind };
  }
  const message = value as JsonRpcMessage;
  // MCP 2025-11-25+ lets an error response omit `id`; JSON-RPC 2.0 says null. Normalise so the type holds.
  if (kind === KIND_RESPONSE && (message as { id?: unknown }).id === undefined) {
    (message as { id: null }).id = null;
  }
  return { ok: true, message };
}

/**
 * Validates an already-parsed value (for transports that receive objects, e.g. a WebSocket library that parses for
 * you). Never throws. An error response without `id` gets `id: null`, the one change made to the value.
 *
 * @example
 * const result = validateMessage(JSON.parse(text));
 * if (result.ok) transport.onmessage?.(result.message);
 */
export function validateMessage(value: unknown, options?: ParseOptions & { allowBatch?: false }): MessageResult;
export function validateMessage(value: unknown, options?: ParseOptions): ParseResult;
export function validateMessage(value: unknown, options?: ParseOptions): ParseResult {
  if (!Array.isArray(value)) return validateOne(value);
  if (options?.allowBatch !== true) return { ok: false, error: invalid(null, 'batches are not supported') };
  if (value.length === 0) return { ok: false, error: invalid(null, 'a batch must not be empty') };
  return { ok: true, batch: value.map(validateOne) };
}

/**
 * Parses one frame of JSON text into a JSON-RPC message. Never throws: bad JSON gives a -32700 error response with
 * `id: null`; a JSON value that is not a valid message gives -32600, with the request id when it can be recovered.
 *
 * What to do with a failure is the transport's choice: report it through `onerror`, and answer it (stdio: write the
 * error response; HTTP: return it with a 400) when the input looked like a request.
 *
 * @example
 * const result = parseMessage('{"jsonrpc":"2.0","id":1,"method":"ping"}');
 * if (result.ok) transport.onmessage?.(result.message);
 * else transport.onerror?.(new Error(result.error.error.message));
 *
 * @example
 * // Batches (JSON-RPC 2.0, MCP 2025-03-26) give one outcome per element:
 * const batch = parseMessage('[{"jsonrpc":"2.0","method":"a"}, 5]', { allowBatch: true });
 * if (batch.ok && batch.batch) for (const item of batch.batch) console.log(item.ok);
 */
export function parseMessage(text: string, options?: ParseOptions & { allowBatch?: false }): MessageResult;
export function parseMessage(text: string, options?: ParseOptions): ParseResult;
export function parseMessage(text: string, options?: ParseOptions): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: {
        jsonrpc: '2.0',
        id: null,
        error: { code: JsonRpcErrorCode.ParseError, message: `Parse error: ${reason}` },
      },
    };
  }
  return validateMessage(value, options);
}

/**
 * Serialises a message to JSON text (plain `JSON.stringify`). The text never contains a raw newline: JSON escapes
 * newlines inside strings as `\n`, and `JSON.stringify` adds no whitespace, so the result is safe as one
 * newline-delimited frame (see `encodeLine`).
 *
 * @example
 * socket.send(serializeMessage({ jsonrpc: '2.0', method: 'notifications/initialized' }));
 */
export function serializeMessage(message: JsonRpcMessage): string {
  return JSON.stringify(message);
}
