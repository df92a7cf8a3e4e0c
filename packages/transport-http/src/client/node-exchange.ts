import type * as NodeHttp from 'node:http';
import type * as NodeHttps from 'node:https';
import type { Readable } from 'node:stream';
import type * as NodeZlib from 'node:zlib';
import type { AbortSource } from '@mcpkit/jsonrpc-core';
import type { HttpAnswer, HttpExchange, HttpRequestInit } from './http-exchange';
import { isClosedConnection, MAX_STALE_RESENDS } from './stale-connection';

// The exchange on Node: `node:http` / `node:https` through their global keep-alive agents. Node's `fetch` (undici)
// builds a `Request`, `Headers`, a `Response` and web streams for every call and costs about ten times the CPU of the
// request itself; this path builds none of them. It does what fetch does where a transport could tell the
// difference: redirects (followed the way fetch follows them), decoded `Content-Encoding`, the `User-Agent` fetch
// sends, abort by signal, and undici's 300 s limit on a silent connection. The modules come in as a parameter
// (runtime-exchange.ts gets them through `process.getBuiltinModule`), so this file imports no Node module at run time
// and the package's root entry still runs anywhere.

/** The Node modules the exchange runs on. */
export interface NodeHttpModules {
  readonly http: typeof NodeHttp;
  readonly https: typeof NodeHttps;
  /** Loaded only when a server compresses a response. */
  readonly zlib: () => typeof NodeZlib;
}

/** fetch follows at most 20 redirects. */
const MAX_REDIRECTS = 20;
/** undici's `headersTimeout` and `bodyTimeout`: a connection silent this long is given up. */
const IDLE_TIMEOUT_MS = 300_000;
/** A body dropped unread is drained (keeping its connection) up to this size; a longer one closes the connection. */
const MAX_DRAINED_BYTES = 64 * 1024;
/** What Node's fetch sends as `User-Agent`; some servers and gateways refuse requests without one. */
const USER_AGENT = 'node';
/** Headers that describe a request body, dropped when a redirect turns a POST into a GET (as fetch does). */
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];

/** Sends requests with `node:http` / `node:https` and their global agents (keep-alive, sockets shared per origin). */
export function nodeExchange(modules: NodeHttpModules): HttpExchange {
  return (url, init) => send(modules, url, init, 0, 0);
}

function send(
  modules: NodeHttpModules,
  url: URL,
  init: HttpRequestInit,
  redirects: number,
  staleRetries: number,
): Promise<HttpAnswer> {
  return new Promise<HttpAnswer>((resolve, reject) => {
    const { signal } = init;
    if (signal.aborted) {
      reject(abortReason(signal));
      return;
    }
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:') {
      reject(new TypeError(`${url.protocol} URLs are not supported; use http: or https:`));
      return;
    }
    if (url.username !== '' || url.password !== '') {
      // fetch refuses them too: credentials belong in a header, never in a URL that ends up in logs.
      reject(new TypeError(`${url.origin}: a URL with credentials cannot be requested; send them in a header`));
      return;
    }
    const headers = init.headers;
    headers['user-agent'] ??= USER_AGENT;
    if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));
    const hostname = url.hostname;
    let settled = false;
    const request = (secure ? modules.https : modules.http).request(
      {
        method: init.method,
        // `[::1]` in a URL, `::1` for the socket.
        hostname: hostname.charCodeAt(0) === 91 ? hostname.slice(1, -1) : hostname,
        port: url.port,
        path: url.pathname + url.search,
        headers,
        timeout: IDLE_TIMEOUT_MS,
      },
      (response) => {
        settled = true;
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (isRedirect(status) && location !== undefined) {
          response.resume();
          signal.removeEventListener('abort', onAbort);
          const next = redirected(url, location, status, init, redirects);
          if (next instanceof Error) reject(next);
          else resolve(send(modules, next.url, next.init, redirects + 1, 0));
          return;
        }
        resolve(new NodeAnswer(response, modules, () => signal.removeEventListener('abort', onAbort)));
      },
    );
    const onAbort = () => request.destroy(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    request.on('timeout', () => {
      request.destroy(new Error(`${url.origin} sent nothing for ${IDLE_TIMEOUT_MS / 1000} s`));
    });
    // Also after the answer: a failure then reaches the body being read, and must not be an unhandled 'error'.
    request.on('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      if (settled) return;
      settled = true;
      if (request.reusedSocket && isClosedConnection(error) && !signal.aborted && staleRetries < MAX_STALE_RESENDS) {
        // The keep-alive race: the server closed this idle connection as the request went out on it, so it never
        // read the request. Browsers send it again on another connection, and so does this (Node's documented way).
        resolve(send(modules, url, init, redirects, staleRetries + 1));
        return;
      }
      reject(error);
    });
    request.end(init.body);
  });
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/** The next hop of a redirect, by the fetch standard's rules ("HTTP-redirect fetch"), or why there is none. */
function redirected(
  from: URL,
  location: string,
  status: number,
  init: HttpRequestInit,
  redirects: number,
): { url: URL; init: HttpRequestInit } | Error {
  if (redirects >= MAX_REDIRECTS) return new TypeError(`${from.href}: more than ${MAX_REDIRECTS} redirects`);
  let url: URL;
  try {
    url = new URL(location, from);
  } catch {
    return new TypeError(`${from.href} redirected to an invalid URL: ${JSON.stringify(location)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return new TypeError(`${from.href} redirected to a ${url.protocol} URL`);
  }
  const headers = { ...init.headers };
  let { method, body } = init;
  if ((status === 303 && method !== 'GET') || ((status === 301 || status === 302) && method === 'POST')) {
    method = 'GET';
    body = undefined;
    for (const name of BODY_HEADERS) delete headers[name];
  }
  // Credentials stay with the origin they were meant for.
  if (url.origin !== from.origin) {
    delete headers.authorization;
    delete headers['proxy-authorization'];
    delete headers.cookie;
  }
  return { url, init: { method, headers, body, signal: init.signal } };
}

/** What fetch rejects with when its signal aborts: the signal's reason (an `AbortError` unless the caller gave one). */
function abortReason(signal: AbortSource): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError');
}

class NodeAnswer implements HttpAnswer {
  readonly status: number;
  readonly ok: boolean;
  readonly hasBody: boolean;
  readonly #response: NodeHttp.IncomingMessage;
  readonly #modules: NodeHttpModules;
  readonly #done: () => void;
  #used = false;

  constructor(response: NodeHttp.IncomingMessage, modules: NodeHttpModules, done: () => void) {
    this.#response = response;
    this.#modules = modules;
    this.#done = done;
    this.status = response.statusCode ?? 0;
    this.ok = this.status >= 200 && this.status < 300;
    this.hasBody = this.status !== 204 && this.status !== 205 && this.status !== 304;
    // A connection reset before the body is read must not become an unhandled 'error'; readers get it themselves.
    response.on('error', ignore);
  }

  header(name: string): string | null {
    const value = this.#response.headers[name];
    if (value === undefined) return null;
    return typeof value === 'string' ? value : value.join(', ');
  }

  text(): Promise<string> {
    const body = this.#body();
    return new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let ended = false;
      body.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
      });
      body.once('end', () => {
        ended = true;
        this.#done();
        const all = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
        resolve(withoutBom(all.toString('utf8')));
      });
      body.once('error', (error) => {
        this.#done();
        reject(error);
      });
      body.once('close', () => {
        if (!ended) reject(new Error('the connection closed before the end of the body'));
      });
    });
  }

  stream(onText: (text: string) => void): Promise<void> {
    const body = this.#body();
    body.setEncoding('utf8');
    return new Promise<void>((resolve, reject) => {
      let first = true;
      let ended = false;
      body.on('data', (text: string) => {
        if (first) {
          first = false;
          text = withoutBom(text);
        }
        if (text !== '') onText(text);
      });
      body.once('end', () => {
        ended = true;
        this.#done();
        resolve();
      });
      body.once('error', (error) => {
        this.#done();
        reject(error);
      });
      body.once('close', () => {
        if (!ended) reject(new Error('the connection closed before the end of the body'));
      });
    });
  }

  discard(): void {
    const response = this.#response;
    if (this.#used) return;
    this.#used = true;
    const length = Number(response.headers['content-length']);
    // A body already received must still be consumed: the agent reuses the connection only after its 'end'.
    if (response.complete || (Number.isInteger(length) && length <= MAX_DRAINED_BYTES)) {
      // Small and bounded (a 202's empty body, an "Accepted"): read it to its end so the connection is reused.
      response.once('end', this.#done);
      response.resume();
    } else {
      // A stream, or a body of unknown length: closing the connection is the only bounded way to drop it.
      this.#done();
      response.destroy();
    }
  }

  /** The body as sent, or decoded when the server compressed it (fetch decodes gzip, deflate and br). */
  #body(): Readable {
    if (this.#used) throw new Error('the body of this response was already read');
    this.#used = true;
    const response = this.#response;
    const encoding = response.headers['content-encoding']?.trim().toLowerCase();
    if (encoding === undefined || encoding === '' || encoding === 'identity') return response;
    const zlib = this.#modules.zlib();
    const decoder =
      encoding === 'gzip' || encoding === 'x-gzip'
        ? zlib.createGunzip()
        : encoding === 'deflate'
          ? zlib.createInflate()
          : encoding === 'br'
            ? zlib.createBrotliDecompress()
            : undefined;
    if (decoder === undefined) return response;
    response.on('error', (error) => decoder.destroy(error));
    return response.pipe(decoder);
  }
}

function ignore(): void {}

function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
