import { OAuthClient, type OAuthClientOptions } from './oauth-client';

/**
 * A `fetch` that authorizes requests to one MCP server, for the `fetch` option of the Streamable HTTP and legacy SSE
 * client transports: adds `Authorization: Bearer`, and on 401 (or 403 `insufficient_scope`) discovers, registers,
 * authorizes (or refreshes) and retries the request once. Shorthand for `new OAuthClient(options).fetch`; keep the
 * `OAuthClient` when you need `finish()` (web apps) or `signOut()`.
 *
 * @example
 * ```ts
 * const transport = new StreamableHttpClientTransport(url, {
 *   fetch: createOAuthFetch({ provider: { clientCredentials: { clientId, clientSecret }, grant: clientCredentialsGrant() } }),
 * });
 * ```
 */
export function createOAuthFetch(options: OAuthClientOptions): typeof fetch {
  return new OAuthClient(options).fetch;
}
