// OpenTelemetry for the sample: W3C trace context, async context (so a handler's own spans nest under the MCP span),
// and a console exporter that writes one JSON line per finished span to stderr (stdout carries the protocol on stdio).
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ExportResultCode, hrTimeToMilliseconds, W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';

/** What the console exporter prints for a span: one line, `{"span":{…}}`. */
export interface PrintedSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  durationMs: number;
  attributes: Record<string, unknown>;
  status: { code: number; message?: string };
}

/** A console span exporter: one JSON line per span on stderr, which is safe on a stdio server. */
export class StderrSpanExporter implements SpanExporter {
  constructor(private readonly write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)) {}

  export(spans: ReadableSpan[], done: (result: { code: ExportResultCode }) => void): void {
    for (const span of spans) {
      const printed: PrintedSpan = {
        name: span.name,
        kind: span.kind,
        traceId: span.spanContext().traceId,
        spanId: span.spanContext().spanId,
        parentSpanId: span.parentSpanContext?.spanId,
        durationMs: hrTimeToMilliseconds(span.duration),
        attributes: { ...span.attributes },
        status: span.status,
      };
      this.write(JSON.stringify({ span: printed }));
    }
    done({ code: ExportResultCode.SUCCESS });
  }

  async shutdown(): Promise<void> {}
}

/** A console metric exporter: one JSON line per metric on stderr (`{"metric":{name,unit,points}}`). */
export class StderrMetricExporter implements PushMetricExporter {
  constructor(private readonly write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)) {}

  export(resourceMetrics: ResourceMetrics, done: (result: { code: ExportResultCode }) => void): void {
    for (const scope of resourceMetrics.scopeMetrics) {
      for (const metric of scope.metrics) {
        const points = metric.dataPoints.map((point) => ({ attributes: point.attributes, value: point.value }));
        this.write(JSON.stringify({ metric: { name: metric.descriptor.name, unit: metric.descriptor.unit, points } }));
      }
    }
    done({ code: ExportResultCode.SUCCESS });
  }

  async forceFlush(): Promise<void> {}
  async shutdown(): Promise<void> {}
}

/** Installs tracing (console exporter) and metrics (console exporter, every `metricsIntervalMs`) globally. */
export function startTelemetry(options: { exporter?: SpanExporter; metricsIntervalMs?: number } = {}) {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(options.exporter ?? new StderrSpanExporter())],
  });
  trace.setGlobalTracerProvider(tracerProvider);
  const meterProvider = new MeterProvider({
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new StderrMetricExporter(),
        exportIntervalMillis: options.metricsIntervalMs ?? 60_000,
      }),
    ],
  });
  return {
    tracerProvider,
    meterProvider,
    async shutdown() {
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}
