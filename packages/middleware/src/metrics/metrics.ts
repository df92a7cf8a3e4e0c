import type { Middleware } from '@mcpkit/jsonrpc-core';
import {
  type Attributes,
  type Histogram,
  type MeterProvider,
  metrics as otelMetrics,
  type UpDownCounter,
} from '@opentelemetry/api';
import { type AnyContext, directionOf, errorCodeOf, isToolError, targetOf } from '../shared/request-facts';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_PROMPT_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  errorTypeOf,
  TOOL_ERROR,
} from '../shared/semconv';

const METER_NAME = '@mcpkit/middleware';
/** The bucket boundaries the conventions recommend for MCP operation durations, in seconds. */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** Options of {@link metrics}. */
export interface MetricsOptions {
  /** Where instruments are made. Default: the global meter provider (`metrics.getMeterProvider()`). */
  meterProvider?: MeterProvider;
  /** Measure notifications too. Default `false`. */
  notifications?: boolean;
  /** More attributes for every measurement (keep them low-cardinality). */
  attributes?: (ctx: AnyContext) => Attributes | undefined;
}

interface Instruments {
  duration: Histogram;
  active: UpDownCounter;
}

/**
 * OpenTelemetry metrics on either side, after the semantic conventions for MCP:
 * - `mcp.server.operation.duration` / `mcp.client.operation.duration` (histogram, seconds, the recommended buckets)
 *   per `mcp.method.name`, `gen_ai.tool.name` / `gen_ai.prompt.name` and `mcp.protocol.version`; failed requests
 *   carry `error.type` (the JSON-RPC code, or `tool_error` for `isError` results) and `rpc.response.status_code`, so
 *   error counts and rates are this histogram's counts filtered on `error.type`;
 * - `mcpkit.server.requests.active` / `mcpkit.client.requests.active` (up-down counter): requests in flight, per
 *   method (not in the conventions, hence the `mcpkit.` namespace).
 *
 * Resource URIs are never attributes (unbounded cardinality). Needs `@opentelemetry/api` and an SDK you configure.
 *
 * @example
 * server.use(metrics());
 * client.use(metrics());
 */
export function metrics(options: MetricsOptions = {}): Middleware<AnyContext, unknown> {
  const sides: Partial<Record<'server' | 'client', Instruments>> = {};
  const instruments = (side: 'server' | 'client'): Instruments => {
    let made = sides[side];
    if (made === undefined) {
      const meter = (options.meterProvider ?? otelMetrics.getMeterProvider()).getMeter(METER_NAME);
      made = {
        duration: meter.createHistogram(`mcp.${side}.operation.duration`, {
          unit: 's',
          description:
            side === 'server'
              ? 'MCP request or notification duration as observed on the receiver'
              : 'MCP request or notification duration as observed on the sender',
          advice: { explicitBucketBoundaries: DURATION_BUCKETS },
        }),
        active: meter.createUpDownCounter(`mcpkit.${side}.requests.active`, {
          unit: '{request}',
          description: 'MCP requests in flight',
        }),
      };
      sides[side] = made;
    }
    return made;
  };
  const withNotifications = options.notifications === true;

  return async (ctx, next) => {
    if (ctx.kind === 'notification' && !withNotifications) return next();
    // The conventions' "client" is the side that sent the request: a server receives, a client sends; a client's
    // server→client requests are measured as the server side of those.
    const side = directionOf(ctx) === 'outbound' ? 'client' : 'server';
    const { duration, active } = instruments(side);
    const attributes: Record<string, string | number | boolean> = { [ATTR_MCP_METHOD_NAME]: ctx.method };
    const target = targetOf(ctx.method, ctx.params);
    if (target.tool !== undefined) {
      attributes[ATTR_GEN_AI_TOOL_NAME] = target.tool;
      attributes[ATTR_GEN_AI_OPERATION_NAME] = 'execute_tool';
    }
    if (target.prompt !== undefined) attributes[ATTR_GEN_AI_PROMPT_NAME] = target.prompt;
    if (ctx.protocolVersion !== undefined) attributes[ATTR_MCP_PROTOCOL_VERSION] = ctx.protocolVersion;
    const extra = options.attributes?.(ctx);
    if (extra !== undefined) Object.assign(attributes, extra);
    const activeAttributes = { [ATTR_MCP_METHOD_NAME]: ctx.method };
    active.add(1, activeAttributes);
    const started = performance.now();
    try {
      const result = await next();
      if (ctx.method === 'tools/call' && isToolError(result)) attributes[ATTR_ERROR_TYPE] = TOOL_ERROR;
      return result;
    } catch (error) {
      attributes[ATTR_ERROR_TYPE] = errorTypeOf(error);
      const code = errorCodeOf(error);
      if (typeof code === 'number') attributes[ATTR_RPC_RESPONSE_STATUS_CODE] = String(code);
      throw error;
    } finally {
      active.add(-1, activeAttributes);
      duration.record((performance.now() - started) / 1000, attributes);
    }
  };
}
