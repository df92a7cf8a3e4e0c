import { isJsonObject, type Middleware } from '@mcpkit/jsonrpc-core';
import type { OutboundMessage } from '@mcpkit/server';
import {
  type Attributes,
  type Context,
  context,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapPropagator,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import {
  type AnyContext,
  directionOf,
  errorCodeOf,
  isClientContext,
  isToolError,
  requestIdOf,
  serverSessionIdOf,
  targetOf,
} from '../shared/request-facts';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_SESSION_ID,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  errorTypeOf,
  spanNameOf,
  TOOL_ERROR,
  targetAttributes,
} from '../shared/semconv';

const TRACER_NAME = '@mcpkit/middleware';

/** Options of {@link tracing}. */
export interface TracingOptions {
  /** Where spans are made. Default: the global tracer provider (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider;
  /** How trace context is written to and read from `params._meta`. Default: the global propagator (W3C Trace Context with the OpenTelemetry SDKs). */
  propagator?: TextMapPropagator;
  /** Spans for notifications too (received ones; sent ones carry trace context either way). Default `true`. */
  notifications?: boolean;
  /** Put the resource URI in span names (`resources/read file:///a.txt`). Default `false`: URIs are high-cardinality. */
  resourceUriInSpanName?: boolean;
  /** Record a tool call's arguments as `gen_ai.tool.call.arguments` (JSON). Default `false`: they may be sensitive. */
  toolArguments?: boolean;
  /** The session id, where the context does not know it (a client: `() => transport.sessionId`). */
  sessionId?: (ctx: AnyContext) => string | undefined;
  /** More attributes for every span. */
  attributes?: (ctx: AnyContext) => Attributes | undefined;
}

/** The middleware {@link tracing} returns, with the hook for what the server sends. */
export interface TracingMiddleware extends Middleware<AnyContext, unknown> {
  /**
   * For `server.useOutbound()`: a client span around every server→client request (legacy era) with its trace context
   * in `params._meta`, and trace context on every notification sent from inside a traced request.
   */
  readonly outbound: Middleware<OutboundMessage, unknown>;
}

type Meta = Record<string, unknown>;

const setter = {
  set(carrier: Meta, key: string, value: string) {
    carrier[key] = value;
  },
};
const getter = {
  keys: (carrier: Meta) => Object.keys(carrier),
  get(carrier: Meta, key: string) {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

function metaOf(params: Record<string, unknown> | undefined): Meta | undefined {
  const meta = params?._meta;
  return isJsonObject(meta) ? (meta as Meta) : undefined;
}

/**
 * OpenTelemetry tracing on either side, after the semantic conventions for MCP: a span per request and notification
 * named `{mcp.method.name} {tool or prompt}` with `mcp.method.name`, `mcp.protocol.version`, `mcp.session.id`,
 * `jsonrpc.request.id`, `gen_ai.tool.name` / `gen_ai.prompt.name` / `mcp.resource.uri`, and on failure `error.type`,
 * `rpc.response.status_code` and an error status. The client writes W3C trace context (`traceparent`,
 * `tracestate`) into `params._meta` of what it sends; the server reads it and makes its span a child of the
 * client's, so both share one trace over stdio, HTTP and WebSocket, in both eras. Needs `@opentelemetry/api` (an
 * optional peer dependency) and an SDK you configure; without one every span is a no-op.
 *
 * @example
 * const traced = tracing();
 * server.use(traced);
 * server.useOutbound(traced.outbound);
 * client.use(tracing({ sessionId: () => transport.sessionId }));
 */
export function tracing(options: TracingOptions = {}): TracingMiddleware {
  let tracer: Tracer | undefined;
  const tracerOf = () => {
    tracer ??= (options.tracerProvider ?? trace.getTracerProvider()).getTracer(TRACER_NAME);
    return tracer;
  };
  const propagator = options.propagator;
  const inject = (ctx: Context, carrier: Meta) =>
    propagator === undefined ? propagation.inject(ctx, carrier, setter) : propagator.inject(ctx, carrier, setter);
  const extract = (carrier: Meta) =>
    propagator === undefined
      ? propagation.extract(ROOT_CONTEXT, carrier, getter)
      : propagator.extract(ROOT_CONTEXT, carrier, getter);
  const withNotifications = options.notifications !== false;
  const resourceInName = options.resourceUriInSpanName === true;

  const attributesOf = (ctx: AnyContext): Attributes => {
    const attributes: Record<string, string> = { [ATTR_MCP_METHOD_NAME]: ctx.method };
    if (ctx.protocolVersion !== undefined) attributes[ATTR_MCP_PROTOCOL_VERSION] = ctx.protocolVersion;
    const id = requestIdOf(ctx);
    if (id !== undefined) attributes[ATTR_JSONRPC_REQUEST_ID] = String(id);
    const session = options.sessionId?.(ctx) ?? (isClientContext(ctx) ? undefined : serverSessionIdOf(ctx));
    if (session !== undefined) attributes[ATTR_MCP_SESSION_ID] = session;
    const target = targetOf(ctx.method, ctx.params);
    targetAttributes(target, attributes);
    if (options.toolArguments === true && target.tool !== undefined && ctx.params?.arguments !== undefined) {
      attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] = JSON.stringify(ctx.params.arguments);
    }
    const extra = options.attributes?.(ctx);
    return extra === undefined ? attributes : { ...attributes, ...extra };
  };

  const run = async (
    span: Span,
    active: Context,
    method: string,
    next: () => Promise<unknown>,
    sent?: () => string | number | undefined,
  ) => {
    try {
      const result = await context.with(active, next);
      if (method === 'tools/call' && isToolError(result)) {
        span.setAttribute(ATTR_ERROR_TYPE, TOOL_ERROR);
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      return result;
    } catch (error) {
      fail(span, error);
      throw error;
    } finally {
      // A client learns its request's id only once next() sent it.
      const id = sent?.();
      if (id !== undefined) span.setAttribute(ATTR_JSONRPC_REQUEST_ID, String(id));
      span.end();
    }
  };

  const middleware = ((ctx: AnyContext, next: () => Promise<unknown>) => {
    if (ctx.kind === 'notification' && !withNotifications) return next();
    const target = targetOf(ctx.method, ctx.params);
    const name = spanNameOf(ctx.method, target, resourceInName);
    const ambient = context.active();
    if (directionOf(ctx) === 'outbound') {
      // The client's span for a request it sends; its context travels in params._meta.
      const span = tracerOf().startSpan(name, { kind: SpanKind.CLIENT, attributes: attributesOf(ctx) }, ambient);
      const active = trace.setSpan(ambient, span);
      const request = ctx as AnyContext & { params: Record<string, unknown> | undefined };
      const meta: Meta = { ...metaOf(request.params) };
      inject(active, meta);
      request.params = { ...request.params, _meta: meta };
      return run(span, active, ctx.method, next, () => requestIdOf(ctx));
    }
    // A request or notification received: the sender's context (from _meta) is the parent; an ambient one (an HTTP
    // server span) is linked, as the conventions say.
    const meta = metaOf(ctx.params);
    const remote = meta === undefined ? undefined : extract(meta);
    const remoteSpan = remote === undefined ? undefined : trace.getSpanContext(remote);
    const parent = remoteSpan === undefined ? ambient : (remote as Context);
    const ambientSpan = remoteSpan === undefined ? undefined : trace.getSpanContext(ambient);
    const links: Link[] | undefined = ambientSpan === undefined ? undefined : [{ context: ambientSpan }];
    const span = tracerOf().startSpan(name, { kind: SpanKind.SERVER, attributes: attributesOf(ctx), links }, parent);
    return run(span, trace.setSpan(parent, span), ctx.method, next);
  }) as TracingMiddleware;

  const outbound: Middleware<OutboundMessage, unknown> = (message, next) => {
    const ambient = context.active();
    if (message.kind === 'notification') {
      // No span of its own: the trace context of the request it belongs to, so the client can link what it receives.
      if (trace.getSpanContext(ambient) === undefined) return next();
      const meta: Meta = { ...metaOf(message.params as Record<string, unknown> | undefined) };
      inject(ambient, meta);
      message.params = { ...(message.params as Record<string, unknown> | undefined), _meta: meta };
      return next();
    }
    const params = message.params as Record<string, unknown> | undefined;
    const attributes: Record<string, string> = { [ATTR_MCP_METHOD_NAME]: message.method };
    const session = message.session?.transport?.sessionId;
    if (session !== undefined) attributes[ATTR_MCP_SESSION_ID] = session;
    if (message.session?.protocolVersion !== undefined) {
      attributes[ATTR_MCP_PROTOCOL_VERSION] = message.session.protocolVersion;
    }
    const span = tracerOf().startSpan(message.method, { kind: SpanKind.CLIENT, attributes }, ambient);
    const active = trace.setSpan(ambient, span);
    const meta: Meta = { ...metaOf(params) };
    inject(active, meta);
    message.params = { ...params, _meta: meta };
    return run(span, active, message.method, next);
  };

  Object.defineProperty(middleware, 'outbound', { value: outbound, enumerable: true });
  return middleware;
}

function fail(span: Span, error: unknown): void {
  span.setAttribute(ATTR_ERROR_TYPE, errorTypeOf(error));
  const code = errorCodeOf(error);
  if (typeof code === 'number') span.setAttribute(ATTR_RPC_RESPONSE_STATUS_CODE, String(code));
  const message = error instanceof Error ? error.message : undefined;
  span.setStatus(message === undefined ? { code: SpanStatusCode.ERROR } : { code: SpanStatusCode.ERROR, message });
}
