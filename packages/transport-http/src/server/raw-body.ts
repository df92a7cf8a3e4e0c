// A web `Response` built from a string keeps that string under a registry symbol, so an adapter that writes to a
// socket (the node one) sends it as is, with a Content-Length, instead of pulling it back out through the body
// stream. A registry symbol rather than a WeakMap: the root and `/node` entries may be bundled apart (CJS) and must
// still agree on the key.

const RAW_BODY: unique symbol = Symbol.for('@mcpkit/transport-http.rawBody') as never;

interface WithRawBody {
  [RAW_BODY]?: string;
}

/** Marks `response` as carrying exactly `text` as its body (which must be what it was constructed with). */
export function withRawBody(response: Response, text: string): Response {
  (response as Response & WithRawBody)[RAW_BODY] = text;
  return response;
}

/**
 * The body text of a response built by this package from a string, while nobody has read its body; `undefined`
 * otherwise (then read `response.body`).
 */
export function rawBodyOf(response: Response): string | undefined {
  const text = (response as Response & WithRawBody)[RAW_BODY];
  return text === undefined || response.bodyUsed ? undefined : text;
}

const REMOTE_ADDRESS: unique symbol = Symbol.for('@mcpkit/transport-http.remoteAddress') as never;

/** What an adapter's request offers under the registry symbol: the address of the peer it came from. */
export interface RemoteAddressSource {
  readonly [REMOTE_ADDRESS]: string | undefined;
}

export { REMOTE_ADDRESS };

/**
 * The address of the peer a request came from, when the adapter that made it knows (the node adapter does); a web
 * `Request` carries none, so elsewhere it is `undefined` (see the handler's `clientKeyOf` option).
 */
export function remoteAddressOf(request: Request): string | undefined {
  const address = (request as Request & Partial<RemoteAddressSource>)[REMOTE_ADDRESS];
  return typeof address === 'string' ? address : undefined;
}

const BUFFERED_BODY: unique symbol = Symbol.for('@mcpkit/transport-http.bufferedBody') as never;

/**
 * What an adapter's in-memory request offers the handler under the registry symbol: its body bytes, taken once.
 * `undefined` when the body was already taken or read another way (then read `request.body`).
 */
export interface BufferedBodySource {
  [BUFFERED_BODY](): Uint8Array | string | undefined;
}

export { BUFFERED_BODY };

/** The body of a request an adapter already holds in memory (taken: a second call gets `undefined`). */
export function takeBufferedBody(request: Request): Uint8Array | string | undefined {
  const take = (request as Request & Partial<BufferedBodySource>)[BUFFERED_BODY];
  return typeof take === 'function' ? take.call(request) : undefined;
}
