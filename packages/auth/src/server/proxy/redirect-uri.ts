// Which redirect URIs a client may register, and when a requested one matches a registered one.

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Why `uri` cannot be registered as a redirect URI, or undefined when it can: an absolute `https` URL, or `http` on a
 * loopback host (native apps, RFC 8252 §7.3), with no fragment (RFC 6749 §3.1.2).
 */
export function redirectUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `'${uri}' is not an absolute URL`;
  }
  if (url.hash !== '' || uri.includes('#')) return `'${uri}' has a fragment`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return undefined;
  return `'${uri}' must use https, or http on a loopback host (127.0.0.1, [::1], localhost)`;
}

/**
 * True when the redirect URI in a request matches one registered: exactly, except that the port of an `http` loopback
 * URI may differ (RFC 8252 §7.3: native apps listen on whatever port is free when the request starts).
 */
export function redirectUriMatches(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  let url: URL;
  try {
    url = new URL(requested);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) return false;
  url.port = '';
  const withoutPort = url.href;
  for (const candidate of registered) {
    let other: URL;
    try {
      other = new URL(candidate);
    } catch {
      continue;
    }
    if (other.protocol !== 'http:' || !LOOPBACK_HOSTS.has(other.hostname)) continue;
    other.port = '';
    if (other.href === withoutPort) return true;
  }
  return false;
}
