// The keep-alive race, on every HTTP path: a client sends on a kept-alive connection at the moment the server closes
// it for being idle. The server never read the request; the client sees the connection closed or reset before a
// single byte of answer. Browsers send such a request again on a new connection, whatever its method, and so do the
// client transports: the built-in node:http path when the socket was a reused one (node-exchange.ts), the `fetch`
// path (the caller's fetch, an OAuth fetch) whenever fetch rejects with one of these errors, since fetch does not say
// whether the connection was reused. What this means for a request that might have run is in the README ("Sending
// again after a closed connection").

/** A request that found its connection closed is sent again at most this many times in a row. */
export const MAX_STALE_RESENDS = 3;

/** Error codes of a connection closed or reset under a request (Node's net, undici's fetch). */
const CLOSED_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  // undici: "other side closed" (the server ended the connection), and a socket undici had already seen closing.
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

/** How deep a `cause` chain is searched (fetch wraps the socket error: `TypeError: fetch failed` → cause). */
const MAX_CAUSE_DEPTH = 4;

/**
 * Whether `error` says the connection was closed or reset before any answer: the error a `fetch` or a `node:http`
 * request fails with, or one it wraps in `cause`. A refused connection (ECONNREFUSED) is not one: nothing was sent,
 * and reconnecting is the transport's reconnect policy, not a resend.
 */
export function isClosedConnection(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && CLOSED_CODES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
