import { defineCodedError } from '@mcpkit/jsonrpc-core';

/** Debug data of a {@link KeepAliveError}. */
export interface KeepAliveErrorData {
  /** Pings in a row that got no answer in time. */
  missed: number;
  intervalMs: number;
  timeoutMs: number;
}

/**
 * Why keep-alive closed a connection: the other side missed `missed` pings in a row. It is the `cause` of the
 * `ConnectionClosedError` every request still pending on that connection fails with, and its message is named there.
 */
export class KeepAliveError extends defineCodedError<'ERR_KEEP_ALIVE', KeepAliveErrorData>(
  'KeepAliveError',
  '@mcpkit/middleware/KeepAliveError',
) {}
