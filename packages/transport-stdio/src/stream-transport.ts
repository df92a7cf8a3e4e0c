import type { Readable, Writable } from 'node:stream';
import {
  DEFAULT_MAX_LINE_BYTES,
  encodeLine,
  FrameTooLargeError,
  JsonRpcErrorCode,
  type JsonRpcMessage,
  LineDecoder,
  type MessageInfo,
  parseMessage,
  type RequestId,
  type Transport,
} from '@mcpkit/jsonrpc-core';

/**
 * The most messages one write carries. Joining a whole turn's answers into one write made the two ends of a pipelined
 * connection take turns: the reader had nothing until the writer's turn ended, then the writer waited. Releasing them
 * eight at a time lets the reader start on the first while the rest are made, on another core (64 in flight: 1.4x the
 * calls/s), and still saves seven writes in eight.
 */
const MESSAGES_PER_WRITE = 8;

/**
 * Messages sent in the turn in which someone else ended (or destroyed) the output stream: it could not take them.
 * Reported through the transport's `onerror`. End the stream through the transport's `close()`, which writes them
 * first.
 */
export class UnwrittenMessagesError extends Error {
  override name = 'UnwrittenMessagesError';
  readonly code = 'ERR_UNWRITTEN_MESSAGES' as const;
  readonly data: { messages: number };

  constructor(messages: number) {
    super(
      `StreamTransport: ${messages} message(s) sent in the turn the output stream was ended in could not be written; close the transport instead of ending its stream`,
    );
    this.data = { messages };
  }
}

/** Options for `StreamTransport`. */
export interface StreamTransportOptions {
  /** Where messages arrive, one JSON-RPC message per line. */
  input: Readable;
  /** Where messages go, one per line. */
  output: Writable;
  /**
   * The longest message accepted, in bytes. A longer line is dropped as it arrives (nothing past the limit is kept)
   * and never hangs its sender: a request is answered with a -32600 error naming the limit, a response fails our
   * matching request at once (see {@link StreamTransport}). Default 16 MiB.
   */
  maxMessageBytes?: number;
  /**
   * Answer a line that is not valid JSON-RPC with the JSON-RPC error response (-32700 / -32600) on `output`, as a
   * server must; an oversized line whose id cannot be read is answered with `id: null`. Clients leave this off: a
   * server's garbage is reported through `onerror` only.
   */
  answerInvalidMessages?: boolean;
  /** Where a dropped oversized message is logged, one line each (servers: stderr). Default: nowhere. */
  log?: (line: string) => void;
  /**
   * End `output` when the transport closes, after what is still held is written, so the peer at the other end of a
   * socket or pipe sees the close. Off by default: the streams are yours, and `process.stdout` must not be ended.
   * Set it for a socket or pipe the transport owns.
   *
   * @example
   * ```ts
   * const socket = connect({ host: '127.0.0.1', port: 7000 });
   * await client.connect(new StreamTransport({ input: socket, output: socket, endOutputOnClose: true }));
   * ```
   */
  endOutputOnClose?: boolean;
}

/**
 * A `Transport` over a pair of Node streams carrying newline-delimited JSON-RPC: the framing MCP's stdio transport
 * uses, and the one it recommends for any other byte stream (a socket, a pipe). `StdioServerTransport` and
 * `StdioClientTransport` are built on it.
 *
 * Writes respect back-pressure: `send` resolves at once while the stream accepts data, and waits for `drain` when
 * its buffer is full, so a slow reader cannot make us buffer without bound.
 *
 * The messages sent in one turn of the event loop leave joined into one string per write, at the end of the turn or
 * as soon as eight are held (or they reach the stream's high-water mark): the answers to a chunk of pipelined requests
 * cost one system call per eight, not one `Writable` write each, and the reader starts on the first eight while the
 * rest are made. `close()` writes what is still held first; a stream that someone else ends in
 * the same turn as a `send` cannot take it, which is reported through `onerror` (see {@link UnwrittenMessagesError}).
 *
 * A line longer than `maxMessageBytes` is dropped as it arrives, and what its first bytes say decides the rest (the
 * `id` is read from them, see `readMessageHead`): a request is answered with a -32600 error naming the limit (a
 * server also answers `id: null` when no id could be read); a response becomes, for our peer, an error response to
 * the request it answers (-32603 naming the limit), so that request fails at once instead of at its timeout. When the
 * start does not say which it is, a server takes it for a request and a client for a response. Every drop is reported
 * through `onerror` (a `FrameTooLargeError`) and `log`.
 */
export class StreamTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onclose?: (reason?: Error) => void;
  onerror?: (error: Error) => void;

  readonly #input: Readable;
  readonly #output: Writable;
  readonly #answerInvalid: boolean;
  readonly #log: ((line: string) => void) | undefined;
  readonly #endOutputOnClose: boolean;
  readonly #decoder: LineDecoder;
  #started = false;
  #closed = false;
  #drain: Promise<void> | undefined;
  /** The lines sent in this turn and not yet written; the write is scheduled when this turns non-empty. */
  #held = '';
  /** How many messages `#held` has (for the error when they cannot be written). */
  #heldCount = 0;

  constructor(options: StreamTransportOptions) {
    this.#input = options.input;
    this.#output = options.output;
    this.#answerInvalid = options.answerInvalidMessages ?? false;
    this.#log = options.log;
    this.#endOutputOnClose = options.endOutputOnClose ?? false;
    this.#decoder = new LineDecoder({
      maxLineBytes: options.maxMessageBytes ?? DEFAULT_MAX_LINE_BYTES,
      onLine: (line) => this.#receive(line),
      onError: (error) => {
        if (FrameTooLargeError.is(error)) this.#dropped(error);
        this.onerror?.(error);
      },
    });
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('StreamTransport: start() was already called; a transport starts once');
    this.#started = true;
    this.#input.on('data', this.#onData);
    this.#input.on('end', this.#onEnd);
    this.#input.on('error', this.#onStreamError);
    this.#output.on('error', this.#onStreamError);
  }

  send(message: JsonRpcMessage): Promise<void> | undefined {
    if (this.#closed) return Promise.reject(new Error('StreamTransport: cannot send, the transport is closed'));
    if (this.#drain) return this.#drain.then(() => this.send(message) ?? undefined);
    return this.#hold(encodeLine(message));
  }

  /**
   * Writes the lines held for this turn now (the transport does so itself at the end of the turn and on close).
   * Subclasses call it before they end the output stream.
   */
  protected flush(): void {
    const text = this.#held;
    if (text === '') return;
    const count = this.#heldCount;
    this.#held = '';
    this.#heldCount = 0;
    this.#write(text, count);
  }

  #write(text: string, count: number): void {
    const output = this.#output;
    if (output.writableEnded || output.destroyed) {
      this.onerror?.(new UnwrittenMessagesError(count));
      return;
    }
    if (!output.write(text) && this.#drain === undefined) {
      this.#drain = new Promise<void>((resolve) => {
        output.once('drain', () => {
          this.#drain = undefined;
          resolve();
        });
      });
    }
  }

  /**
   * Keeps `line` for the write at the end of the turn: the messages of one turn (the answers to a chunk of pipelined
   * requests) leave joined, in one write per eight. Past that or the stream's high-water mark they are written at once,
   * and the caller waits for `drain` when the stream is full.
   */
  #hold(line: string): Promise<void> | undefined {
    if (line.length >= this.#output.writableHighWaterMark) {
      // A large message goes on its own, after what the turn holds: it is not copied into a joined string.
      this.flush();
      this.#write(line, 1);
      return this.#drain;
    }
    if (this.#held === '') {
      this.#held = line;
      process.nextTick(this.#flushTurn);
    } else {
      this.#held += line;
    }
    this.#heldCount++;
    if (this.#heldCount < MESSAGES_PER_WRITE && this.#held.length < this.#output.writableHighWaterMark)
      return undefined;
    this.flush();
    return this.#drain;
  }

  async close(): Promise<void> {
    this.closeWith(undefined);
  }

  /** Closes the transport, telling `onclose` why (for subclasses that know, e.g. a child process exited). */
  protected closeWith(reason: Error | undefined): void {
    if (this.#closed) return;
    this.flush();
    this.#closed = true;
    this.#input.off('data', this.#onData);
    this.#input.off('end', this.#onEnd);
    this.#input.off('error', this.#onStreamError);
    this.#output.off('error', this.#onStreamError);
    // A broken output (EPIPE) cannot be ended; ending an already ended stream is a no-op.
    if (this.#endOutputOnClose && !this.#output.writableEnded && !this.#output.destroyed) this.#output.end();
    this.#decoder.end();
    this.onclose?.(reason);
  }

  /** Called when a write fails with EPIPE (the reader is gone); closes the transport with that error. */
  protected onOutputBroken(error: Error): void {
    this.closeWith(error);
  }

  /** Called when `input` ends; closes the transport. Subclasses that learn the reason elsewhere override it. */
  protected onInputEnd(): void {
    this.closeWith(undefined);
  }

  /** True once the transport has closed. */
  get closed(): boolean {
    return this.#closed;
  }

  #receive(line: string): void {
    const outcome = parseMessage(line);
    if (outcome.ok) {
      this.onmessage?.(outcome.message);
      return;
    }
    this.onerror?.(new Error(`StreamTransport: ignored an invalid message: ${outcome.error.error.message}`));
    // A notification is never answered, even an invalid one: its sender waits for nothing and may not expect a line.
    if (this.#answerInvalid && !outcome.notification && !this.#closed) void this.#hold(encodeLine(outcome.error));
  }

  /** An oversized line was dropped: answer it, or fail the request it answers, so nobody waits for its timeout. */
  #dropped(error: FrameTooLargeError): void {
    const { maxLineBytes, receivedBytes, head } = error.data;
    const kind = head.kind ?? (this.#answerInvalid ? 'request' : 'response');
    const size = `at least ${receivedBytes} bytes, over the limit of ${maxLineBytes} bytes (maxMessageBytes)`;
    const errorResponse = (id: RequestId | null, code: number, message: string): JsonRpcMessage => ({
      jsonrpc: '2.0',
      id,
      error: { code, message, data: { maxMessageBytes: maxLineBytes, receivedBytes } },
    });
    let outcome = 'nobody to tell: no id could be read';
    if (kind === 'response' && head.id !== undefined) {
      this.onmessage?.(
        errorResponse(
          head.id,
          JsonRpcErrorCode.InternalError,
          `The response to this request was dropped: it is ${size} of the receiving side`,
        ),
      );
      outcome = `failed our request ${JSON.stringify(head.id)}`;
    } else if (kind === 'request' && (head.id !== undefined || this.#answerInvalid) && !this.#closed) {
      const id = head.id ?? null;
      this.send(
        errorResponse(
          id,
          JsonRpcErrorCode.InvalidRequest,
          `Message too large: it is ${size} of the receiver; it was dropped`,
        ),
      )?.catch(() => undefined);
      outcome = `answered id ${JSON.stringify(id)} with -32600`;
    }
    this.#log?.(`[mcpkit] dropped a message of ${size}; ${outcome}\n`);
  }

  readonly #flushTurn = () => this.flush();
  readonly #onData = (chunk: Uint8Array | string) => this.#decoder.push(chunk);
  readonly #onEnd = () => this.onInputEnd();
  readonly #onStreamError = (error: Error) => {
    this.onerror?.(error);
    // A broken pipe will never carry another message.
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') this.onOutputBroken(error);
  };
}
