import type { AbortSource } from './abort-link';
import type { JsonRpcMessage, JsonRpcRequest, RequestId } from './messages';

/**
 * Who sent a message, as established by the transport or the auth layer in front of it.
 *
 * @example
 * const auth: AuthInfo = { token, clientId: 'app-1', scopes: ['tools:call'], expiresAt: 1767225600 };
 */
export interface AuthInfo {
  /** The bearer token (or other credential) the message arrived with. */
  token: string;
  clientId?: string;
  scopes?: readonly string[];
  /** Expiry, in seconds since the Unix epoch (like the JWT `exp` claim). */
  expiresAt?: number;
  /** The authenticated subject (user) the token stands for. */
  subject?: string;
  /** Anything else the verifier wants handlers to see. */
  extra?: Record<string, unknown>;
}

/**
 * What a transport knows about one inbound message. Handlers see it as `ctx.info`.
 *
 * @example
 * transport.onmessage?.(message, { auth, request: { url: req.url, headers }, signal: responseStream.signal });
 */
export interface MessageInfo {
  /** The authenticated identity, when the transport (or the HTTP auth layer) verified one. */
  auth?: AuthInfo;
  /** Transport request data, for HTTP-like transports. Header names are lower-case. */
  request?: { url?: string; headers?: Record<string, string | undefined> };
  /**
   * Aborted by the transport when the response to this message can no longer be delivered (for example the HTTP
   * response stream closed, which MCP 2026-07-28 defines as cancellation). The peer links it to the handler's
   * `ctx.signal` and sends no response once it is aborted. Only meaningful on requests.
   */
  signal?: AbortSignal;
  /**
   * Called by the receiving server once the request passed its checks (era, capabilities, middleware) and its handler
   * starts. A transport that can still answer with a status of its own (HTTP: a 403 or 429 for a refused request)
   * may hold its response headers until then, or until the response comes, whichever is first. Only meaningful on
   * requests; a receiver that has no such checks may never call it.
   */
  onAccepted?: () => void;
  /**
   * The request of this side's that an inbound message belongs to, when the transport knows it: a Streamable HTTP
   * client sets it on what arrives on the response stream of that request's POST (a legacy server's requests and
   * notifications while it handles the call). Undefined when the transport cannot tell (stdio, WebSocket, a standalone
   * stream).
   */
  relatedRequestId?: RequestId;
}

/** Options the peer passes with each outbound message. */
export interface TransportSendOptions {
  /**
   * The inbound request this message belongs to: for a response, the request it answers; for a notification or a
   * request sent from inside a handler, the request being handled. An HTTP transport uses it to pick the response
   * stream. Absent for messages not tied to a request.
   */
  relatedRequestId?: RequestId;
  /**
   * Outbound requests on a transport with `cancelsBySignal`: aborted when the peer stops waiting for this request's
   * response (its caller aborted it, or it timed out). The transport tells the other side its own way (HTTP in
   * MCP 2026-07-28: close the response stream). Absent on transports that leave cancellation to the peer. Made when
   * first read: a transport that can listen to `cancellation` instead saves making an `AbortSignal` per request.
   */
  signal?: AbortSignal;
  /** The same cancellation as `signal`, as a plain `AbortSource` (present whenever `signal` is). */
  cancellation?: AbortSource;
}

/**
 * A bidirectional message channel. This is the only thing a transport (stdio, HTTP, WebSocket, a third-party plugin)
 * implements; `JsonRpcPeer` does everything else.
 *
 * The contract:
 * - `start()` is called exactly once, by the peer's `connect()`, after the peer has set the callback slots. Begin
 *   reading there, not in the constructor, so no message arrives before `onmessage` is set.
 * - `send()` delivers one message. It may return a promise; rejecting (or throwing) reports that this message was not
 *   sent: the peer fails the matching request with that error. After the transport closed, `send()` must reject or
 *   throw, never drop silently.
 * - `close()` closes the channel; calling it again is a no-op.
 * - `onmessage(message, info)` delivers one parsed message. Transports should validate with `parseMessage`, but the
 *   peer re-checks anything it is given, so handing over a raw parsed object is safe.
 * - `onclose(reason?)` is called exactly once when the channel closes for any reason (local `close()`, the other side
 *   hanging up, a fatal error). No `onmessage` after it. When the channel ended unexpectedly and the transport knows
 *   why (a child process exited with code 1, a socket reset), pass that as `reason`: the peer names it in the
 *   `ConnectionClosedError` of every pending request and keeps it as the `cause`.
 * - `onerror(error)` reports a problem (a bad frame, a failed write). It does not imply close: when the error is
 *   fatal, call `onclose()` too.
 *
 * @example
 * // A transport over a message port (see the README for a complete in-memory transport):
 * class PortTransport implements Transport {
 *   onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
 *   onclose?: () => void;
 *   onerror?: (error: Error) => void;
 *   #closed = false;
 *   constructor(private port: MessagePort) {}
 *   async start() {
 *     this.port.onmessage = (event) => this.onmessage?.(event.data);
 *     this.port.start();
 *   }
 *   send(message: JsonRpcMessage) {
 *     if (this.#closed) throw new Error('PortTransport is closed');
 *     this.port.postMessage(message);
 *   }
 *   async close() {
 *     if (this.#closed) return;
 *     this.#closed = true;
 *     this.port.close();
 *     this.onclose?.();
 *   }
 * }
 */
export interface Transport {
  /** Starts the channel. Called once, after the callback slots are set. */
  start(): Promise<void>;
  /** Sends one message. Reject or throw when it cannot be sent (including after close). */
  send(message: JsonRpcMessage, options?: TransportSendOptions): Promise<void> | void;
  /** Closes the channel. Idempotent. */
  close(): Promise<void>;
  /** Set by the peer: one inbound message and what the transport knows about it. */
  onmessage?: (message: JsonRpcMessage, info?: MessageInfo) => void;
  /** Set by the peer: called exactly once when the channel has closed. */
  onclose?: (reason?: Error) => void;
  /** Set by the peer: a non-fatal problem (fatal ones also call `onclose`). */
  onerror?: (error: Error) => void;
  /**
   * Optional: whether this transport cancels `request` itself when the `signal` of its send options aborts. Return
   * `true` and the peer sends no cancellation notification for it (MCP 2026-07-28 over HTTP: closing the response
   * stream is the cancellation, and a notification must not be sent). Without this method, or for requests it returns
   * `false` for, the peer sends the protocol's cancellation notification (`PeerHooks.cancellationNotification`), as
   * stdio and WebSocket need.
   *
   * @example
   * cancelsBySignal(request) {
   *   return isModernRequest(request); // this transport's own rule
   * }
   * send(message, options) {
   *   const controller = new AbortController();
   *   options?.signal?.addEventListener('abort', () => controller.abort(), { once: true });
   *   return fetch(url, { method: 'POST', body: JSON.stringify(message), signal: controller.signal }).then(...);
   * }
   */
  cancelsBySignal?(request: JsonRpcRequest): boolean;
  /** An identifier for the session this channel carries, when the transport has one. */
  readonly sessionId?: string | undefined;
  /**
   * Optional: deliver to one receiver object instead of the three slots. A peer that finds this method passes its
   * connection and sets no slot closures, which matters for servers holding thousands of idle sessions. The receiver's
   * methods follow the rules of `onmessage`, `onclose` and `onerror`.
   */
  attachReceiver?(receiver: TransportReceiver): void;
}

/**
 * What a transport with `attachReceiver` calls instead of its `onmessage` / `onclose` / `onerror` slots.
 *
 * @example
 * class QueueTransport implements Transport {
 *   #receiver: TransportReceiver | undefined;
 *   attachReceiver(receiver: TransportReceiver) { this.#receiver = receiver; }
 *   push(message: JsonRpcMessage) { this.#receiver?.receiveMessage(message); }
 *   async start() {}
 *   send() {}
 *   async close() { this.#receiver?.transportClosed(); }
 * }
 */
export interface TransportReceiver {
  /** As `onmessage`. */
  receiveMessage(message: JsonRpcMessage, info?: MessageInfo): void;
  /** As `onclose`: exactly once. */
  transportClosed(reason?: Error): void;
  /** As `onerror`. */
  transportError(error: Error): void;
}
