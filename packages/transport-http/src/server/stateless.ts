import {
  AbortLink,
  type AuthInfo,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type MessageInfo,
  toErrorObject,
} from '@mcpkit/jsonrpc-core';
import { type Era, McpErrorCode } from '@mcpkit/protocol';
import type { Server, ServerSession } from '@mcpkit/server';
import { httpRefusalOf } from './http-refusal';
import { jsonReply, type Reply, reply } from './reply';
import { onRequestAbort } from './request-abort';
import { formatEvent, SSE_HEADERS, SseWriter } from './sse';

// One request, one response, no session: the 2026-07-28 path and the legacy stateless mode. Headers wait for the
// first message: a response that comes first goes out as JSON (with a status that says what went wrong), a
// notification that comes first opens an SSE stream that the response then ends. Closing that stream, or the
// connection, aborts the request (2026-07-28: that is how a client cancels).

/** How a request's response is sent: always SSE, always JSON, or JSON unless something comes before the response. */
export type ResponseMode = 'sse' | 'json' | 'auto';

/** What one stateless run needs. */
export interface StatelessRun {
  readonly server: Server;
  readonly message: JsonRpcRequest;
  readonly auth: AuthInfo | undefined;
  readonly requestInfo: MessageInfo['request'];
  readonly session: ServerSession | undefined;
  readonly mode: ResponseMode;
  readonly keepAliveMs: number;
  /** What an SSE response may hold for a client that does not read (see SseWriter). */
  readonly maxBufferedBytes: number;
  /**
   * The era the handler decided for the request, handed to `Server.handle` so the server does not decide again.
   * 2026-07-28: protocol errors get HTTP statuses (404 for -32601, 400 for envelope and header errors).
   */
  readonly era: Era;
  /** The HTTP request: the run is aborted when its client goes away. */
  readonly request: Request | undefined;
}

/** The HTTP status of a response sent as JSON. */
export function statusOf(response: JsonRpcResponse, era: Era): number {
  // Era branch kept: the HTTP binding of 2026-07-28 maps protocol errors to statuses; the legacy binding answers every
  // response 200. The era was decided by the handler and handed down in `run.era`.
  if (era !== 'modern' || !('error' in response) || response.error === undefined) return 200;
  const { code, data } = response.error;
  if (code === McpErrorCode.MethodNotFound) return 404;
  if (
    code === McpErrorCode.HeaderMismatch ||
    code === McpErrorCode.MissingRequiredClientCapability ||
    code === McpErrorCode.UnsupportedProtocolVersion
  ) {
    return 400;
  }
  // -32602 about the _meta envelope (missing or malformed required keys) is a 400; other -32602s are answers.
  if (code === McpErrorCode.InvalidParams && data !== null && typeof data === 'object' && 'missing' in data) return 400;
  return 200;
}

/** Runs one request through `Server.handle` and streams or returns its response. */
export function runStateless(run: StatelessRun): Promise<Reply> {
  // An AbortLink, not an AbortController: most requests are never aborted, and nothing reads an AbortSignal unless a
  // handler asks for `ctx.signal` (or `ctx.info.signal`), which makes one then.
  const cancel = new AbortLink();
  const stopListening =
    run.request === undefined ? undefined : onRequestAbort(run.request, (reason) => cancel.abort(reason));
  const info: MessageInfo =
    run.auth === undefined
      ? {
          request: run.requestInfo,
          get signal() {
            return cancel.signal;
          },
        }
      : {
          auth: run.auth,
          request: run.requestInfo,
          get signal() {
            return cancel.signal;
          },
        };
  let sink: SseWriter | undefined;
  let settle!: (answer: Reply) => void;
  const answer = new Promise<Reply>((resolve) => {
    settle = resolve;
  });
  const notify =
    run.mode === 'json'
      ? undefined
      : (notification: { jsonrpc: '2.0'; method: string; params?: Record<string, unknown> }) => {
          if (sink === undefined) {
            // Something comes before the response: the answer becomes an SSE stream the response will end.
            const writer = new SseWriter(run.keepAliveMs, run.maxBufferedBytes);
            writer.onCancel = () => cancel.abort(new Error('The client closed the response stream'));
            sink = writer;
            settle(reply(200, SSE_HEADERS, undefined, writer));
          }
          sink.event(JSON.stringify(notification));
        };
  run.server.handle(run.message, { info, signal: cancel, notify, session: run.session, era: run.era }).then(
    (response) => {
      stopListening?.();
      if (response === undefined) {
        // Cancelled: nothing more may be sent.
        sink?.close();
        settle(reply(499));
        return;
      }
      if (sink !== undefined) {
        sink.event(JSON.stringify(response));
        sink.close();
        return;
      }
      // A refusal before the handler started may name its own HTTP status (a 403 with WWW-Authenticate, a 429).
      const refusal = httpRefusalOf(response);
      if (refusal !== undefined) {
        settle(jsonReply(refusal.status, response, refusal.headers));
        return;
      }
      const status = statusOf(response, run.era);
      // The whole SSE body is known at once: one string, no stream.
      if (run.mode === 'sse' && status === 200) settle(reply(200, SSE_HEADERS, formatEvent(JSON.stringify(response))));
      else settle(jsonReply(status, response));
    },
    (error: unknown) => {
      // Server.handle turns handler errors into responses; reaching here is a bug in a hook. Fail loudly.
      stopListening?.();
      sink?.close();
      settle(
        jsonReply(500, {
          jsonrpc: '2.0',
          id: run.message.id,
          error: toErrorObject(error),
        }),
      );
    },
  );
  return answer;
}
