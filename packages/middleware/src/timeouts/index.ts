// @mcpkit/middleware/timeouts: per-tool deadlines and per-tool concurrency limits.

export { MiddlewareErrorCode } from '../shared/errors';
export { type BusyErrorData, type ConcurrencyLimit, type ConcurrencyOptions, concurrency } from './concurrency';
export { type TimeoutErrorData, type TimeoutsOptions, ToolTimeoutError, timeouts } from './timeouts';
