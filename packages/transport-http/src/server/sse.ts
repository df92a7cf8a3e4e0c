// One Server-Sent Events response body: a ReadableStream of UTF-8 bytes the handler writes events into, with
// keep-alive comments so proxies and idle timeouts do not cut a quiet stream.

const encoder = new TextEncoder();
const KEEP_ALIVE = encoder.encode(': keep-alive\n\n');

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
 * The writing end of one SSE response. `stream` goes into `new Response(stream)`; `onCancel` runs when the client
 * goes away (the body was cancelled), never after `close()`.
 */
export class SseWriter {
  readonly stream: ReadableStream<Uint8Array>;
  onCancel: (() => void) | undefined = undefined;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined = undefined;
  #open = true;
  #keepAlive: ReturnType<typeof setInterval> | undefined = undefined;

  constructor(keepAliveMs: number) {
    this.stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => {
        if (!this.#open) return;
        this.#dispose();
        this.onCancel?.();
      },
    });
    if (keepAliveMs > 0) {
      this.#keepAlive = setInterval(() => this.#enqueue(KEEP_ALIVE), keepAliveMs);
      // A quiet stream must not keep a process alive on its own.
      (this.#keepAlive as { unref?: () => void }).unref?.();
    }
  }

  /** Whether events can still be written. */
  get open(): boolean {
    return this.#open;
  }

  /** Writes one event (`data` is already serialised). */
  event(data: string, id?: string, event?: string, retryMs?: number): void {
    this.#enqueue(encoder.encode(formatEvent(data, id, event, retryMs)));
  }

  /** Writes raw SSE text (several events at once). */
  raw(text: string): void {
    this.#enqueue(encoder.encode(text));
  }

  /** Ends the response normally. */
  close(): void {
    if (!this.#open) return;
    const controller = this.#controller;
    this.#dispose();
    try {
      controller?.close();
    } catch {
      // Already cancelled by the reader.
    }
  }

  #enqueue(chunk: Uint8Array): void {
    if (!this.#open) return;
    try {
      this.#controller?.enqueue(chunk);
    } catch {
      // The reader went away between checks; cancel() reports it.
    }
  }

  #dispose(): void {
    this.#open = false;
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
  }
}
