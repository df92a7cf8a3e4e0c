/**
 * Extra headers for every HTTP request a client transport makes (typically `Authorization`). A function is called
 * before each request, so a refreshed token is picked up without rebuilding the transport.
 */
export type HeadersOption = HeadersInit | (() => HeadersInit | Promise<HeadersInit>);

/**
 * Builds the headers of one request: the caller's headers first, then the transport's own (`fixed`), which always
 * win, so a hook can add `Authorization` but cannot break `Accept`, the session id or the MCP headers.
 */
export async function buildHeaders(
  option: HeadersOption | undefined,
  fixed: Record<string, string | undefined>,
): Promise<Headers> {
  const extra = typeof option === 'function' ? await option() : option;
  const headers = new Headers(extra);
  for (const name of Object.keys(fixed)) {
    const value = fixed[name];
    if (value !== undefined) headers.set(name, value);
  }
  return headers;
}
