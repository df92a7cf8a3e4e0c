// PKCE (RFC 7636) with S256 on WebCrypto, and the random `state`: both from crypto.getRandomValues, available in
// browsers, Deno, Bun, Workers and Node ≥ 19 as a global.

import { base64url } from 'jose';

/** A PKCE pair: the verifier kept by the client, the challenge sent in the authorization request. */
export interface PkcePair {
  verifier: string;
  challenge: string;
  method: 'S256';
}

/** base64url without padding (RFC 7636 Appendix A), by jose, which the rest of /auth already uses. */
export function base64Url(bytes: Uint8Array): string {
  return base64url.encode(bytes);
}

/**
 * A random URL-safe string of `bytes` random bytes (32 bytes: 43 characters, 256 bits).
 *
 * @example
 * ```ts
 * const state = randomToken();
 * ```
 */
export function randomToken(bytes = 32): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/**
 * Creates a PKCE verifier (43 characters, 256 bits) and its S256 challenge.
 *
 * @example
 * ```ts
 * const { verifier, challenge } = await createPkcePair();
 * ```
 */
export async function createPkcePair(): Promise<PkcePair> {
  const verifier = randomToken(32);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: base64Url(new Uint8Array(digest)), method: 'S256' };
}
