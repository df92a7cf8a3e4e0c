// Session ids are 128 random bits from the platform CSPRNG, base64url-encoded: visible ASCII only, as the spec asks,
// and unguessable, so a session id is a bearer secret only its client knows.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** A new session id: 22 characters of base64url over 16 random bytes. */
export function mintSessionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  // Char codes first, one string at the end: `+=` would leave a chain of cons-strings behind every live session id.
  const codes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      codes.push(ALPHABET.charCodeAt((value >> bits) & 63));
    }
  }
  if (bits > 0) codes.push(ALPHABET.charCodeAt((value << (6 - bits)) & 63));
  return String.fromCharCode(...codes);
}

const VALID = /^[\x21-\x7e]{1,256}$/;

/** Whether a client-sent session id is well-formed (visible ASCII, bounded) before we look it up. */
export function isWellFormedSessionId(id: string): boolean {
  return VALID.test(id);
}
