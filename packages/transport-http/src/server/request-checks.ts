import { JsonRpcErrorCode } from '@mcpkit/jsonrpc-core';
import { takeBufferedBody } from './raw-body';
import { errorResponse } from './responses';

// The checks every POST passes before its body is read: media types and size.

/** Default request body limit: 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

function accepts(accept: string, type: string, family: string): boolean {
  // Media ranges are case-insensitive; `*/*` and `text/*` count. Quality values are not weighed: q=0 is rare enough.
  const lower = accept.toLowerCase();
  return lower.includes(type) || lower.includes(`${family}/*`) || lower.includes('*/*');
}

/** 406 unless `Accept` admits both JSON and SSE (the client must handle either response). */
export function checkPostAccept(request: Request): Response | undefined {
  const accept = request.headers.get('accept') ?? '';
  if (accepts(accept, 'application/json', 'application') && accepts(accept, 'text/event-stream', 'text')) {
    return undefined;
  }
  return errorResponse(
    406,
    -32000,
    'Not Acceptable: the client must accept both application/json and text/event-stream',
    { data: { accept } },
  );
}

/** 406 unless `Accept` admits SSE (GET streams). */
export function checkGetAccept(request: Request): Response | undefined {
  const accept = request.headers.get('accept') ?? '';
  if (accepts(accept, 'text/event-stream', 'text')) return undefined;
  return errorResponse(406, -32000, 'Not Acceptable: the client must accept text/event-stream', { data: { accept } });
}

/** 415 unless the body is JSON. */
export function checkContentType(request: Request): Response | undefined {
  const type = request.headers.get('content-type');
  if (type !== null) {
    const semicolon = type.indexOf(';');
    const essence = (semicolon === -1 ? type : type.slice(0, semicolon)).trim().toLowerCase();
    if (essence === 'application/json') return undefined;
  }
  return errorResponse(415, -32000, 'Unsupported Media Type: the body must be application/json', {
    data: { contentType: type },
  });
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

function byteLength(text: string): number {
  return encoder.encode(text).byteLength;
}

/**
 * Reads the body as text, refusing (413) more than `maxBytes` — before reading when `Content-Length` says so, and
 * while reading otherwise, so a lying or absent length cannot make the server buffer without bound. A body an adapter
 * already holds is answered at once (no promise).
 */
export function readBodyText(request: Request, maxBytes: number): string | Response | Promise<string | Response> {
  const length = request.headers.get('content-length');
  if (length !== null && Number(length) > maxBytes) return tooLarge(maxBytes);
  const buffered = takeBufferedBody(request);
  if (buffered !== undefined) {
    if (typeof buffered === 'string') {
      // UTF-8 takes 1 to 3 bytes per UTF-16 unit: count the bytes only when the length cannot decide.
      const over = buffered.length > maxBytes || (buffered.length * 3 > maxBytes && byteLength(buffered) > maxBytes);
      return over ? tooLarge(maxBytes) : buffered;
    }
    return buffered.byteLength > maxBytes ? tooLarge(maxBytes) : decoder.decode(buffered);
  }
  return readStream(request.body, maxBytes);
}

function tooLarge(maxBytes: number): Response {
  return errorResponse(413, -32000, `Payload Too Large: the body exceeds ${maxBytes} bytes`, { data: { maxBytes } });
}

async function readStream(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string | Response> {
  if (body === null) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return decoder.decode(chunks[0]);
  const all = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return decoder.decode(all);
}

/** 400 with a -32700 body. */
export function parseErrorResponse(detail: string): Response {
  return errorResponse(400, JsonRpcErrorCode.ParseError, `Parse error: ${detail}`);
}
