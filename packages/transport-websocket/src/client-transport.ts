import {
  ConnectionClosedError,
  type JsonRpcMessage,
  type MessageInfo,
  parseMessage,
  type RequestId,
  serializeMessage,
  type Transport,
} from '@mcpkit/jsonrpc-core';
import { closedError, WebSocketTransportError } from './errors';
import {
  backoffDelay,
  type ReconnectOptions,
  type ResolvedReconnectOptions,
  resolveReconnectOptions,
} from './reconnect';
import { OPEN, type WebSocketConstructor, type WebSocketLike } from './websocket-like';
import { type WriteBatch, writeBatchOf } from './write-batch';

/** The subprotocol MCP-over-WebSocket speaks (negotiated with `Sec-WebSocket-Protocol`). */
export const MCP_SUBPROTOCOL = 'mcp';

/** Options for `WebSocketClientTransport`. */
export interface WebSocketClientTransportOptions {
  /**
   * The `WebSocket` class to use. Default `globalThis.WebSocket` (browsers, Deno, Bun, Node 22+). On Node 20 pass
   * `WebSocket` from the `ws` package.
   */
  WebSocket?: WebSocketConstructor;
  /** Subprotocols offered. Default `['mcp']`; the server must select one of them. */
  protocols?: string[];
  /** Extra handshake headers (e.g. `Authorization`). Only the `ws` class can send them; browsers cannot. */
  headers?: Record<string, string>;
  /** Opt-in reconnection with backoff. Off by default; see the README for what it means in each era. */
  reconnect?: ReconnectOptions | boolean;
}

/**
 * A client `Transport` over a WebSocket: one JSON-RPC message per text frame. Works with any WHATWG `WebSocket`
 * implementation and imports no Node built-in.
 *
 * A binary frame or a text frame that is not a JSON-RPC message is reported through `onerror` and dropped. When the
 * server or the network closes the socket, `onclose` gets a `WebSocketTransportError` naming the close code, so
 * pending requests fail with a `ConnectionClosedError` that says why.
 *
 * @example
 * import { Client } from '@mcpkit/client';
 * import { WebSocketClientTransport } from '@mcpkit/transport-websocket';
 * import { WebSocket } from 'ws'; // Node 20 only; elsewhere the global is used
 *
 * const client = new Client({ name: 'app', version: '1.0.0' });
 * await client.connect(new WebSocketClientTransport('ws://127.0.0.1:3000/mcp', { WebSocket }));
 */
export class WebSocketClientTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onclose?: (reason?: Error) => void;
  onerror?: (error: Error) => void;

  readonly #url: string;
  readonly #WebSocket: WebSocketConstructor;
  readonly #protocols: string[];
  readonly #headers: Record<string, string> | undefined;
  readonly #reconnect: ResolvedReconnectOptions | undefined;
  #socket: WebSocketLike | undefined = undefined;
  /** With `ws`'s class: holds the frames of one event-loop turn for one TCP write (see write-batch.ts). */
  #batch: WriteBatch | undefined = undefined;
  #started = false;
  #closed = false;
  #reconnecting = false;
  #reconnectTimer: ReturnType<typeof setTimeout> | undefined = undefined;
  /** Set once an `initialize` went out: the session is legacy and lives only as long as this socket. */
  #legacy = false;
  /** Outbound request ids awaiting a response; tracked only with reconnection, to fail them when the socket drops. */
  readonly #inFlight: Set<RequestId> | undefined;

  constructor(url: string | URL, options: WebSocketClientTransportOptions = {}) {
    this.#url = String(url);
    const ctor = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (ctor === undefined) {
      throw new WebSocketTransportError(
        'ERR_WS_CONNECT',
        'WebSocketClientTransport: no global WebSocket here (Node 20?); pass one: `{ WebSocket }` from the ws package',
        { url: this.#url },
      );
    }
    this.#WebSocket = ctor;
    this.#protocols = options.protocols ?? [MCP_SUBPROTOCOL];
    this.#headers = options.headers;
    this.#reconnect = resolveReconnectOptions(options.reconnect);
    this.#inFlight = this.#reconnect === undefined ? undefined : new Set();
  }

  /** The open socket (`undefined` before `start` and while reconnecting); for diagnostics and tests. */
  get socket(): WebSocketLike | undefined {
    return this.#socket;
  }

  /** True once the transport has closed for good. */
  get closed(): boolean {
    return this.#closed;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('WebSocketClientTransport: start() was already called; a transport starts once');
    this.#started = true;
    this.#use(await this.#open());
  }

  send(message: JsonRpcMessage): Promise<void> | undefined {
    const socket = this.#socket;
    if (this.#closed || socket === undefined || socket.readyState !== OPEN) {
      const why = this.#closed ? 'the transport is closed' : this.#reconnecting ? 'reconnecting' : 'not open';
      return Promise.reject(new ConnectionClosedError(`WebSocketClientTransport: cannot send, ${why}`));
    }
    const method = (message as { method?: unknown }).method;
    if (method === 'initialize') this.#legacy = true;
    const id = (message as { id?: RequestId }).id;
    if (this.#inFlight !== undefined && method !== undefined && id !== undefined) this.#inFlight.add(id);
    try {
      this.#batch?.hold();
      socket.send(serializeMessage(message));
    } catch (error) {
      return Promise.reject(error);
    }
    // Accepted: nothing to wait for, and no promise to allocate and settle per message (the peer awaits only promises).
    return undefined;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#finish(undefined);
  }

  #finish(reason: Error | undefined): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#reconnectTimer);
    const socket = this.#socket;
    const batch = this.#batch;
    this.#socket = undefined;
    this.#batch = undefined;
    if (socket !== undefined) {
      detach(socket);
      if (socket.readyState <= OPEN) socket.close(1000);
      // What was sent in this turn and the close frame leave now, in that order.
      batch?.flush();
    }
    this.onclose?.(reason);
  }

  #use(socket: WebSocketLike): void {
    this.#socket = socket;
    this.#batch = writeBatchOf(socket);
  }

  /** Opens a socket and resolves once it is open (or rejects with why it could not be). */
  #open(): Promise<WebSocketLike> {
    return new Promise((resolve, reject) => {
      let socket: WebSocketLike;
      try {
        socket =
          this.#headers === undefined
            ? new this.#WebSocket(this.#url, this.#protocols)
            : new this.#WebSocket(this.#url, this.#protocols, { headers: this.#headers });
      } catch (error) {
        reject(connectError(this.#url, error));
        return;
      }
      socket.binaryType = 'arraybuffer';
      let failure: unknown;
      socket.onerror = (event: { error?: unknown; message?: string }) => {
        failure = event.error ?? event.message;
      };
      socket.onclose = (event: { code: number; reason: string }) => {
        detach(socket);
        reject(connectError(this.#url, failure ?? closedError(event.code, event.reason, this.#url)));
      };
      socket.onopen = () => {
        if (!this.#protocols.includes(socket.protocol) && this.#protocols.length > 0) {
          detach(socket);
          socket.close(1002, 'no MCP subprotocol');
          reject(
            new WebSocketTransportError(
              'ERR_WS_CONNECT',
              `WebSocketClientTransport: the server at ${this.#url} selected subprotocol '${socket.protocol}', not one of ${this.#protocols.join(', ')}`,
              { url: this.#url },
            ),
          );
          return;
        }
        socket.onopen = null;
        socket.onmessage = (event: { data: unknown }) => this.#receive(event.data);
        socket.onerror = (event: { error?: unknown; message?: string }) => {
          const error = event.error ?? event.message;
          this.onerror?.(error instanceof Error ? error : new Error(`WebSocket error: ${String(error ?? 'unknown')}`));
        };
        socket.onclose = (event: { code: number; reason: string }) => this.#dropped(socket, event.code, event.reason);
        resolve(socket);
      };
    });
  }

  #receive(data: unknown): void {
    if (this.#closed) return;
    if (typeof data !== 'string') {
      this.onerror?.(
        new WebSocketTransportError(
          'ERR_WS_BINARY_FRAME',
          'WebSocketClientTransport: ignored a binary frame; MCP over WebSocket sends one JSON-RPC message per text frame',
          { url: this.#url },
        ),
      );
      return;
    }
    const outcome = parseMessage(data);
    if (!outcome.ok) {
      const { code, message } = outcome.error.error;
      this.onerror?.(
        new WebSocketTransportError('ERR_WS_INVALID_MESSAGE', `WebSocketClientTransport: ignored a frame: ${message}`, {
          url: this.#url,
          jsonRpcCode: code,
        }),
      );
      return;
    }
    const response = outcome.message as { method?: unknown; id?: RequestId | null };
    if (this.#inFlight !== undefined && response.method === undefined && response.id != null) {
      this.#inFlight.delete(response.id);
    }
    this.onmessage?.(outcome.message);
  }

  #dropped(socket: WebSocketLike, code: number, reason: string): void {
    detach(socket);
    if (this.#closed || this.#socket !== socket) return;
    this.#socket = undefined;
    this.#batch = undefined;
    const error = closedError(code, reason, this.#url);
    const reconnect = this.#reconnect;
    if (reconnect === undefined) {
      this.#finish(error);
      return;
    }
    if (this.#legacy) {
      // A new socket is a new server session that never saw `initialize`: nothing to resume, so close for real and
      // let the application connect again (which runs `initialize`).
      this.#finish(
        new WebSocketTransportError(
          'ERR_WS_RECONNECT',
          `${error.message}; not reconnecting: a legacy-era session (initialize) cannot be resumed on a new socket, connect again with a new transport to initialize a new session`,
          error.data,
          { cause: error },
        ),
      );
      return;
    }
    this.#failInFlight(error);
    this.#reconnecting = true;
    this.#scheduleReconnect(reconnect, 1, error);
  }

  /** Responses to requests sent on the dropped socket will never arrive: fail them now instead of at their timeout. */
  #failInFlight(error: WebSocketTransportError): void {
    const inFlight = this.#inFlight;
    if (inFlight === undefined || inFlight.size === 0) return;
    const ids = [...inFlight];
    inFlight.clear();
    for (const id of ids) {
      this.onmessage?.({
        jsonrpc: '2.0',
        id,
        error: {
          code: -32000,
          message: `${error.message}; the request may or may not have run on the server (reconnecting)`,
          data: { closeCode: error.data.closeCode },
        },
      });
    }
  }

  #scheduleReconnect(options: ResolvedReconnectOptions, attempt: number, error: Error): void {
    if (attempt > options.maxAttempts) {
      this.#reconnecting = false;
      this.#finish(
        new WebSocketTransportError(
          'ERR_WS_RECONNECT',
          `WebSocketClientTransport: gave up reconnecting to ${this.#url} after ${options.maxAttempts} attempts: ${error.message}`,
          { url: this.#url, attempts: options.maxAttempts },
          { cause: error },
        ),
      );
      return;
    }
    const delayMs = backoffDelay(options, attempt);
    options.onReconnecting?.({ attempt, delayMs, error });
    this.#reconnectTimer = setTimeout(() => {
      this.#open().then(
        (socket) => {
          if (this.#closed) {
            detach(socket);
            socket.close(1000);
            return;
          }
          this.#use(socket);
          this.#reconnecting = false;
          options.onReconnected?.({ attempt });
        },
        (failure: Error) => {
          if (!this.#closed) this.#scheduleReconnect(options, attempt + 1, failure);
        },
      );
    }, delayMs);
  }
}

function detach(socket: WebSocketLike): void {
  socket.onopen = null;
  socket.onmessage = null;
  socket.onerror = null;
  socket.onclose = null;
}

function connectError(url: string, cause: unknown): WebSocketTransportError {
  const detail = cause instanceof Error ? cause.message : String(cause ?? 'unknown error');
  return new WebSocketTransportError(
    'ERR_WS_CONNECT',
    `WebSocketClientTransport: could not connect to ${url}: ${detail}`,
    { url, ...(cause instanceof WebSocketTransportError ? cause.data : {}) },
    { cause },
  );
}
