import type { JsonRpcErrorObject, RequestId } from '@mcpkit/jsonrpc-core';
import { withRawBody } from './raw-body';

// Transport-level answers: an HTTP status with a JSON-RPC error body (id null unless the request's id is known), so
// both an HTTP client and a JSON-RPC client can tell what went wrong.

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });

/** A JSON response. */
export function jsonResponse(status: number, body: unknown, headers?: Record<string, string>): Response {
  const text = JSON.stringify(body);
  return withRawBody(
    new Response(text, { status, headers: headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...headers } }),
    text,
  );
}

/** An HTTP error whose body is a JSON-RPC error response. */
export function errorResponse(
  status: number,
  code: number,
  message: string,
  options: { id?: RequestId | null; data?: unknown; headers?: Record<string, string> } = {},
): Response {
  const error: JsonRpcErrorObject =
    options.data === undefined ? { code, message } : { code, message, data: options.data };
  return jsonResponse(status, { jsonrpc: '2.0', id: options.id ?? null, error }, options.headers);
}

/** 202 Accepted with no body: notifications and responses the server took. */
export function acceptedResponse(headers?: Record<string, string>): Response {
  return new Response(null, { status: 202, headers });
}

/** 405 with the `Allow` header. */
export function methodNotAllowed(allow: string, reason: string): Response {
  return errorResponse(405, -32000, `Method not allowed: ${reason}`, { headers: { allow } });
}
