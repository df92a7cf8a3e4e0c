// A request to an authorization server that fails because the kept-alive connection it was sent on had just been
// closed by the server (the server's idle timeout and our reuse crossed: ECONNRESET, "other side closed") never
// reached it: sending it again is what browsers and undici do for idempotent requests. fetch does not retry a POST
// itself, and token and registration requests are POSTs, so a client under load (or a server with a short keep-alive
// timeout) would fail a login that one more attempt completes.

const STALE_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** Whether `error` (a fetch rejection) says the connection was reset or closed under the request. */
export function isStaleConnectionError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && STALE_CODES.has(code)) return true;
    if (typeof message === 'string' && /other side closed|socket hang up/i.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function replayable(input: RequestInfo | URL, init: RequestInit | undefined): boolean {
  if (input instanceof Request) return input.body === null;
  const body = init?.body;
  return (
    body === undefined ||
    body === null ||
    typeof body === 'string' ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  );
}

/**
 * `fetch` that sends a request once more when its connection was reset or closed under it (and its body can be sent
 * again, and it was not aborted). Used for the authorization server's endpoints, never for MCP requests.
 */
export function retryStaleConnections(fetchImpl: typeof fetch): typeof fetch {
  return async (input, init) => {
    try {
      return await fetchImpl(input, init);
    } catch (error) {
      if (!isStaleConnectionError(error) || init?.signal?.aborted === true || !replayable(input, init)) throw error;
      return fetchImpl(input, init);
    }
  };
}
