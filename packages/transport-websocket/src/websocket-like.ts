/**
 * The part of the WHATWG `WebSocket` API the client transport uses. Browsers, Deno, Bun and Node 22's global
 * `WebSocket` implement it, and so does the `ws` package's class on Node 20.
 */
export interface WebSocketLike {
  readonly readyState: number;
  /** The subprotocol the server selected. */
  readonly protocol: string;
  binaryType: string;
  // biome-ignore lint/suspicious/noExplicitAny: each implementation types its own event classes
  onopen: ((event: any) => void) | null;
  // biome-ignore lint/suspicious/noExplicitAny: each implementation types its own event classes
  onmessage: ((event: any) => void) | null;
  // biome-ignore lint/suspicious/noExplicitAny: each implementation types its own event classes
  onclose: ((event: any) => void) | null;
  // biome-ignore lint/suspicious/noExplicitAny: each implementation types its own event classes
  onerror: ((event: any) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/**
 * A `WebSocket` constructor: `globalThis.WebSocket`, or `WebSocket` from the `ws` package. The third argument is only
 * passed when `headers` are set, and only `ws` understands it (browsers cannot set WebSocket headers).
 */
export type WebSocketConstructor = new (
  url: string,
  protocols?: string | string[],
  // biome-ignore lint/suspicious/noExplicitAny: ws takes its own options type here; WHATWG constructors take none
  options?: any,
) => WebSocketLike;

/** `WebSocket.OPEN` in every implementation. */
export const OPEN = 1;
