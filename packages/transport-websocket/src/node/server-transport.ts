import {
  ConnectionClosedError,
  JsonRpcErrorCode,
  type JsonRpcMessage,
  type MessageInfo,
  parseMessage,
  serializeMessage,
  type Transport,
} from '@mcpkit/jsonrpc-core';
import type { RawData, WebSocket } from 'ws';
import { closedError, WebSocketTransportError } from '../errors';
import { type WriteBatch, writeBatchOf } from '../write-batch';

/** Options for `WebSocketServerTransport`. */
export interface WebSocketServerTransportOptions {
  /** Attached to every inbound message (the identity from `authenticate`, the upgrade request's url and headers). */
  info?: MessageInfo;
  /**
   * Back-pressure bound, in bytes: while the socket's `bufferedAmount` is above it, the transport stops reading and
   * processing inbound frames, and `send` resolves only once the buffer has drained below it. Default 1 MiB.
   */
  maxBufferedBytes?: number;
}

/** Frames held (read but not yet handled) before the socket stops reading. */
const MAX_HELD_FRAMES = 64;

/** The default back-pressure bound: 1 MiB queued towards one client. */
export const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * The server side of one WebSocket connection, on a `ws` socket: one JSON-RPC message per text frame. Invalid JSON
 * is answered with -32700, anything else that is not a JSON-RPC message (including a binary frame) with -32600; the
 * connection stays open. `createWebSocketServer` makes one per connection and hands it to `McpServer.connect`.
 *
 * @example
 * wss.on('connection', (socket) => void mcpServer.connect(new WebSocketServerTransport(socket)));
 */
export class WebSocketServerTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onclose?: (reason?: Error) => void;
  onerror?: (error: Error) => void;

  readonly #socket: WebSocket;
  readonly #info: MessageInfo | undefined;
  readonly #maxBuffered: number;
  /** Holds the frames of one event-loop turn for one TCP write (see write-batch.ts). */
  readonly #batch: WriteBatch | undefined;
  #started = false;
  #closed = false;
  /** True while reading is paused because the client is not reading fast enough. */
  #paused = false;
  /** Frames that arrived in a chunk already read when we paused; delivered, in order, on resume. */
  #held: RawData[] = [];
  #heldBinary: boolean[] = [];
  #drained: { promise: Promise<void>; resolve: () => void } | undefined = undefined;
  #readingPaused = false;
  #turn: ReturnType<typeof setImmediate> | undefined = undefined;
  /** Frames that may still be handed over in the current event-loop turn (see `#turnBudget`). */
  #budget = 1;
  /** The largest message this transport wrote so far (UTF-16 units): what one more answer may add to the buffer. */
  #largestWrite = 0;

  constructor(socket: WebSocket, options: WebSocketServerTransportOptions = {}) {
    this.#socket = socket;
    this.#info = options.info;
    this.#maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.#batch = writeBatchOf(socket);
  }

  /** The `ws` socket of this connection. */
  get socket(): WebSocket {
    return this.#socket;
  }

  /** True while inbound frames are not being read because the client has not read what we sent. */
  get paused(): boolean {
    return this.#paused;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('WebSocketServerTransport: start() was already called; a transport starts once');
    this.#started = true;
    const socket = this.#socket;
    if (socket.readyState !== socket.OPEN) {
      this.#closed = true;
      throw new ConnectionClosedError('WebSocketServerTransport: the socket closed before the session started');
    }
    socket.on('message', this.#onFrame);
    socket.on('close', this.#onClose);
    socket.on('error', this.#onError);
  }

  send(message: JsonRpcMessage): Promise<void> | undefined {
    if (this.#closed) {
      return Promise.reject(
        new ConnectionClosedError('WebSocketServerTransport: cannot send, the connection is closed'),
      );
    }
    this.#write(serializeMessage(message));
    // Over the bound: the message is queued (the bound is exceeded by at most one message per producer), and the
    // producer waits for the client to read before it sends more.
    return this.#paused ? this.#drained?.promise : undefined;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#finish(undefined);
    this.#socket.close(1000);
    // The answers of this turn and the close frame leave now, in that order, whatever the application does next.
    this.#batch?.flush();
  }

  #write(text: string): void {
    if (text.length > this.#largestWrite) this.#largestWrite = text.length;
    this.#batch?.hold();
    this.#socket.send(text, this.#afterWrite);
    if (!this.#paused && this.#socket.bufferedAmount > this.#maxBuffered) {
      this.#paused = true;
      let resolve!: () => void;
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      this.#drained = { promise, resolve };
      this.#updateReading();
    }
  }

  // Called by ws when a frame has been handed to the kernel; the last one of a backlog sees the buffer drained.
  readonly #afterWrite = (error?: Error): void => {
    if (error !== undefined && error !== null) return; // the close handler reports a broken connection
    if (!this.#paused || this.#socket.bufferedAmount > this.#maxBuffered) return;
    this.#paused = false;
    const drained = this.#drained;
    this.#drained = undefined;
    drained?.resolve();
    this.#updateReading();
    this.#pump();
  };

  /** Pauses the socket while we are over the bound or hold a backlog of frames; resumes it otherwise. */
  #updateReading(): void {
    const pause = this.#paused || this.#held.length >= MAX_HELD_FRAMES;
    if (pause === this.#readingPaused || this.#closed) return;
    this.#readingPaused = pause;
    if (pause) this.#socket.pause();
    else this.#socket.resume();
  }

  readonly #onFrame = (data: RawData, isBinary: boolean): void => {
    if (this.#closed) return;
    // The first frame since the last turn ended opens a new turn.
    if (this.#turn === undefined) this.#budget = this.#turnBudget();
    // Fast path: a frame within the turn's budget is handled at once.
    if (!this.#paused && this.#held.length === 0 && this.#budget > 0) {
      this.#deliverNow(data, isBinary);
      return;
    }
    this.#held.push(data);
    this.#heldBinary.push(isBinary);
    this.#updateReading();
  };

  // ws emits every frame of a TCP chunk synchronously, before any handler has answered, so handing a whole burst of
  // pipelined requests over at once would let all their answers land in the buffer together, past the bound. So a
  // turn of the event loop takes only as many frames as the buffer has room for answers the size of the largest one
  // sent so far (one while nothing was sent yet); the rest wait for the next turn, when the answers of this one are
  // counted in `bufferedAmount`. Small answers thus go 64 frames a turn, big ones one or two. Other connections are
  // not held back.
  #turnBudget(): number {
    const largest = this.#largestWrite;
    if (largest === 0) return 1;
    const room = this.#maxBuffered - this.#socket.bufferedAmount;
    return Math.max(1, Math.min(MAX_HELD_FRAMES, Math.floor(room / largest)));
  }

  #deliverNow(data: RawData, isBinary: boolean): void {
    this.#budget--;
    if (this.#turn === undefined) this.#turn = setImmediate(this.#nextTurn);
    this.#receive(data, isBinary);
  }

  readonly #nextTurn = (): void => {
    this.#turn = undefined;
    this.#budget = this.#turnBudget();
    this.#pump();
  };

  #pump(): void {
    while (!this.#paused && !this.#closed && this.#budget > 0 && this.#held.length > 0) {
      const data = this.#held.shift() as RawData;
      const isBinary = this.#heldBinary.shift() as boolean;
      this.#updateReading();
      this.#deliverNow(data, isBinary);
    }
  }

  #receive(data: RawData, isBinary: boolean): void {
    if (isBinary) {
      this.#reject(
        JsonRpcErrorCode.InvalidRequest,
        'Invalid Request: binary frames are not accepted; send one JSON-RPC message per text frame',
        'ERR_WS_BINARY_FRAME',
      );
      return;
    }
    const outcome = parseMessage(data.toString());
    if (outcome.ok) {
      this.onmessage?.(outcome.message, this.#info);
      return;
    }
    const { code, message } = outcome.error.error;
    this.onerror?.(
      new WebSocketTransportError(
        'ERR_WS_INVALID_MESSAGE',
        `WebSocketServerTransport: ${outcome.notification ? 'ignored an invalid notification' : 'answered an invalid frame'}: ${message}`,
        {
          jsonRpcCode: code,
        },
      ),
    );
    // A notification is never answered, even an invalid one (JSON-RPC).
    if (!outcome.notification) this.#write(serializeMessage(outcome.error));
  }

  #reject(code: number, message: string, errorCode: 'ERR_WS_BINARY_FRAME'): void {
    this.onerror?.(
      new WebSocketTransportError(errorCode, `WebSocketServerTransport: ${message}`, { jsonRpcCode: code }),
    );
    this.#write(serializeMessage({ jsonrpc: '2.0', id: null, error: { code, message } }));
  }

  #finish(reason: Error | undefined): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#held = [];
    this.#heldBinary = [];
    if (this.#turn !== undefined) clearImmediate(this.#turn);
    const socket = this.#socket;
    socket.off('message', this.#onFrame);
    socket.off('close', this.#onClose);
    socket.off('error', this.#onError);
    // Keep a listener: ws throws an unhandled 'error' event otherwise.
    socket.on('error', ignore);
    const drained = this.#drained;
    this.#drained = undefined;
    drained?.resolve();
    this.onclose?.(reason);
  }

  readonly #onClose = (code: number, reason: Buffer): void => {
    // Frames read but held for a later turn were sent before the close frame: hand them over before onclose, or a
    // client that sends and closes at once loses them.
    while (this.#held.length > 0 && !this.#closed) {
      const data = this.#held.shift() as RawData;
      this.#receive(data, this.#heldBinary.shift() as boolean);
    }
    this.#finish(closedError(code, reason.toString(), undefined));
  };

  readonly #onError = (error: Error): void => {
    this.onerror?.(error);
  };
}

function ignore(): void {}
