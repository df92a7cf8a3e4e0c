// Base64url (RFC 4648 §5, no padding) over bytes and UTF-8 text, with web APIs only (btoa/atob exist in every
// runtime we target). Used for opaque cursors and the MRTR requestState token.

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Encodes bytes as base64url without padding. */
export function bytesToBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index++) binary += String.fromCharCode(bytes[index]!);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes unpadded base64url; `undefined` for anything that is not. */
export function base64UrlToBytes(text: string): Uint8Array | undefined {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return undefined;
  let binary: string;
  try {
    binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Encodes UTF-8 text as base64url. */
export function textToBase64Url(text: string): string {
  return bytesToBase64Url(encoder.encode(text));
}

/** Decodes base64url to UTF-8 text; `undefined` when it is not valid base64url or not valid UTF-8. */
export function base64UrlToText(text: string): string | undefined {
  const bytes = base64UrlToBytes(text);
  if (bytes === undefined) return undefined;
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}
