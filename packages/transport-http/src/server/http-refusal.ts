import type { JsonRpcResponse } from '@mcpkit/jsonrpc-core';

/**
 * The HTTP answer a refusal asks for. A server middleware that refuses a request before its handler starts (bearer
 * auth's scope check, a rate limit) puts `httpStatus` (400–599) and optionally `httpHeaders` in its JSON-RPC error's
 * `data`; while the HTTP response has not started, the transport answers with that status and those headers (the
 * JSON-RPC error as the body), so an HTTP client sees a 403 with `WWW-Authenticate` or a 429 with `Retry-After`.
 * Over stdio and WebSocket the same error arrives as it is.
 *
 * @example
 * throw new JsonRpcError(-31029, 'Too many requests', { retryAfterMs: 2000, httpStatus: 429, httpHeaders: { 'retry-after': '2' } });
 */
export interface HttpRefusal {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>> | undefined;
}

// Headers a refusal must not set: they belong to the transport (framing, sessions, the body's type).
const RESERVED = new Set(['content-type', 'content-length', 'transfer-encoding', 'connection', 'mcp-session-id']);

/** The HTTP status and headers an error response asks for, or `undefined` for an ordinary error. */
export function httpRefusalOf(response: JsonRpcResponse): HttpRefusal | undefined {
  if (!('error' in response) || response.error === undefined) return undefined;
  const data = response.error.data as { httpStatus?: unknown; httpHeaders?: unknown } | null | undefined;
  if (data === null || typeof data !== 'object') return undefined;
  const status = data.httpStatus;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599) return undefined;
  const raw = data.httpHeaders;
  if (raw === null || typeof raw !== 'object') return { status, headers: undefined };
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const lower = name.toLowerCase();
    if (typeof value === 'string' && !RESERVED.has(lower) && /^[a-z0-9!#$%&'*+.^_`|~-]+$/.test(lower)) {
      headers[lower] = value;
    }
  }
  return { status, headers };
}
