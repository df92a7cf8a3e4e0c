const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * A new task id: 128 bits from the platform's CSPRNG (`crypto.getRandomValues`, in every runtime mcpkit supports),
 * as 22 base64url characters — unguessable, so an id is never the only thing between a caller and someone else's
 * task, and plain ASCII, so it travels in an `Mcp-Name` header as is.
 */
export function newTaskId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let id = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      id += ALPHABET[(value >> bits) & 63];
    }
  }
  if (bits > 0) id += ALPHABET[(value << (6 - bits)) & 63];
  return id;
}
