/**
 * Extra headers for every HTTP request a client transport makes (typically `Authorization`). A function is called
 * before each request, so a refreshed token is picked up without rebuilding the transport.
 */
export type HeadersOption = HeadersInit | (() => HeadersInit | Promise<HeadersInit>);

/**
 * Builds the headers of one request as a plain object with lower-case names: the caller's headers first, then the
 * transport's own (`fixed`), which always win, so a hook can add `Authorization` but cannot break
 * `Accept`, the session id or the MCP headers. Synchronous unless the option is a function.
 */
export function buildHeaders(
  option: HeadersOption | undefined,
  fixed: Record<string, string | undefined>,
): Record<string, string> | Promise<Record<string, string>> {
  if (typeof option !== 'function') return merged(option, fixed);
  const extra = option();
  return extra instanceof Promise ? extra.then((resolved) => merged(resolved, fixed)) : merged(extra, fixed);
}

function merged(extra: HeadersInit | undefined, fixed: Record<string, string | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  if (extra !== undefined) addHeaders(headers, extra);
  for (const name in fixed) {
    const value = fixed[name];
    if (value !== undefined) headers[name.toLowerCase()] = value;
  }
  return headers;
}

/** Adds a `HeadersInit` (a `Headers`, pairs, or a record) the way `new Headers()` reads it: repeated names joined. */
function addHeaders(headers: Record<string, string>, extra: HeadersInit): void {
  if (!Array.isArray(extra) && typeof (extra as Headers).forEach === 'function') {
    // A `Headers` (names already lower-case, repeated values already joined).
    (extra as Headers).forEach((value, name) => {
      headers[name] = value;
    });
    return;
  }
  const pairs = Array.isArray(extra) ? extra : Object.entries(extra as Record<string, string>);
  for (const pair of pairs) {
    if (pair.length !== 2) throw new TypeError(`A header must be a [name, value] pair, got ${pair.length} items`);
    const name = String(pair[0]).toLowerCase();
    const value = String(pair[1]).trim();
    const before = headers[name];
    headers[name] = before === undefined ? value : `${before}, ${value}`;
  }
}
