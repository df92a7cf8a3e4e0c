// PKCE (RFC 7636) with S256 only: OAuth 2.1 and MCP require it, and `plain` protects nothing against a stolen code.
import { randomToken, sha256Base64Url, timingSafeEqual } from './random-token';

// RFC 7636 §4.1: 43 to 128 characters from the unreserved set.
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
// An S256 challenge is a base64url SHA-256: exactly 43 characters.
const S256_CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

/** A fresh verifier and its S256 challenge, for the proxy's own leg to the upstream provider. */
export async function createPkcePair(): Promise<{ verifier: string; challenge: string }> {
  const verifier = randomToken(32); // 43 characters
  return { verifier, challenge: await sha256Base64Url(verifier) };
}

/** True when `challenge` has the shape of an S256 code challenge. */
export function isS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge);
}

/** True when `verifier` is well-formed and hashes to `challenge` (S256). */
export async function verifyPkce(verifier: string, challenge: string): Promise<boolean> {
  if (!VERIFIER.test(verifier)) return false;
  return timingSafeEqual(await sha256Base64Url(verifier), challenge);
}
