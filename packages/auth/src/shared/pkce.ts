// PKCE (RFC 7636) with S256 only: OAuth 2.1 and MCP require it, and `plain` protects nothing against a stolen code.
// One implementation for the client (its authorization requests) and the OAuth proxy (its own leg upstream, and the
// checks of what its clients send).
import { randomToken, sha256Base64Url, timingSafeEqual } from './random';

// RFC 7636 §4.1: 43 to 128 characters from the unreserved set.
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
// An S256 challenge is a base64url SHA-256: exactly 43 characters.
const S256_CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

/** A PKCE pair: the verifier kept by the client, the challenge sent in the authorization request. */
export interface PkcePair {
  verifier: string;
  challenge: string;
  method: 'S256';
}

/**
 * Creates a PKCE verifier (43 characters, 256 bits) and its S256 challenge.
 *
 * @example
 * ```ts
 * import { createPkcePair } from '@mcpkit/auth';
 * const { verifier, challenge } = await createPkcePair();
 * ```
 */
export async function createPkcePair(): Promise<PkcePair> {
  const verifier = randomToken(32);
  return { verifier, challenge: await sha256Base64Url(verifier), method: 'S256' };
}

/**
 * True when `challenge` has the shape of an S256 code challenge.
 *
 * @example
 * ```ts
 * isS256Challenge((await createPkcePair()).challenge); // true
 * ```
 */
export function isS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge);
}

/**
 * True when `verifier` is well-formed and hashes to `challenge` (S256), compared in constant time.
 *
 * @example
 * ```ts
 * const pair = await createPkcePair();
 * await verifyPkce(pair.verifier, pair.challenge); // true
 * ```
 */
export async function verifyPkce(verifier: string, challenge: string): Promise<boolean> {
  if (!VERIFIER.test(verifier)) return false;
  return timingSafeEqual(await sha256Base64Url(verifier), challenge);
}
