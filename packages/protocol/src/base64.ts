// Standard Base64 (RFC 4648 §4, with padding) over bytes, using web APIs only. Decoding is strict: it accepts only
// the canonical encoding (length a multiple of 4, padding only at the end, zero unused bits), because the
// Streamable HTTP header rules of 2026-07-28 compare decoded values and must not accept two spellings of one value.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int16Array(128).fill(-1);
for (let index = 0; index < ALPHABET.length; index++) DECODE[ALPHABET.charCodeAt(index)] = index;

/** Encodes bytes as standard Base64 with padding. */
export function encodeBase64(bytes: Uint8Array): string {
  let out = '';
  let index = 0;
  for (; index + 2 < bytes.length; index += 3) {
    const n = (bytes[index]! << 16) | (bytes[index + 1]! << 8) | bytes[index + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - index;
  if (rest === 1) {
    const n = bytes[index]! << 16;
    out += `${ALPHABET[n >> 18]!}${ALPHABET[(n >> 12) & 63]!}==`;
  } else if (rest === 2) {
    const n = (bytes[index]! << 16) | (bytes[index + 1]! << 8);
    out += `${ALPHABET[n >> 18]!}${ALPHABET[(n >> 12) & 63]!}${ALPHABET[(n >> 6) & 63]!}=`;
  }
  return out;
}

function sextet(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code < 128 ? DECODE[code]! : -1;
}

/**
 * Decodes canonical standard Base64; `undefined` for anything else (bad length, characters outside the alphabet,
 * misplaced padding, non-zero unused bits).
 */
export function decodeBase64Canonical(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0) return undefined;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let out = 0;
  const fullEnd = padding === 0 ? text.length : text.length - 4;
  for (let index = 0; index < fullEnd; index += 4) {
    const a = sextet(text, index);
    const b = sextet(text, index + 1);
    const c = sextet(text, index + 2);
    const d = sextet(text, index + 3);
    if ((a | b | c | d) < 0) return undefined;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    bytes[out++] = n >> 16;
    bytes[out++] = (n >> 8) & 255;
    bytes[out++] = n & 255;
  }
  if (padding > 0) {
    const a = sextet(text, fullEnd);
    const b = sextet(text, fullEnd + 1);
    if ((a | b) < 0) return undefined;
    if (padding === 2) {
      if ((b & 15) !== 0) return undefined;
      bytes[out] = (a << 2) | (b >> 4);
    } else {
      const c = sextet(text, fullEnd + 2);
      if (c < 0 || (c & 3) !== 0) return undefined;
      bytes[out++] = (a << 2) | (b >> 4);
      bytes[out] = ((b & 15) << 4) | (c >> 2);
    }
  }
  return bytes;
}
