// The one gate every request the OAuth client makes on a server's say goes through: the resource metadata URL from
// `WWW-Authenticate`, the authorization servers it lists and their well-known documents, the registration and token
// endpoints those documents name. A hostile MCP server controls all of these URLs, so each is checked before any
// connection is made (scheme, literal address), redirects are followed only within the origin, and every answer is
// read with a size and a time bound before anything parses it.
import { classifyHost, type HostKind } from '../shared/address';
import { readLimitedText } from '../shared/body';
import { AuthorizationError } from './authorization-error';

/** How the OAuth client talks to the URLs servers give it. Every field has a safe default. */
export interface OAuthNetworkOptions {
  /**
   * Let server-supplied URLs point at private (10/8, 172.16/12, 192.168/16, 100.64/10, fec0::/10), loopback,
   * link-local (169.254/16, fe80::/10) and unique-local (fc00::/7) addresses. Default false: such a URL is refused
   * before any request. Loopback is allowed without this when the MCP server itself is on loopback (development).
   * Turn it on for an authorization server on your private network that you trust.
   */
  allowPrivateNetwork?: boolean;
  /** The largest response body read from an authorization server or metadata URL. Default 1 MiB (1,048,576 bytes). */
  maxResponseBytes?: number;
  /** Time for one such request, from sending it to the last byte of its body. Default 30,000 ms: the usual HTTP client bound, with room for a loaded machine. */
  timeoutMs?: number;
}

export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 3;

/** The rules for one request: the options, and whether the MCP server itself is on loopback. */
export interface OutboundPolicy {
  allowPrivateNetwork: boolean;
  /** True when the MCP server is on loopback: loopback targets and plain `http:` to them are then allowed. */
  serverOnLoopback: boolean;
  maxResponseBytes: number;
  timeoutMs: number;
}

const REFUSED_KINDS: Readonly<Record<HostKind, string | undefined>> = {
  loopback: 'a loopback address',
  private: 'a private address',
  'link-local': 'a link-local address',
  'unique-local': 'a unique-local address',
  reserved: 'a reserved address',
  public: undefined,
  name: undefined,
};

/** True for the hosts of a development setup: loopback by literal address or by the name `localhost`. */
export function isLoopbackUrl(url: URL): boolean {
  return classifyHost(url.hostname) === 'loopback';
}

/**
 * Throws `ERR_UNSAFE_URL` unless the OAuth client may send a request to `url`: `https:` (or `http:` to loopback when
 * the MCP server is on loopback), and a host that is not a private, loopback, link-local, unique-local or reserved
 * literal address (unless allowed). `what` names the URL in the error.
 */
export function checkOutboundUrl(url: URL, policy: OutboundPolicy, what: string): void {
  const kind = classifyHost(url.hostname);
  const loopbackAllowed = policy.serverOnLoopback || policy.allowPrivateNetwork;
  const refuse = (why: string, hint: string) => {
    throw new AuthorizationError('ERR_UNSAFE_URL', `Refusing to fetch the ${what} ${url.href}: ${why}. ${hint}`, {
      url: url.href,
      hostKind: kind,
      reason: why,
    });
  };
  if (url.protocol !== 'https:') {
    if (url.protocol !== 'http:') refuse(`the ${url.protocol} scheme is not https:`, 'Only https: URLs are fetched.');
    if (!(kind === 'loopback' && loopbackAllowed)) {
      refuse(
        'plain http: is allowed only to loopback while the MCP server is on loopback',
        'Serve the authorization server over https:.',
      );
    }
  }
  const refused = REFUSED_KINDS[kind];
  if (refused === undefined) return;
  if (kind === 'loopback' && loopbackAllowed) return;
  if (kind !== 'reserved' && policy.allowPrivateNetwork) return;
  refuse(
    `its host is ${refused}, which a remote server must not make this client reach`,
    'If you trust it, set network.allowPrivateNetwork in the OAuthClient options.',
  );
}

/**
 * Throws `ERR_UNSAFE_URL` unless `endpoint` may be shown to the user as the authorization URL: `https:`, or `http:`
 * to loopback. A `javascript:`, `file:` or `data:` URL handed to a browser or an `open` command runs code or reads
 * files (CVE-2025-6514 was exactly this).
 */
export function checkAuthorizationEndpoint(endpoint: string, issuer: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(endpoint);
  } catch {}
  const ok =
    url !== undefined &&
    (url.protocol === 'https:' || (url.protocol === 'http:' && classifyHost(url.hostname) === 'loopback'));
  if (!ok || url === undefined) {
    throw new AuthorizationError(
      'ERR_UNSAFE_URL',
      `The authorization server ${issuer} gives the authorization_endpoint ${JSON.stringify(endpoint)}, which is not ` +
        'an https: URL (http: only to loopback): refusing to send the user there',
      { issuer, authorizationEndpoint: endpoint },
    );
  }
  return url;
}

function requestUrl(input: RequestInfo | URL): URL {
  return new URL(input instanceof Request ? input.url : String(input));
}

const REDIRECT = new Set([301, 302, 303, 307, 308]);

/**
 * Wraps `fetchFn` with the outbound rules: every URL checked before it is requested, redirects followed only within
 * the origin (and only for GET), the body read within `maxResponseBytes` and the whole exchange within `timeoutMs`.
 * The response handed back is fully read (a small, bounded copy), so its consumers cannot be made to wait or buffer.
 */
export function guardFetch(fetchFn: typeof fetch, policyOf: () => OutboundPolicy): typeof fetch {
  return async (input, init) => {
    const policy = policyOf();
    let url = requestUrl(input);
    checkOutboundUrl(url, policy, 'URL');
    const timeout = AbortSignal.timeout(policy.timeoutMs);
    const caller = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const signal = caller ? AbortSignal.any([caller, timeout]) : timeout;
    const timedOut = (cause: unknown) =>
      new AuthorizationError(
        'ERR_RESPONSE_TIMEOUT',
        `${url.href} did not answer completely within ${policy.timeoutMs} ms (network.timeoutMs)`,
        { url: url.href, timeoutMs: policy.timeoutMs },
        { cause },
      );
    const send = async (target: RequestInfo | URL) => {
      try {
        return await fetchFn(target, { ...init, signal, redirect: 'manual' });
      } catch (error) {
        if (timeout.aborted && !caller?.aborted) throw timedOut(error);
        throw error;
      }
    };
    let response = await send(input);
    for (let hops = 0; REDIRECT.has(response.status) || response.type === 'opaqueredirect'; hops++) {
      await response.body?.cancel().catch(() => {});
      const location = response.headers.get('location');
      const next = location === null ? undefined : new URL(location, url);
      const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
      if (next === undefined || next.origin !== url.origin || method !== 'GET' || hops >= MAX_REDIRECTS) {
        throw new AuthorizationError(
          'ERR_UNSAFE_URL',
          `${url.href} redirects to ${next?.href ?? 'an unknown location'}: the OAuth client follows redirects only ` +
            `within one origin, for GET, at most ${MAX_REDIRECTS} times`,
          { url: url.href, location: next?.href, status: response.status },
        );
      }
      url = next;
      checkOutboundUrl(url, policy, 'redirect target');
      response = await send(url.href);
    }
    let text: string | undefined;
    try {
      text = await readLimitedText(response, policy.maxResponseBytes, signal);
    } catch (error) {
      if (timeout.aborted && !caller?.aborted) throw timedOut(error);
      throw error;
    }
    if (text === undefined) {
      throw new AuthorizationError(
        'ERR_RESPONSE_TOO_LARGE',
        `${url.href} answered with more than ${policy.maxResponseBytes} bytes (network.maxResponseBytes): not read`,
        { url: url.href, maxResponseBytes: policy.maxResponseBytes },
      );
    }
    return new Response(response.status === 204 || response.status === 304 ? null : text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
