/**
 * JSON-RPC error codes of requests the built-in middleware refuses. Like bearer auth's 401 and 403 they mirror the
 * HTTP status a Streamable HTTP client would understand: MCP reserves -32768…-32000 for JSON-RPC and the spec, so an
 * application's errors live outside that range.
 */
export const MiddlewareErrorCode = {
  /** Over a rate limit (`@mcpkit/middleware/rate-limit`); `data.retryAfterMs` says when to try again. */
  RateLimited: 429,
  /** A tool has as many calls running and waiting as it may (`@mcpkit/middleware/timeouts`). */
  Busy: 503,
  /** A tool did not finish within its deadline and was stopped (`@mcpkit/middleware/timeouts`). */
  TimedOut: 504,
} as const;

/** One of {@link MiddlewareErrorCode}. */
export type MiddlewareErrorCode = (typeof MiddlewareErrorCode)[keyof typeof MiddlewareErrorCode];
