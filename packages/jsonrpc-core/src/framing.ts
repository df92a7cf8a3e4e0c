import { FrameTooLargeError } from './errors';
import { toError } from './in-flight';
import { isSpace, readMessageHead } from './message-head';
import type { JsonRpcMessage } from './messages';

/** 16 MiB: far above any sane JSON-RPC message, low enough that a peer cannot make us buffer without bound. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

const NEWLINE = 10;
const CARRIAGE_RETURN = 13;
/** How much of an oversized line is read for its `id` (see `FrameTooLargeErrorData.head`). */
const HEAD_BYTES = 64 * 1024;

/** Options for `LineDecoder`. */
export interface LineDecoderOptions {
  /** Called with each complete, non-blank line, without its `\n` or `\r\n`. */
  onLine: (line: string) => void;
  /**
   * Called with a `FrameTooLargeError` for each line longer than `maxLineBytes` (as soon as the limit is crossed, with
   * the `id` read from the line's start when it can be), and with anything `onLine` throws. Without it, such errors
   * are thrown from `push()`/`end()` once the whole chunk has been processed.
   */
  onError?: (error: Error) => void;
  /**
   * The longest line accepted, in bytes, excluding the newline (in UTF-16 code units for string chunks). A longer
   * line is dropped as it arrives (nothing past the limit is buffered) and decoding resumes after its newline.
   * Default: 16 MiB (`DEFAULT_MAX_LINE_BYTES`).
   */
  maxLineBytes?: number;
}

type Part = Uint8Array | string;

/**
 * Splits a byte or text stream into newline-delimited frames (NDJSON, the MCP stdio framing).
 *
 * - Chunks may split anywhere, including inside a multi-byte UTF-8 sequence: bytes are decoded only once a line is
 *   complete (a UTF-8 sequence never contains the byte `\n`).
 * - `\r\n` line ends are accepted; blank and whitespace-only lines are skipped.
 * - Linear in the input: each chunk is scanned once for `\n`; the pieces of an unfinished line are kept in a list and
 *   joined once, when its newline arrives. A 10 MB line in 64 KiB chunks costs one copy and one decode.
 * - The pieces of an unfinished line are kept by reference: do not reuse a chunk's buffer after pushing it.
 *
 * @example
 * const decoder = new LineDecoder({
 *   onLine: (line) => {
 *     const result = parseMessage(line);
 *     if (result.ok) transport.onmessage?.(result.message);
 *   },
 *   onError: (error) => transport.onerror?.(error),
 * });
 * stdin.on('data', (chunk: Uint8Array) => decoder.push(chunk));
 * stdin.on('end', () => decoder.end());
 */
export class LineDecoder {
  /** The configured limit, in bytes. */
  readonly maxLineBytes: number;
  readonly #onLine: (line: string) => void;
  readonly #onError: ((error: Error) => void) | undefined;
  readonly #decoder = new TextDecoder('utf-8', { fatal: false });
  #parts: Part[] = [];
  #pendingSize = 0;
  // True while dropping the rest of an oversized line, up to its newline.
  #discarding = false;
  #deferredError: unknown = undefined;

  constructor(options: LineDecoderOptions) {
    const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    if (!(max > 0)) throw new RangeError(`LineDecoder: maxLineBytes must be a positive number, got ${max}`);
    this.maxLineBytes = max;
    this.#onLine = options.onLine;
    this.#onError = options.onError;
  }

  /** The number of bytes (or code units) held for the unfinished line. */
  get pendingSize(): number {
    return this.#pendingSize;
  }

  /** Feeds one chunk. Complete lines are delivered before this returns. */
  push(chunk: Uint8Array | string): void {
    const length = chunk.length;
    let start = 0;
    while (start < length) {
      const newline =
        typeof chunk === 'string' ? chunk.indexOf('\n', start) : (chunk as Uint8Array).indexOf(NEWLINE, start);
      if (newline === -1) {
        this.#keep(slicePart(chunk, start, length), length - start);
        break;
      }
      this.#completeLine(chunk, start, newline);
      start = newline + 1;
    }
    this.#throwDeferred();
  }

  /**
   * Ends the stream: a final line without a trailing newline is delivered. The decoder is then empty and can be
   * reused.
   */
  end(): void {
    if (!this.#discarding && this.#parts.length > 0) {
      const line = this.#join();
      this.#emit(line);
    }
    this.#reset();
    this.#discarding = false;
    this.#throwDeferred();
  }

  #keep(part: Part, size: number): void {
    if (this.#discarding) return;
    const total = this.#pendingSize + size;
    if (total > this.maxLineBytes) {
      this.#tooLarge(total, part);
      this.#discarding = true;
      return;
    }
    this.#parts.push(part);
    this.#pendingSize = total;
  }

  #completeLine(chunk: Part, start: number, end: number): void {
    if (this.#discarding) {
      this.#discarding = false;
      return;
    }
    const size = this.#pendingSize + (end - start);
    if (size > this.maxLineBytes) {
      this.#tooLarge(size, slicePart(chunk, start, end));
      this.#reset();
      return;
    }
    if (size === 0) return;
    let line: string;
    if (this.#parts.length === 0) {
      line = typeof chunk === 'string' ? chunk.slice(start, end) : this.#decoder.decode(chunk.subarray(start, end));
    } else {
      this.#parts.push(slicePart(chunk, start, end));
      line = this.#join();
      this.#reset();
    }
    this.#emit(line);
  }

  #join(): string {
    const parts = this.#parts;
    if (!parts.some((part) => typeof part === 'string')) {
      let total = 0;
      for (const part of parts) total += part.length;
      const joined = new Uint8Array(total);
      let offset = 0;
      for (const part of parts as Uint8Array[]) {
        joined.set(part, offset);
        offset += part.length;
      }
      return this.#decoder.decode(joined);
    }
    // Mixed text and bytes (unusual): decode byte runs in streaming mode so a sequence split between runs survives.
    let line = '';
    for (const part of parts) {
      line += typeof part === 'string' ? part : this.#decoder.decode(part, { stream: true });
    }
    return line + this.#decoder.decode();
  }

  #emit(raw: string): void {
    let line = raw;
    if (line.charCodeAt(line.length - 1) === CARRIAGE_RETURN) line = line.slice(0, -1);
    if (line.length === 0 || (isSpace(line.charCodeAt(0)) && line.trim().length === 0)) return;
    try {
      this.#onLine(line);
    } catch (error) {
      this.#report(error);
    }
  }

  #tooLarge(receivedBytes: number, last: Part): void {
    const head = readMessageHead(this.#headText(last));
    this.#parts = [];
    this.#pendingSize = 0;
    this.#report(
      new FrameTooLargeError(
        `A newline-delimited frame exceeded ${this.maxLineBytes} bytes (maxLineBytes); it was dropped and reading resumes at the next newline`,
        { maxLineBytes: this.maxLineBytes, receivedBytes, head },
      ),
    );
  }

  /** The first `HEAD_BYTES` of the line held so far plus `last`, as text (a sequence cut at the end decodes as U+FFFD). */
  #headText(last: Part): string {
    let text = '';
    let room = HEAD_BYTES;
    const decoder = new TextDecoder('utf-8', { fatal: false });
    for (const part of [...this.#parts, last]) {
      if (room <= 0) break;
      const piece = part.length <= room ? part : slicePart(part, 0, room);
      room -= piece.length;
      text += typeof piece === 'string' ? piece : decoder.decode(piece, { stream: true });
    }
    return text + decoder.decode();
  }

  #report(error: unknown): void {
    if (this.#onError) {
      this.#onError(toError(error));
    } else if (this.#deferredError === undefined) {
      this.#deferredError = error;
    }
  }

  #throwDeferred(): void {
    const error = this.#deferredError;
    if (error === undefined) return;
    this.#deferredError = undefined;
    throw error;
  }

  #reset(): void {
    if (this.#parts.length > 0) this.#parts = [];
    this.#pendingSize = 0;
  }
}

/** `part` from `start` to `end`: a slice of text, or a view of bytes (no copy). */
function slicePart(part: Part, start: number, end: number): Part {
  return typeof part === 'string' ? part.slice(start, end) : part.subarray(start, end);
}

/**
 * One newline-delimited frame: the message as JSON plus `\n`. JSON escapes newlines inside strings, so the frame
 * contains exactly one newline, at the end.
 *
 * @example
 * process.stdout.write(encodeLine({ jsonrpc: '2.0', id: 1, result: {} }));
 */
export function encodeLine(message: JsonRpcMessage): string {
  return `${JSON.stringify(message)}\n`;
}
