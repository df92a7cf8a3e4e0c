import { type BearerTokenResult, readBearerCredentials, severalAuthorizationHeaders } from './bearer-token';

/**
 * The parts of a Node `IncomingMessage` that bearer auth reads. Structural, so this entry imports nothing from Node
 * and a Node request (or anything shaped like one, such as a `ws` upgrade request) fits as it is.
 */
export interface NodeRequestLike {
  /** Header values by lower-case name, as Node gives them. */
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** Every value of every header (Node 18.3+): lets a second `Authorization` header be seen, which `headers` drops. */
  readonly headersDistinct?: Readonly<Record<string, readonly string[] | undefined>>;
  /** The request target (`/mcp?x=1`). */
  readonly url?: string | undefined;
}

/**
 * Reads the bearer token of a Node request without building a web `Request`: the `Authorization` header, refusing
 * a token in the query string and a request with two `Authorization` headers (Node keeps only the first in
 * `headers`; `headersDistinct` still shows both).
 *
 * @example
 * const result = readNodeBearerToken(incomingMessage);
 * if (result.kind === 'token') console.log(result.token);
 */
export function readNodeBearerToken(request: NodeRequestLike): BearerTokenResult {
  const distinct = request.headersDistinct?.authorization;
  if (distinct !== undefined && distinct.length > 1) return severalAuthorizationHeaders();
  const header = request.headers.authorization;
  if (typeof header === 'string' || header === undefined) return readBearerCredentials(header, request.url);
  if (header.length > 1) return severalAuthorizationHeaders();
  return readBearerCredentials(header[0], request.url);
}
