// MCP over a Unix domain socket (a named pipe on Windows): a third-party transport written only against the published
// @mcpkit/jsonrpc-core, the way a plugin author would. The framing is MCP's stdio framing (one JSON-RPC message per
// line), which the spec recommends for any byte stream.
import { createConnection, createServer, type Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ConnectionClosedError,
  encodeLine,
  type JsonRpcMessage,
  LineDecoder,
  type MessageInfo,
  parseMessage,
  type Transport,
} from '@mcpkit/jsonrpc-core';

/**
 * Where a socket named `name` lives: `\\.\pipe\<name>` on Windows (a named pipe), a file in the temp folder elsewhere.
 * Any absolute path works as well on Unix.
 */
export function socketPath(name: string): string {
  return process.platform === 'win32' ? `\\\\.\\pipe\\${name}` : join(tmpdir(), `${name}.sock`);
}

/** Options for `UnixSocketTransport`. */
export interface UnixSocketTransportOptions {
  /** Attached to every message this end delivers (the server: who is on the other end). */
  info?: MessageInfo;
  /** The longest message accepted, in bytes; a longer line is dropped and reported through `onerror`. Default 16 MiB. */
  maxMessageBytes?: number;
}

/**
 * One end of an MCP connection over a connected `net.Socket`. Either end: a socket is symmetric. `close()` ends the
 * socket after what was sent (the other end gets every message, then its `onclose`); the other end hanging up or a
 * socket error closes it too, with the reason.
 */
export class UnixSocketTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onclose?: (reason?: Error) => void;
  onerror?: (error: Error) => void;

  readonly #socket: Socket;
  readonly #info: MessageInfo | undefined;
  readonly #decoder: LineDecoder;
  #closed = false;
  #started = false;

  constructor(socket: Socket, options: UnixSocketTransportOptions = {}) {
    this.#socket = socket;
    this.#info = options.info;
    this.#decoder = new LineDecoder({
      maxLineBytes: options.maxMessageBytes,
      onLine: (line) => this.#line(line),
      onError: (error) => this.onerror?.(error),
    });
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('UnixSocketTransport: start() was already called');
    this.#started = true;
    const socket = this.#socket;
    socket.on('data', (chunk: Buffer) => this.#decoder.push(chunk));
    // The other end finished sending: deliver a last unterminated line, then close. Our end of the socket is ended
    // too (allowHalfOpen is off), so the other end's close completes.
    socket.on('end', () => {
      this.#decoder.end();
      this.#finish(undefined);
    });
    socket.on('error', (error) => this.#finish(error));
    socket.on('close', () => this.#finish(undefined));
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new ConnectionClosedError('UnixSocketTransport: the transport is closed'));
    return new Promise((resolve, reject) => {
      // Back-pressure: write() buffers what the socket cannot take yet; the promise settles when it was written.
      this.#socket.write(encodeLine(message), (error) => (error ? reject(error) : resolve()));
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    // end() flushes everything written so far before the FIN, so nothing sent before close() is lost.
    await new Promise<void>((resolve) => this.#socket.end(resolve));
    this.#finish(undefined);
  }

  #line(line: string): void {
    if (this.#closed) return;
    const result = parseMessage(line);
    if (result.ok) this.onmessage?.(result.message, this.#info);
    else this.onerror?.(new Error(`UnixSocketTransport: ${result.error.error.message}`));
  }

  #finish(reason: Error | undefined): void {
    if (this.#closed) return;
    this.#closed = true;
    if (!this.#socket.destroyed) this.#socket.destroy();
    this.onclose?.(reason);
  }
}

/**
 * The client end: connects to `path` when the client starts it.
 *
 * @example
 * const client = new Client({ name: 'app', version: '1.0.0' });
 * await client.connect(new UnixSocketClientTransport(socketPath('trattoria')));
 */
export class UnixSocketClientTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onclose?: (reason?: Error) => void;
  onerror?: (error: Error) => void;
  readonly #path: string;
  #inner: UnixSocketTransport | undefined;
  #closed = false;

  constructor(path: string) {
    this.#path = path;
  }

  async start(): Promise<void> {
    const socket = await new Promise<Socket>((resolve, reject) => {
      const connecting = createConnection(this.#path, () => {
        connecting.off('error', reject);
        resolve(connecting);
      });
      connecting.once('error', reject);
    });
    const inner = new UnixSocketTransport(socket);
    inner.onmessage = (message, info) => this.onmessage?.(message, info);
    inner.onclose = (reason) => {
      this.#closed = true;
      this.onclose?.(reason);
    };
    inner.onerror = (error) => this.onerror?.(error);
    this.#inner = inner;
    await inner.start();
    // close() came while connecting: the socket is closed as soon as it exists.
    if (this.#closed) await inner.close();
  }

  send(message: JsonRpcMessage): Promise<void> {
    const inner = this.#inner;
    if (inner === undefined || this.#closed) {
      return Promise.reject(new ConnectionClosedError('UnixSocketClientTransport: not connected'));
    }
    return inner.send(message);
  }

  async close(): Promise<void> {
    if (this.#inner === undefined) {
      if (!this.#closed) {
        this.#closed = true;
        this.onclose?.();
      }
      return;
    }
    await this.#inner.close();
  }
}

/** A listening socket that makes one transport per connection. */
export interface UnixSocketListener {
  /** The path clients connect to. */
  readonly path: string;
  /** Stops accepting connections and closes those still open. */
  close(): Promise<void>;
}

/**
 * Listens on `path` and calls `accept` with a transport for each connection, not started (`server.connect` starts
 * it). A stale socket file left by a crashed process is replaced.
 *
 * @example
 * const listener = await listenOnUnixSocket(socketPath('trattoria'), (transport) => server.connect(transport));
 */
export async function listenOnUnixSocket(
  path: string,
  accept: (transport: UnixSocketTransport) => unknown,
): Promise<UnixSocketListener> {
  const sockets = new Set<Socket>();
  const server: NetServer = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    void Promise.resolve(accept(new UnixSocketTransport(socket, { info: { request: { url: `unix:${path}` } } }))).catch(
      () => socket.destroy(),
    );
  });
  if (process.platform !== 'win32') {
    const { rmSync } = await import('node:fs');
    rmSync(path, { force: true });
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    path,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
