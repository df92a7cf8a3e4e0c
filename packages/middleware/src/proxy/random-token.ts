// Crypto-random identifiers and the one-way digests the store keys secrets by. WebCrypto only: runs anywhere.

const encoder = new TextEncoder();

/** base64url without padding (RFC 4648 §5), the alphabet OAuth uses for codes, verifiers and challenges. */
export function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A crypto-random token of `bytes` bytes (default 32: 256 bits, beyond guessing), base64url-encoded. */
export function randomToken(bytes = 32): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** SHA-256 of a string, base64url-encoded: the PKCE S256 transform, and how secrets are keyed in the store. */
export async function sha256Base64Url(value: string): Promise<string> {
  return base64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(value))));
}

/** Compares two strings in time that depends only on their length (for digests of secrets, which have one length). */
export function timingSafeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
