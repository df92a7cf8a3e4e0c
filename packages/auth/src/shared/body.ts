// The one bounded body reader of both sides: the OAuth proxy reads what unauthenticated callers post, the client reads
// what servers it does not trust answer. Neither may buffer an unbounded body, so reading stops (and the stream is
// cancelled) at the first chunk past the limit: memory stays at about `maxBytes` whatever the peer sends.

/** A request or response as far as reading its body goes. */
export interface BodySource {
  headers: Headers;
  body: ReadableStream<Uint8Array> | null;
}

/**
 * Reads a body of at most `maxBytes` as UTF-8 text; undefined when it is (or declares to be) larger. An aborted
 * `signal` stops the read with its reason.
 *
 * @example
 * ```ts
 * import { readLimitedText } from '@mcpkit/auth';
 * const text = await readLimitedText(response, 64 * 1024);
 * if (text === undefined) throw new Error('response too large');
 * ```
 */
export async function readLimitedText(
  source: BodySource,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const declared = Number(source.headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    await source.body?.cancel().catch(() => {});
    return undefined;
  }
  if (source.body === null) return '';
  const reader = source.body.getReader();
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      signal?.throwIfAborted();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return undefined;
      }
      chunks.push(value);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}
