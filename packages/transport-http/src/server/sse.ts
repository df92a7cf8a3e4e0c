// One Server-Sent Events response body the handler writes events into, with keep-alive comments so proxies and idle
// timeouts do not cut a quiet stream. It becomes a web ReadableStream only when the web path reads it: the node adapter
// writes the text to the socket itself. Either way what waits for a slow client is bounded: an event written while
// `maxBufferedBytes` already wait closes the stream instead, and drops what waited (the client resumes from the event
// store, where one exists).

const encoder = new TextEncoder();
const KEEP_ALIVE_TEXT = ': keep-alive\n\n';

/** Default bound of what one SSE stream holds for a client that does not read: 1 MiB. */
export const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;

/** Counts a web stream's queue in bytes, so `desiredSize` is minus the bytes waiting (high-water mark 0). */
const BYTE_QUEUE: QueuingStrategy<Uint8Array> = { highWaterMark: 0, size: (chunk) => chunk.byteLength };

/** Headers of every SSE response. `X-Accel-Buffering: no` stops nginx from holding events back. */
export const SSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
});

/** Formats one SSE event. JSON text never contains a raw newline, so `data` is one line. */
export function formatEvent(data: string, id?: string, event = 'message', retryMs?: number): string {
  let text = '';
  if (id !== undefined) text += `id: ${id}\n`;
  if (retryMs !== undefined) text += `retry: ${retryMs}\n`;
  if (event !== '') text += `event: ${event}\n`;
  return `${text}data: ${data}\n\n`;
}

/**
 * Where an SSE response's text goes when an adapter writes it to a socket itself (the node adapter) instead of reading
 * {@link SseWriter.stream}.
 */
export interface SseTarget {
  write(text: string): void;
  end(): void;
  /** Bytes written that the network has not taken yet (the adapter's buffers and the socket's). */
  readonly bufferedBytes: number;
  /** Drops the connection at once, with whatever it still buffers. */
  destroy(): void;
}

/**
 * The writing end of one SSE response. Events written before anyone reads wait in memory; then either `stream` (a web
 * `ReadableStream` for `new Response(stream)`) or `attach(target)` (an adapter's socket) takes them and everything
 * after. `onCancel` runs when the client goes away (the body was cancelled, or the adapter called `cancel()`) or the
 * stream overflowed (`overflowed` then says so), never after `close()`.
 *
 * Back-pressure: what waits for the client (text not yet read from `stream`, or the target's `bufferedBytes`) is
 * checked before each event. When `maxBufferedBytes` already wait, the client is not keeping up: the stream is ended
 * abruptly (the web stream errors, the target is destroyed), what waited is released, and `onCancel` runs. So a
 * stream holds at most `maxBufferedBytes` plus one event.
 */
export class SseWriter {
  onCancel: (() => void) | undefined = undefined;
  readonly #maxBufferedBytes: number;
  #stream: ReadableStream<Uint8Array> | undefined = undefined;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined = undefined;
  #target: SseTarget | undefined = undefined;
  /** Text written before `stream` or `attach` took over. */
  #pending: string[] | undefined = undefined;
  #pendingLength = 0;
  #open = true;
  #overflowed = false;
  #keepAlive: ReturnType<typeof setInterval> | undefined = undefined;

  constructor(keepAliveMs: number, maxBufferedBytes = DEFAULT_MAX_BUFFERED_BYTES) {
    if (!(maxBufferedBytes >= 1)) {
      throw new RangeError(`SseWriter: maxBufferedBytes must be at least 1, got ${maxBufferedBytes}`);
    }
    this.#maxBufferedBytes = maxBufferedBytes;
    if (keepAliveMs > 0) {
      // Only on a stream with nothing waiting: a comment behind unsent events keeps nothing alive.
      this.#keepAlive = setInterval(() => {
        if (this.bufferedBytes === 0) this.#enqueue(KEEP_ALIVE_TEXT);
      }, keepAliveMs);
      // A quiet stream must not keep a process alive on its own.
      (this.#keepAlive as { unref?: () => void }).unref?.();
    }
  }

  /** The response body as a web stream (made on first read; it starts with whatever was written so far). */
  get stream(): ReadableStream<Uint8Array> {
    if (this.#stream === undefined) {
      if (this.#target !== undefined) throw new Error('SseWriter: already attached to a target');
      this.#stream = new ReadableStream<Uint8Array>(
        {
          start: (controller) => {
            this.#controller = controller;
            const pending = this.#takePending();
            if (pending !== undefined) for (const text of pending) controller.enqueue(encoder.encode(text));
            if (this.#overflowed) controller.error(this.#overflowError());
            else if (!this.#open) controller.close();
          },
          cancel: () => this.cancel(),
        },
        BYTE_QUEUE,
      );
    }
    return this.#stream;
  }

  /** Sends everything written so far, and everything after, to `target` (ended at `close()`). */
  attach(target: SseTarget): void {
    if (this.#stream !== undefined || this.#target !== undefined) {
      throw new Error('SseWriter: the body is already being read');
    }
    this.#target = target;
    if (this.#overflowed) {
      target.destroy();
      return;
    }
    const pending = this.#takePending();
    if (pending !== undefined) target.write(pending.length === 1 ? pending[0]! : pending.join(''));
    if (!this.#open) target.end();
  }

  /** The client went away: stop writing and tell `onCancel` (nothing happens after `close()`). */
  cancel(): void {
    if (!this.#open) return;
    this.#dispose();
    this.onCancel?.();
  }

  /** Whether events can still be written. */
  get open(): boolean {
    return this.#open;
  }

  /** Whether the stream was ended because the client did not read what waited (see the class's TSDoc). */
  get overflowed(): boolean {
    return this.#overflowed;
  }

  /** Bytes written that the client has not taken yet (text before a reader came is counted in UTF-16 units). */
  get bufferedBytes(): number {
    if (this.#target !== undefined) return this.#target.bufferedBytes;
    if (this.#controller !== undefined) {
      const room = this.#controller.desiredSize;
      return room === null || room >= 0 ? 0 : -room;
    }
    return this.#pendingLength;
  }

  /** Writes one event (`data` is already serialised). */
  event(data: string, id?: string, event?: string, retryMs?: number): void {
    this.#enqueue(formatEvent(data, id, event, retryMs));
  }

  /** Writes raw SSE text (several events at once). */
  raw(text: string): void {
    this.#enqueue(text);
  }

  /** Ends the response normally. */
  close(): void {
    if (!this.#open) return;
    this.#dispose();
    if (this.#target !== undefined) {
      this.#target.end();
      return;
    }
    try {
      this.#controller?.close();
    } catch {
      // Already cancelled by the reader.
    }
  }

  #enqueue(text: string): void {
    if (!this.#open) return;
    if (this.bufferedBytes >= this.#maxBufferedBytes) {
      this.#overflow();
      return;
    }
    if (this.#target !== undefined) {
      this.#target.write(text);
      return;
    }
    const controller = this.#controller;
    if (controller === undefined) {
      if (this.#pending === undefined) this.#pending = [text];
      else this.#pending.push(text);
      this.#pendingLength += text.length;
      return;
    }
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      // The reader went away between checks; cancel() reports it.
    }
  }

  /** The client is not reading: end the stream abruptly and let go of what waited. */
  #overflow(): void {
    this.#overflowed = true;
    this.#dispose();
    this.#takePending();
    if (this.#target !== undefined) this.#target.destroy();
    else if (this.#controller !== undefined) this.#controller.error(this.#overflowError());
    this.onCancel?.();
  }

  #overflowError(): Error {
    return new Error(
      `SSE stream closed: the client left ${this.#maxBufferedBytes} bytes or more unread (maxBufferedBytes)`,
    );
  }

  #takePending(): string[] | undefined {
    const pending = this.#pending;
    this.#pending = undefined;
    this.#pendingLength = 0;
    return pending;
  }

  #dispose(): void {
    this.#open = false;
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
  }
}
