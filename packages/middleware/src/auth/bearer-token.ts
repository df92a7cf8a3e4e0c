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
  const header = request.headers.get('authorization');
  if (request.url.includes('access_token=') && new URL(request.url).searchParams.has('access_token')) {
    return {
      kind: 'malformed',
      reason: 'Send the access token in the Authorization header, never in the query string',
    };
  }
  if (header === null) return { kind: 'missing' };
  const space = header.indexOf(' ');
  const scheme = space === -1 ? header : header.slice(0, space);
  if (!SCHEME.test(scheme)) return { kind: 'missing' };
  const token = space === -1 ? '' : header.slice(space + 1);
  if (!TOKEN.test(token)) {
    return {
      kind: 'malformed',
      reason: 'The Authorization header must be "Bearer <token>": one Bearer header with one token',
    };
  }
  return { kind: 'token', token };
}
