import { type JsonRpcMessage, type MessageInfo, type Transport, validateMessage } from '@mcpkit/jsonrpc-core';

/** Something messages can be posted to: a `Window` (an iframe's `contentWindow`, `window.parent`), a `MessagePort`, a `Worker`. */
export interface PostMessageTarget {
  postMessage(message: unknown, ...rest: never[]): void;
}

/** Where inbound `message` events come from: the global `window`/`self`, a `MessagePort`, a `Worker`. */
export interface PostMessageSource {
  addEventListener(type: 'message', listener: (event: Event) => void): void;
  removeEventListener(type: 'message', listener: (event: Event) => void): void;
  start?: () => void;
}

/** Options of `PostMessageTransport`. */
export interface PostMessageTransportOptions {
  /** Where messages are posted. A `Window` gets `postMessage(message, targetOrigin)`; a port or worker `postMessage(message)`. */
  target: PostMessageTarget;
  /**
   * Where inbound messages are heard. Default: the target itself when it is a port or worker, the global `window`
   * (or `self`) when the target is a window.
   */
  source?: PostMessageSource;
  /**
   * The origin posted to when the target is a window. Default `'*'`, the only value that reaches a sandboxed iframe
   * without `allow-same-origin` (its origin is opaque); name the origin whenever it is known.
   */
  targetOrigin?: string;
  /**
   * The origins inbound window messages may come from: a list (`'null'` for an opaque-origin sandboxed iframe), or a
   * function. Default: the `targetOrigin` when it is an origin, any origin when it is `'*'`. Messages from elsewhere
   * are dropped and reported to `onrejected`.
   */
  allowedOrigins?: readonly string[] | ((origin: string) => boolean);
  /**
   * The window inbound messages must come from (`event.source`). Default: the target when it is a window, so a
   * message another frame posts to this window is not taken for the peer's. `null` checks no source.
   */
  expectedSource?: unknown;
  /** Called with each inbound message dropped by the origin or source check (never delivered, never answered). */
  onrejected?: (reason: 'origin' | 'source', event: MessageEvent) => void;
}

function isWindow(target: unknown): boolean {
  // A cross-origin WindowProxy still exposes `window` (itself); ports and workers have none.
  try {
    return (target as { window?: unknown }).window === target;
  } catch {
    return false;
  }
}

/**
 * A `Transport` of `@mcpkit/jsonrpc-core` over `postMessage`: between a page and an iframe (MCP Apps), a page and a
 * Web Worker, or the two ends of a `MessageChannel`. Messages travel as structured-cloned objects. Inbound window
 * messages are checked for origin and source first (a mismatch is dropped and reported to `onrejected`), then
 * validated as JSON-RPC: a malformed request is answered with a -32600 error, anything else malformed is reported to
 * `onerror`; nothing reaches the peer unchecked.
 *
 * It is also this repository's smallest example of a custom transport: `start`, `send`, `close` and the three slots.
 *
 * @example
 * ```ts
 * // In a page, to a worker:
 * const peer = new JsonRpcPeer();
 * await peer.connect(new PostMessageTransport({ target: new Worker('./worker.js', { type: 'module' }) }));
 * // In the worker:
 * await peer.connect(new PostMessageTransport({ target: self as unknown as PostMessageTarget }));
 * // In an iframe, to its parent, from a known origin:
 * new PostMessageTransport({ target: window.parent, targetOrigin: 'https://host.example' });
 * ```
 */
export class PostMessageTransport implements Transport {
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  onclose?: (reason?: Error) => void;
  onerror?: (error: Error) => void;
  readonly #target: PostMessageTarget;
  readonly #source: PostMessageSource;
  readonly #window: boolean;
  readonly #targetOrigin: string;
  readonly #allowed: (origin: string) => boolean;
  readonly #expectedSource: unknown;
  readonly #onrejected: PostMessageTransportOptions['onrejected'];
  #state: 'new' | 'open' | 'closed' = 'new';

  constructor(options: PostMessageTransportOptions) {
    this.#target = options.target;
    this.#window = isWindow(options.target);
    this.#source =
      options.source ??
      (this.#window ? (globalThis as unknown as PostMessageSource) : (options.target as unknown as PostMessageSource));
    this.#targetOrigin = options.targetOrigin ?? '*';
    const allowed = options.allowedOrigins;
    this.#allowed =
      typeof allowed === 'function'
        ? allowed
        : allowed !== undefined
          ? (origin) => allowed.includes(origin)
          : this.#targetOrigin === '*'
            ? () => true
            : (origin) => origin === this.#targetOrigin;
    this.#expectedSource =
      options.expectedSource === undefined ? (this.#window ? options.target : null) : options.expectedSource;
    this.#onrejected = options.onrejected;
  }

  async start(): Promise<void> {
    if (this.#state !== 'new') throw new Error('PostMessageTransport: start() may be called once');
    this.#state = 'open';
    this.#source.addEventListener('message', this.#listener);
    this.#source.start?.(); // a MessagePort delivers nothing before start()
  }

  send(message: JsonRpcMessage): void {
    if (this.#state !== 'open') throw new Error(`PostMessageTransport: cannot send, the transport is ${this.#state}`);
    if (this.#window) (this.#target as Window).postMessage(message, this.#targetOrigin);
    else this.#target.postMessage(message);
  }

  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    this.#source.removeEventListener('message', this.#listener);
    this.onclose?.();
  }

  readonly #listener = (received: Event): void => {
    const event = received as MessageEvent;
    if (this.#state !== 'open') return;
    if (this.#window || event.origin !== '') {
      if (this.#expectedSource !== null && event.source !== this.#expectedSource) {
        this.#onrejected?.('source', event);
        return;
      }
      if (!this.#allowed(event.origin)) {
        this.#onrejected?.('origin', event);
        return;
      }
    }
    const result = validateMessage(event.data);
    if (result.ok) {
      this.onmessage?.(result.message);
      return;
    }
    const error = new Error(
      `PostMessageTransport: dropped a message that is not JSON-RPC: ${result.error.error.message}`,
    );
    this.onerror?.(error);
    // A request we can name gets its error; answering anything else could start a loop of errors between the peers.
    if (result.error.id !== null) this.send(result.error);
  };
}
