import { defineCodedError } from '@mcpkit/jsonrpc-core';

/**
 * Thrown by `AppsServer` when a registration breaks a rule of MCP Apps, and by the host bridge when a view cannot be
 * rendered. `data` names the tool or view and the field at fault.
 */
export class AppsError extends defineCodedError<
  /** A view registration against the spec: a URI that is not `ui://`, a malformed `csp`/`permissions`/`domain`. */
  | 'ERR_INVALID_VIEW'
  /** A tool registration against the spec: a view that does not exist, an unknown visibility value. */
  | 'ERR_INVALID_APP_TOOL'
  /** View HTML larger than the limit (`DEFAULT_MAX_VIEW_HTML_BYTES` unless configured). */
  | 'ERR_VIEW_TOO_LARGE'
  /** The resource read for a view is not an MCP Apps view (wrong MIME type, no HTML). */
  | 'ERR_NOT_A_VIEW'
  /** The double iframe cannot be built: a sandbox URL on the host page's own origin, a container outside a document. */
  | 'ERR_SANDBOX'
  /** The view did not finish its handshake in time. */
  | 'ERR_VIEW_TIMEOUT'
  /** Something was to be sent to the view before its `ui/notifications/initialized` (the spec forbids it). */
  | 'ERR_NOT_INITIALIZED',
  Record<string, unknown>
>('AppsError', '@mcpkit/apps/AppsError') {}
