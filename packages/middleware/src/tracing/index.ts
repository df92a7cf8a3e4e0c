// @mcpkit/middleware/tracing: OpenTelemetry spans per request on both sides, W3C trace context in params._meta.
// Needs @opentelemetry/api (an optional peer dependency of @mcpkit/middleware: install it to use this entry).

export type { AnyContext } from '../shared/request-facts';
export { type TracingMiddleware, type TracingOptions, tracing } from './tracing';
