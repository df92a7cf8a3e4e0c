import type { AbortSource, MessageInfo } from '@mcpkit/jsonrpc-core';
import type { Era } from '@mcpkit/protocol';
import type { ServerSession } from '../session/session';

/** Options of `Server.handle`: one request run with no long-lived peer (stateless HTTP, an extension's replay). */
export interface HandleOptions {
  /** What the transport knows of the request (identity, headers, its abort signal). Default: nothing. */
  info?: MessageInfo;
  /**
   * Aborted when the response can no longer be delivered; `handle` then resolves `undefined`. An `AbortSignal`, or an
   * `AbortSource` such as jsonrpc-core's `AbortLink` (no `AbortSignal` is made unless a handler reads `ctx.signal`).
   */
  signal?: AbortSource;
  /** Where the request's own notifications (progress, logs) go. Default: dropped. */
  notify?: (notification: { jsonrpc: '2.0'; method: string; params?: Record<string, unknown> }) => void | Promise<void>;
  /** The session the request belongs to (a legacy session, or an extension's stand-in). Default: none (stateless). */
  session?: ServerSession;
  /**
   * The era the transport decided for this request (it read the envelope to route it): passed down so the server
   * does not decide again. Default: the server decides (the session's fixed era, else the envelope).
   */
  era?: Era;
}
