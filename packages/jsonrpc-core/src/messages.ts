/**
 * JSON-RPC 2.0 message types (https://www.jsonrpc.org/specification) and cheap shape guards.
 *
 * The guards only look at the keys that tell the four message kinds apart; they do not validate a message. Use
 * `validateMessage` / `parseMessage` (./parse.ts) for untrusted input.
 */

/** The protocol version string every JSON-RPC 2.0 message carries. */
export const JSONRPC_VERSION = '2.0';

/** A request id: a string or a number (MCP narrows numbers to integers). */
export type RequestId = string | number;

/** By-name (object) or by-position (array) parameters. */
export type JsonRpcParams = Record<string, unknown> | unknown[];

/** A call that expects a response with the same `id`. */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonRpcParams;
}

/** A one-way message: no `id`, never answered. */
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonRpcParams;
}

/** The `error` member of an error response. */
export interface JsonRpcErrorObject {
  /** An integer; -32768..-32000 are reserved by JSON-RPC (see `JsonRpcErrorCode`). */
  code: number;
  message: string;
  data?: unknown;
}

/** The answer to a request that succeeded. */
export interface JsonRpcSuccessResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: unknown;
}

/**
 * The answer to a request that failed.
 *
 * `id` is `null` when the sender could not tell which request failed (for example the request was not valid JSON).
 * MCP 2025-11-25 and later allow omitting `id` instead; `parseMessage` and `validateMessage` turn a missing `id` into
 * `null` so this type holds.
 */
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

/**
 * The answer to a request: its result, or an error. Narrow with `isJsonRpcSuccessResponse` / `isJsonRpcErrorResponse`.
 *
 * @example
 * const response: JsonRpcResponse = { jsonrpc: '2.0', id: 1, result: { tools: [] } };
 */
export type JsonRpcResponse = JsonRpcSuccessResponse | JsonRpcErrorResponse;

/**
 * Any one JSON-RPC 2.0 message: what a `Transport` carries in each direction.
 *
 * @example
 * transport.onmessage = (message: JsonRpcMessage) => {
 *   if ('method' in message) console.log('id' in message ? 'request' : 'notification', message.method);
 *   else console.log('response to', message.id);
 * };
 */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

type Shape = { readonly [key: string]: unknown };

function isObject(value: unknown): value is Shape {
  return typeof value === 'object' && value !== null;
}

/**
 * True when `value` has a string `method` and an `id`: a request.
 *
 * @example
 * if (isJsonRpcRequest(message)) console.log(message.id, message.method);
 */
export function isJsonRpcRequest(value: unknown): value is JsonRpcRequest {
  return isObject(value) && typeof value.method === 'string' && value.id !== undefined;
}

/**
 * True when `value` has a string `method` and no `id`: a notification.
 *
 * @example
 * if (isJsonRpcNotification(message)) console.log(message.method);
 */
export function isJsonRpcNotification(value: unknown): value is JsonRpcNotification {
  return isObject(value) && typeof value.method === 'string' && value.id === undefined;
}

/**
 * True when `value` has no `method` and carries a `result` or an `error`: a response.
 *
 * @example
 * if (isJsonRpcResponse(message)) settle(message.id);
 */
export function isJsonRpcResponse(value: unknown): value is JsonRpcResponse {
  return isObject(value) && value.method === undefined && (value.result !== undefined || value.error !== undefined);
}

/**
 * True when `value` is a response carrying a `result`.
 *
 * @example
 * if (isJsonRpcSuccessResponse(message)) resolve(message.result);
 */
export function isJsonRpcSuccessResponse(value: unknown): value is JsonRpcSuccessResponse {
  return isObject(value) && value.method === undefined && value.result !== undefined;
}

/**
 * True when `value` is a response carrying an `error`.
 *
 * @example
 * if (isJsonRpcErrorResponse(message)) reject(message.error);
 */
export function isJsonRpcErrorResponse(value: unknown): value is JsonRpcErrorResponse {
  return isObject(value) && value.method === undefined && isObject(value.error);
}
