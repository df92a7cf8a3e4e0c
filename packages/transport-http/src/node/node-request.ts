import { BUFFERED_BODY, type BufferedBodySource, REMOTE_ADDRESS, type RemoteAddressSource } from '../server/raw-body';
import { type AbortListenerSlot, ON_ABORT } from '../server/request-abort';
import { NodeHeaders } from './node-headers';

// The web `Request` the node adapter hands the handler, without building one through undici on every call: the
// method, URL, headers (a view over `rawHeaders`) and an abort signal (made when first read) are served directly, the
// handler can listen for the client going away without making that signal, and the body, already read into memory,
// goes to the handler as bytes. Every other member builds the real `Request`
// once, with the same method, URL, headers, body and signal, and answers from it, so nothing is missing; only
// `instanceof Request` is false.

/** @internal A `Request` over a node request whose body is already in memory. */
export class NodeRequest implements Request, BufferedBodySource, RemoteAddressSource, AbortListenerSlot {
  readonly method: string;
  readonly url: string;
  /** The peer's address (the socket's), for the per-client session limit. */
  readonly [REMOTE_ADDRESS]: string | undefined;
  readonly #raw: readonly string[];
  #body: Uint8Array | string | undefined;
  #bodyTaken = false;
  #headers: NodeHeaders | undefined = undefined;
  #controller: AbortController | undefined = undefined;
  #abortReason: unknown = undefined;
  #aborted = false;
  #onAbort: ((reason: unknown) => void)[] | undefined = undefined;
  #real: Request | undefined = undefined;

  constructor(
    method: string,
    url: string,
    rawHeaders: readonly string[],
    body: Uint8Array | string | undefined,
    remoteAddress?: string,
  ) {
    this.method = method;
    this.url = url;
    this[REMOTE_ADDRESS] = remoteAddress;
    this.#raw = rawHeaders;
    this.#body = body;
  }

  /** Sets the body once it has been read: the adapter authenticates before it reads a byte of the body. */
  fillBody(body: Uint8Array | string | undefined): void {
    this.#body = body;
  }

  /** Aborts `signal` (made already or not): the client went away. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#abortReason = reason;
    this.#controller?.abort(reason);
    const listeners = this.#onAbort;
    this.#onAbort = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener(reason);
  }

  [ON_ABORT](listener: (reason: unknown) => void): (() => void) | undefined {
    if (this.#aborted) {
      listener(this.#abortReason);
      return undefined;
    }
    if (this.#onAbort === undefined) this.#onAbort = [listener];
    else this.#onAbort.push(listener);
    return () => {
      const listeners = this.#onAbort;
      const index = listeners === undefined ? -1 : listeners.indexOf(listener);
      if (index !== -1) listeners!.splice(index, 1);
    };
  }

  get headers(): Headers {
    if (this.#headers === undefined) this.#headers = new NodeHeaders(this.#raw);
    return this.#headers;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#abortReason);
    }
    return this.#controller.signal;
  }

  [BUFFERED_BODY](): Uint8Array | string | undefined {
    if (this.#bodyTaken || this.#real !== undefined) return undefined;
    this.#bodyTaken = true;
    return this.#body ?? '';
  }

  #request(): Request {
    if (this.#real === undefined) {
      this.#real = new Request(this.url, {
        method: this.method,
        headers: this.headers,
        body: this.#body as BodyInit | undefined,
        signal: this.signal,
      });
      // The handler took the body already: the real request's must read as used, as it would have been.
      if (this.#bodyTaken && this.#body !== undefined) this.#real.arrayBuffer().catch(() => undefined);
    }
    return this.#real;
  }

  get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#request().body;
  }
  get bodyUsed(): boolean {
    return this.#bodyTaken || (this.#real?.bodyUsed ?? false);
  }
  get cache(): RequestCache {
    return this.#request().cache;
  }
  get credentials(): RequestCredentials {
    return this.#request().credentials;
  }
  get destination(): RequestDestination {
    return this.#request().destination;
  }
  get integrity(): string {
    return this.#request().integrity;
  }
  get keepalive(): boolean {
    return this.#request().keepalive;
  }
  get mode(): RequestMode {
    return this.#request().mode;
  }
  get redirect(): RequestRedirect {
    return this.#request().redirect;
  }
  get referrer(): string {
    return this.#request().referrer;
  }
  get referrerPolicy(): ReferrerPolicy {
    return this.#request().referrerPolicy;
  }
  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#request().arrayBuffer();
  }
  blob(): Promise<Blob> {
    return this.#request().blob();
  }
  bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#request().bytes();
  }
  formData(): Promise<FormData> {
    return this.#request().formData();
  }
  json(): Promise<unknown> {
    return this.#request().json();
  }
  text(): Promise<string> {
    return this.#request().text();
  }
  clone(): Request {
    return this.#request().clone();
  }
}
