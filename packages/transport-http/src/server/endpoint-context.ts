import type { AuthInfo, JsonRpcNotification } from '@mcpkit/jsonrpc-core';
import type { Server, ServerSession } from '@mcpkit/server';
import { requestInfoOf } from './request-info';
import type { ResponseMode } from './stateless';

/** @internal What the era endpoints of one handler share (set once, read on every request). */
export interface EndpointContext {
  readonly server: Server;
  readonly mode: ResponseMode;
  readonly keepAliveMs: number;
  readonly maxBufferedBytes: number;
  readonly onError: (error: Error) => void;
}

/**
 * A notification without a session (2026-07-28, or legacy stateless mode): delivered to the server (its middleware and
 * handler); the POST is answered 202 at once, so failures go to `onError`.
 */
export function notifyServer(
  context: EndpointContext,
  message: JsonRpcNotification,
  auth: AuthInfo | undefined,
  request: Request,
  session: ServerSession | undefined,
): void {
  const info = auth === undefined ? { request: requestInfoOf(request) } : { auth, request: requestInfoOf(request) };
  context.server.handleNotification(message, { info, session }).catch((error) => context.onError(error));
}
