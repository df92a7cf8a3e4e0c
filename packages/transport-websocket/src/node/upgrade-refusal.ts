import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { defineCodedError } from '@mcpkit/jsonrpc-core';

/**
 * An upgrade refused by the `authenticate` hook: the HTTP answer sent instead of `101 Switching Protocols`. The shape
 * of `@mcpkit/middleware`'s `AuthRefusal`, so bearer auth's answers pass through as they are.
 *
 * @example
 * authenticate: (request) =>
 *   request.headers.authorization === `Bearer ${secret}`
 *     ? { token: secret, clientId: 'ops' }
 *     : { status: 401, headers: { 'www-authenticate': 'Bearer realm="ops"' }, body: 'token required' },
 */
export interface UpgradeRefusal {
  /** An HTTP error status, 400–599. */
  status: number;
  /**
   * Response headers (e.g. `www-authenticate`). `connection`, `content-length`, `transfer-encoding` and `upgrade` are
   * set by the server; values given for them are ignored.
   */
  headers?: Readonly<Record<string, string>>;
  /** The body. Default: a JSON-RPC error naming the status. */
  body?: string;
}

/** A refusal ready to write: status checked, headers complete. */
export interface ResolvedUpgradeRefusal {
  status: number;
  headers: Record<string, string>;
  body: string;
}

// RFC 9110 token; values may not contain CR, LF or NUL (they would split the response).
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE = /^[^\r\n\0]*$/;
const OURS = new Set(['connection', 'content-length', 'transfer-encoding', 'upgrade']);

/** Thrown when a refusal cannot be written as given; the upgrade is then answered 500 and `onerror` is told. */
export class UpgradeRefusalError extends defineCodedError<'ERR_WS_BAD_REFUSAL', { status?: unknown; header?: string }>(
  'UpgradeRefusalError',
  '@mcpkit/transport-websocket/UpgradeRefusalError',
) {
  constructor(message: string, data: { status?: unknown; header?: string }) {
    super('ERR_WS_BAD_REFUSAL', message, data);
  }
}

function defaultBody(status: number): string {
  const message = `${STATUS_CODES[status] ?? 'Error'}: the authenticate hook refused this connection`;
  return JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } });
}

/** Turns what `authenticate` refused with (`false`, an {@link UpgradeRefusal}, a web `Response`) into one answer. */
export async function upgradeRefusalOf(refusal: false | UpgradeRefusal | Response): Promise<ResolvedUpgradeRefusal> {
  if (refusal === false) {
    return {
      status: 401,
      headers: { 'content-type': 'application/json', 'www-authenticate': 'Bearer' },
      body: defaultBody(401),
    };
  }
  const status = refusal.status;
  if (!Number.isInteger(status) || status < 400 || status > 599) {
    throw new UpgradeRefusalError(`authenticate refused with status ${status}; use an error status (400-599)`, {
      status,
    });
  }
  const headers: Record<string, string> = {};
  if (refusal instanceof Response) {
    refusal.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return { status, headers, body: await refusal.text() };
  }
  for (const [name, value] of Object.entries(refusal.headers ?? {})) headers[name.toLowerCase()] = value;
  if (refusal.body === undefined) {
    headers['content-type'] = 'application/json';
    return { status, headers, body: defaultBody(status) };
  }
  headers['content-type'] ??= 'text/plain; charset=utf-8';
  return { status, headers, body: refusal.body };
}

/**
 * Writes a refused upgrade as a plain HTTP/1.1 response and drops the socket. Throws an {@link UpgradeRefusalError}
 * (writing nothing) when a header could not be sent safely.
 */
export function refuseUpgrade(socket: Duplex, refusal: ResolvedUpgradeRefusal): void {
  let head = `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}\r\nConnection: close\r\n`;
  for (const [name, value] of Object.entries(refusal.headers)) {
    if (!HEADER_NAME.test(name) || !HEADER_VALUE.test(value)) {
      throw new UpgradeRefusalError(`authenticate refused with a header that cannot be sent: ${JSON.stringify(name)}`, {
        header: name,
      });
    }
    if (!OURS.has(name.toLowerCase())) head += `${name}: ${value}\r\n`;
  }
  // The client may have gone while authenticate ran.
  if (socket.destroyed || !socket.writable) return;
  socket.once('finish', () => socket.destroy());
  socket.end(`${head}Content-Length: ${Buffer.byteLength(refusal.body)}\r\n\r\n${refusal.body}`);
}
