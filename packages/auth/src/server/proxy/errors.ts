import { defineCodedError } from '@mcpkit/jsonrpc-core';

// Errors the proxy raises itself (bad configuration, a failing upstream). OAuth errors the proxy answers to clients
// are plain RFC 6749 JSON bodies or redirect parameters, not exceptions.

/** The codes of {@link OAuthProxyError}. */
export type OAuthProxyErrorCode =
  /** An option is missing or malformed (data: the option and the value). */
  | 'ERR_PROXY_OPTIONS'
  /** The upstream token endpoint refused a request or answered something that is not a token response. */
  | 'ERR_UPSTREAM_TOKEN'
  /** The upstream token endpoint could not be reached (network error, timeout). */
  | 'ERR_UPSTREAM_UNREACHABLE'
  /** A Client ID Metadata Document could not be fetched or is invalid (data: the URL and the reason). */
  | 'ERR_CLIENT_METADATA';

/**
 * A problem the OAuth proxy found: its options, the upstream provider, or a client metadata document.
 *
 * @example
 * ```ts
 * try {
 *   createOAuthProxy(options);
 * } catch (error) {
 *   if (OAuthProxyError.is(error) && error.code === 'ERR_PROXY_OPTIONS') console.error(error.message, error.data);
 * }
 * ```
 */
export class OAuthProxyError extends defineCodedError<OAuthProxyErrorCode>(
  'OAuthProxyError',
  '@mcpkit/middleware/OAuthProxyError',
) {}
