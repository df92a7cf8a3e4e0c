/** What the `Authorization` header of a request holds. */
export type BearerTokenResult =
  | { kind: 'token'; token: string }
  /** No bearer credentials at all (no header, or another scheme): a plain 401 challenge. */
  | { kind: 'missing' }
  /** Something is wrong with how the token was sent: 400 invalid_request. */
  | { kind: 'malformed'; reason: string };

// RFC 6750 §2.1 b64token.
const TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const SCHEME = /^bearer$/i;
// Only for parsing the query of an origin-relative URL (`/mcp?x=1` from a Node request); never fetched.
const RELATIVE_BASE = 'http://relative.invalid';

const TOKEN_IN_QUERY: BearerTokenResult = {
  kind: 'malformed',
  reason: 'Send the access token in the Authorization header, never in the query string',
};
const NOT_ONE_TOKEN: BearerTokenResult = {
  kind: 'malformed',
  reason: 'The Authorization header must be "Bearer <token>": one Bearer header with one token',
};

/**
 * Reads bearer credentials from an `Authorization` header value and the request URL (absolute, or origin-relative
 * as Node's `IncomingMessage.url`). The shared core of {@link readBearerToken} and the Node reader.
 */
export function readBearerCredentials(header: string | null | undefined, url: string | undefined): BearerTokenResult {
  if (url?.includes('access_token=') && new URL(url, RELATIVE_BASE).searchParams.has('access_token')) {
    return TOKEN_IN_QUERY;
  }
  if (header === null || header === undefined) return { kind: 'missing' };
  const space = header.indexOf(' ');
  const scheme = space === -1 ? header : header.slice(0, space);
  if (!SCHEME.test(scheme)) return { kind: 'missing' };
  const token = space === -1 ? '' : header.slice(space + 1);
  if (!TOKEN.test(token)) return NOT_ONE_TOKEN;
  return { kind: 'token', token };
}

/** The result for a request that carried more than one `Authorization` header. */
export function severalAuthorizationHeaders(): BearerTokenResult {
  return NOT_ONE_TOKEN;
}

/**
 * Reads the bearer token of a request from its `Authorization` header, the only place MCP allows it. A token in the
 * query string (`access_token`) is refused as malformed rather than ignored, so a client that sends it there learns
 * why it is not accepted.
 *
 * @example
 * const result = readBearerToken(request);
 * if (result.kind === 'token') console.log(result.token);
 */
export function readBearerToken(request: Request): BearerTokenResult {
  return readBearerCredentials(request.headers.get('authorization'), request.url);
}
