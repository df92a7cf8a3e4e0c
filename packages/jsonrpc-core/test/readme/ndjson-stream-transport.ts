import {
  encodeLine,
  type JsonRpcMessage,
  LineDecoder,
  type MessageInfo,
  parseMessage,
  type Transport,
} from '@mcpkit/jsonrpc-core';

/** NDJSON over a pair of web streams (a child process's stdio, a TCP socket, …). */
export class NdjsonStreamTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #encoder = new TextEncoder();
  #closed = false;

  constructor(readable: ReadableStream<Uint8Array>, writable: WritableStream<Uint8Array>) {
    this.#reader = readable.getReader();
    this.#writer = writable.getWriter();
  }

  async start(): Promise<void> {
    const decoder = new LineDecoder({
      onLine: (line) => {
        const parsed = parseMessage(line);
        // A bad line is reported, not fatal: the next line may be fine.
        if (parsed.ok) this.onmessage?.(parsed.message);
        else this.onerror?.(new Error(parsed.error.error.message));
      },
      onError: (error) => this.onerror?.(error), // FrameTooLargeError: the line was dropped, reading goes on
    });
    const reader = this.#reader;
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          decoder.push(value);
        }
        decoder.end();
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
      await this.close(); // end of input ends the session
    })();
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.#closed) throw new Error('NdjsonStreamTransport.send: the transport is closed');
    await this.#write(encodeLine(message));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([this.#reader.cancel().catch(() => {}), this.#writer.close().catch(() => {})]);
    this.onclose?.();
  }

  #write(frame: string): Promise<void> {
    return this.#writer.write(this.#encoder.encode(frame));
  }
}
