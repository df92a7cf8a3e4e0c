// One Server-Sent Events response body the handler writes events into, with keep-alive comments so proxies and idle
// timeouts do not cut a quiet stream. It becomes a web ReadableStream only when the web path reads it: the node adapter
// writes the text to the socket itself.

const encoder = new TextEncoder();
const KEEP_ALIVE_TEXT = ': keep-alive\n\n';

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
}

/**
 * The writing end of one SSE response. Events written before anyone reads wait in memory; then either `stream` (a web
 * `ReadableStream` for `new Response(stream)`) or `attach(target)` (an adapter's socket) takes them and everything
 * after. `onCancel` runs when the client goes away (the body was cancelled, or the adapter called `cancel()`), never
 * after `close()`.
 */
export class SseWriter {
  onCancel: (() => void) | undefined = undefined;
  #stream: ReadableStream<Uint8Array> | undefined = undefined;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined = undefined;
  #target: SseTarget | undefined = undefined;
  /** Text written before `stream` or `attach` took over. */
  #pending: string[] | undefined = undefined;
  #open = true;
  #keepAlive: ReturnType<typeof setInterval> | undefined = undefined;

  constructor(keepAliveMs: number) {
    if (keepAliveMs > 0) {
      this.#keepAlive = setInterval(() => this.#enqueue(KEEP_ALIVE_TEXT), keepAliveMs);
      // A quiet stream must not keep a process alive on its own.
      (this.#keepAlive as { unref?: () => void }).unref?.();
    }
  }

  /** The response body as a web stream (made on first read; it starts with whatever was written so far). */
  get stream(): ReadableStream<Uint8Array> {
    if (this.#stream === undefined) {
      if (this.#target !== undefined) throw new Error('SseWriter: already attached to a target');
      this.#stream = new ReadableStream<Uint8Array>({
        start: (controller) => {
          this.#controller = controller;
          const pending = this.#pending;
          this.#pending = undefined;
          if (pending !== undefined) for (const text of pending) controller.enqueue(encoder.encode(text));
          if (!this.#open) controller.close();
        },
        cancel: () => this.cancel(),
      });
    }
    return this.#stream;
  }

  /** Sends everything written so far, and everything after, to `target` (ended at `close()`). */
  attach(target: SseTarget): void {
    if (this.#stream !== undefined || this.#target !== undefined) {
      throw new Error('SseWriter: the body is already being read');
    }
    this.#target = target;
    const pending = this.#pending;
    this.#pending = undefined;
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
    if (this.#target !== undefined) {
      this.#target.write(text);
      return;
    }
    const controller = this.#controller;
    if (controller === undefined) {
      if (this.#pending === undefined) this.#pending = [text];
      else this.#pending.push(text);
      return;
    }
    try {
      controller.enqueue(encoder.encode(text));
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
