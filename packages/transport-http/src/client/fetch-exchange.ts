import { toAbortSignal } from '@mcpkit/jsonrpc-core';
import type { HttpAnswer, HttpExchange, HttpRequestInit } from './http-exchange';
import { isRefusedRedirect, REFUSE_REDIRECTS } from './redirect-mode';
import { isClosedConnection, MAX_STALE_RESENDS } from './stale-connection';

/**
 * The exchange over a `fetch`: the caller's (proxies, OAuth wrappers, tests), or the runtime's outside Node. With
 * `refuseRedirects` (the runtime's own fetch on Node, see redirect-mode.ts) POSTs go out with `redirect: 'error'` until
 * a server answers one with 3xx; that POST is then sent again and followed, and so are all later ones.
 */
export function fetchExchange(fetchImpl: typeof fetch, refuseRedirects: boolean): HttpExchange {
  let refusing = refuseRedirects;
  return async (url: URL, init: HttpRequestInit): Promise<HttpAnswer> => {
    const request: RequestInit = {
      method: init.method,
      headers: init.headers,
      body: init.body,
      signal: toAbortSignal(init.signal),
    };
    if (!refusing || init.method !== 'POST') return new FetchAnswer(await resending(fetchImpl, url.href, request));
    try {
      return new FetchAnswer(await resending(fetchImpl, url.href, { ...request, ...REFUSE_REDIRECTS }));
    } catch (error) {
      if (!isRefusedRedirect(error)) throw error;
      // The server answered 3xx without acting on the POST: send it again and follow, as fetch does by default.
      refusing = false;
      return new FetchAnswer(await resending(fetchImpl, url.href, request));
    }
  };
}

/**
 * One fetch, sent again on a new connection when the one it went out on was closed before any answer (the keep-alive
 * race, see stale-connection.ts), at most `MAX_STALE_RESENDS` times. The body is a string, so it can be sent again.
 */
async function resending(fetchImpl: typeof fetch, href: string, request: RequestInit): Promise<Response> {
  for (let resends = 0; ; resends++) {
    try {
      return await fetchImpl(href, request);
    } catch (error) {
      if (resends >= MAX_STALE_RESENDS || request.signal?.aborted || !isClosedConnection(error)) throw error;
    }
  }
}

class FetchAnswer implements HttpAnswer {
  readonly #response: Response;

  constructor(response: Response) {
    this.#response = response;
  }

  get status(): number {
    return this.#response.status;
  }

  get ok(): boolean {
    return this.#response.ok;
  }

  get hasBody(): boolean {
    return this.#response.body !== null;
  }

  header(name: string): string | null {
    return this.#response.headers.get(name);
  }

  text(): Promise<string> {
    return this.#response.text();
  }

  async stream(onText: (text: string) => void): Promise<void> {
    const body = this.#response.body;
    if (body === null) return;
    const decoder = new TextDecoder();
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true });
        if (text !== '') onText(text);
      }
      const rest = decoder.decode();
      if (rest !== '') onText(rest);
    } finally {
      reader.releaseLock();
    }
  }

  discard(): void {
    this.#response.body?.cancel().catch(() => {});
  }
}
