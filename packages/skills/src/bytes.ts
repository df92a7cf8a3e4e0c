// Bytes, digests and base64 with the platform's web APIs only (WebCrypto, TextEncoder, atob/btoa), so the root entry
// runs in Node, browsers, Deno, Bun and Workers alike.

const encoder = new TextEncoder();
/** Strict UTF-8 that keeps a leading BOM: decoding and encoding again gives the same bytes, so digests still match. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The UTF-8 bytes of `text`. */
export function utf8Bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

/** `bytes` as text when they are valid UTF-8 without NUL bytes (so a text resource can carry them), else undefined. */
export function textOf(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The SEP-2640 digest of `bytes`: `sha256:` and 64 lowercase hex digits, computed with WebCrypto.
 *
 * @example
 * ```ts
 * await sha256Digest(new TextEncoder().encode('abc'));
 * // 'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'
 * ```
 */
export async function sha256Digest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = 'sha256:';
  for (const byte of hash) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Base64 (the `blob` of a resource) of `bytes`, in chunks so a large file does not overflow the argument list. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let offset = 0; offset < bytes.length; offset += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(offset, offset + 0x8000));
  }
  return btoa(binary);
}

/** The bytes of a base64 `blob`, or undefined when it is not base64. */
export function fromBase64(text: string): Uint8Array | undefined {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
