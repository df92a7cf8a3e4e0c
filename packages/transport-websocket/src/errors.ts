import { defineCodedError } from '@mcpkit/jsonrpc-core';

/** What went wrong on a WebSocket transport; `code` is stable, the message is for people. */
export type WebSocketTransportErrorCode =
  /** The socket closed; `data.closeCode` / `data.closeReason` say how. */
  | 'ERR_WS_CLOSED'
  /** The socket could not be opened (refused upgrade, network error, no `mcp` subprotocol). */
  | 'ERR_WS_CONNECT'
  /** A binary frame arrived; MCP over WebSocket carries one JSON-RPC message per text frame. */
  | 'ERR_WS_BINARY_FRAME'
  /** A text frame that is not one valid JSON-RPC message. */
  | 'ERR_WS_INVALID_MESSAGE'
  /** Reconnection is off, exhausted, or impossible (a legacy-era session cannot be resumed on a new socket). */
  | 'ERR_WS_RECONNECT';

/** What a `WebSocketTransportError` knows; every field is optional. */
export interface WebSocketTransportErrorData {
  /** The WebSocket close code (1000 normal, 1006 abnormal, 1009 message too big, …). */
  closeCode?: number;
  /** The close reason the other side sent, if any. */
  closeReason?: string;
  /** The URL the socket was opened to. */
  url?: string;
  /** For invalid messages: the JSON-RPC error code (-32700 parse error, -32600 invalid request). */
  jsonRpcCode?: number;
  /** Reconnection: attempts made so far. */
  attempts?: number;
}

/**
 * An error raised by `WebSocketClientTransport` or the `/node` server transport. Passed to `onerror`, and to `onclose`
 * as the reason when the socket closed without our asking, so pending requests fail with a `ConnectionClosedError`
 * whose message names the close code.
 *
 * @example
 * transport.onerror = (error) => {
 *   if (error instanceof WebSocketTransportError && error.code === 'ERR_WS_BINARY_FRAME') console.warn(error.message);
 * };
 */
export class WebSocketTransportError extends defineCodedError<WebSocketTransportErrorCode, WebSocketTransportErrorData>(
  'WebSocketTransportError',
  '@mcpkit/transport-websocket/WebSocketTransportError',
) {}

/** Names the well-known close codes, so a message says "1009 (message too big)" and not a bare number. */
export function describeCloseCode(code: number): string {
  const name = CLOSE_CODE_NAMES[code];
  return name === undefined ? String(code) : `${code} (${name})`;
}

const CLOSE_CODE_NAMES: Record<number, string> = {
  1000: 'normal closure',
  1001: 'going away',
  1002: 'protocol error',
  1003: 'unsupported data',
  1005: 'no status',
  1006: 'abnormal closure: the connection dropped without a close frame',
  1007: 'invalid frame payload data',
  1008: 'policy violation',
  1009: 'message too big',
  1011: 'internal error',
  1012: 'service restart',
  1013: 'try again later',
};

/** The error passed to `onclose` when the other side (or the network) closed the socket. */
export function closedError(closeCode: number, closeReason: string, url: string | undefined): WebSocketTransportError {
  const why = closeReason === '' ? '' : `, reason "${closeReason}"`;
  return new WebSocketTransportError(
    'ERR_WS_CLOSED',
    `WebSocket closed with code ${describeCloseCode(closeCode)}${why}`,
    { closeCode, closeReason, url },
  );
}
