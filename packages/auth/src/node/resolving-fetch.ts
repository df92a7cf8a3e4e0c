// DNS rebinding, the half of SSRF a literal-address check cannot see: `auth.evil.example` may resolve to 10.0.0.5 or
// 169.254.169.254. On Node the app can resolve first. This fetch resolves the host of every request (all addresses,
// both families) and refuses it when any address is private, loopback, link-local, unique-local or reserved, before
// the request is sent. It narrows rebinding to the window between this lookup and the connection's own (a resolver
// answering with TTL 0 could still switch in between); an egress proxy that enforces the rule closes it.
import { lookup } from 'node:dns/promises';
import { classifyHost, isPublicHost } from '../shared/address';

/** Options of {@link createResolvingFetch}. */
export interface ResolvingFetchOptions {
  /** The fetch that sends the request once its host passed (default: the global one). */
  fetch?: typeof fetch;
  /** Host names whose addresses are not checked (e.g. your own authorization server on a private network). */
  allowHosts?: readonly string[];
  /** Resolves a host name to every address it has (default: `node:dns` `lookup` with `all: true`). */
  resolve?: (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;
}

const systemResolve = (hostname: string) => lookup(hostname, { all: true, verbatim: true });

/**
 * A `fetch` that refuses hosts resolving to a private, loopback, link-local, unique-local or reserved address: give it
 * to `OAuthClient` (`fetch`) or the OAuth proxy (`fetch`) on Node.
 *
 * @example
 * ```ts
 * import { createOAuthFetch } from '@mcpkit/auth/client';
 * import { createResolvingFetch } from '@mcpkit/auth/node';
 * const oauthFetch = createOAuthFetch({ provider, fetch: createResolvingFetch() });
 * ```
 */
export function createResolvingFetch(options: ResolvingFetchOptions = {}): typeof fetch {
  const send = options.fetch ?? globalThis.fetch.bind(globalThis);
  const allowed = new Set((options.allowHosts ?? []).map((host) => host.toLowerCase()));
  const resolve = options.resolve ?? systemResolve;
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const host = url.hostname.toLowerCase();
    // Literal addresses and `localhost` are the OAuth client's own gate's to judge; names are resolved here.
    if (!allowed.has(host) && classifyHost(host) === 'name') {
      const addresses = await resolve(host);
      const refused = addresses.find(({ address, family }) => !isPublicHost(family === 6 ? `[${address}]` : address));
      if (refused !== undefined) {
        throw new TypeError(
          `createResolvingFetch: ${host} resolves to ${refused.address}, a non-public address; refusing ${url.href}`,
        );
      }
    }
    return send(input, init);
  };
}
