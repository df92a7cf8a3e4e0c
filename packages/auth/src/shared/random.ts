// Crypto-random identifiers and the one-way digests both sides key secrets by. WebCrypto only: runs anywhere.
// base64url (RFC 4648 §5, no padding) is jose's, which both sides already use to sign and verify tokens.

import { base64url } from 'jose';

const encoder = new TextEncoder();

/**
 * A crypto-random URL-safe token of `bytes` random bytes (default 32: 43 characters, 256 bits, beyond guessing).
 *
 * @example
 * ```ts
 * import { randomToken } from '@mcpkit/auth';
 * const state = randomToken();
 * ```
 */
export function randomToken(bytes = 32): string {
  return base64url.encode(crypto.getRandomValues(new Uint8Array(bytes)));
}

/**
 * SHA-256 of a string, base64url-encoded: the PKCE S256 transform, and how the OAuth proxy keys secrets in its store.
 *
 * @example
 * ```ts
 * import { sha256Base64Url } from '@mcpkit/auth';
 * const digest = await sha256Base64Url('a verifier');
 * ```
 */
export async function sha256Base64Url(value: string): Promise<string> {
  return base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(value))));
}

/**
 * Compares two strings in time that depends only on their length (for digests of secrets, which have one length).
 *
 * @example
 * ```ts
 * import { timingSafeEqual } from '@mcpkit/auth';
 * timingSafeEqual('abc', 'abc'); // true
 * ```
 */
export function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
