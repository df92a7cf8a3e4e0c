// @mcpkit/middleware/metrics: OpenTelemetry duration histograms and requests in flight, on both sides.
// Needs @opentelemetry/api (an optional peer dependency of @mcpkit/middleware: install it to use this entry).

export type { AnyContext } from '../shared/request-facts';
export { type MetricsOptions, metrics } from './metrics';
