import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { afterEach, describe, expect, it } from 'vitest';
import { metrics } from '../src/metrics/index';
import { closePairs, pair } from './fixtures/memory-pair';
import { testServer } from './fixtures/servers';

afterEach(closePairs);

/** A reader collected on demand. */
class TestReader extends MetricReader {
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

interface Point {
  attributes: Record<string, unknown>;
  value: unknown;
}

async function collect(reader: TestReader): Promise<Map<string, { unit: string; points: Point[] }>> {
  const { resourceMetrics } = (await reader.collect()) as { resourceMetrics: ResourceMetrics };
  const out = new Map<string, { unit: string; points: Point[] }>();
  for (const scope of resourceMetrics.scopeMetrics) {
    for (const metric of scope.metrics) {
      out.set(metric.descriptor.name, {
        unit: metric.descriptor.unit,
        points: metric.dataPoints.map((point) => ({ attributes: point.attributes, value: point.value })),
      });
    }
  }
  return out;
}

describe('metrics', () => {
  it('records a duration histogram per method and tool on both sides, errors by error.type', async () => {
    const reader = new TestReader();
    const meterProvider = new MeterProvider({ readers: [reader] });
    const { server } = testServer();
    server.use(metrics({ meterProvider }));
    const { client } = await pair(server, { era: 'modern', setup: (c) => c.use(metrics({ meterProvider })) });
    await client.callTool({ name: 'echo', arguments: { text: 'a' } });
    await client.callTool({ name: 'echo', arguments: { text: 'b' } });
    await client.callTool({ name: 'broken', arguments: {} });
    await expect(client.callTool({ name: 'fails', arguments: {} })).rejects.toThrow();

    const collected = await collect(reader);
    const server_ = collected.get('mcp.server.operation.duration');
    expect(server_?.unit).toBe('s');
    const countOf = (points: Point[] | undefined, tool: string, errorType?: string) =>
      (
        points?.find(
          (point) => point.attributes['gen_ai.tool.name'] === tool && point.attributes['error.type'] === errorType,
        )?.value as { count: number } | undefined
      )?.count;
    expect(countOf(server_?.points, 'echo')).toBe(2);
    expect(countOf(server_?.points, 'broken', 'tool_error')).toBe(1);
    expect(countOf(server_?.points, 'fails', '-32602')).toBe(1);
    const failed = server_?.points.find((point) => point.attributes['error.type'] === '-32602');
    expect(failed?.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'rpc.response.status_code': '-32602',
      'mcp.protocol.version': '2026-07-28',
    });
    const client_ = collected.get('mcp.client.operation.duration');
    expect(countOf(client_?.points, 'echo')).toBe(2);
    // Nothing in flight once every call returned.
    const active = collected.get('mcpkit.server.requests.active');
    expect(active?.points.every((point) => point.value === 0)).toBe(true);
  });

  it('counts requests in flight while they run', async () => {
    const reader = new TestReader();
    const meterProvider = new MeterProvider({ readers: [reader] });
    const { server } = testServer();
    server.use(metrics({ meterProvider }));
    const { client } = await pair(server, { era: 'legacy' });
    const running = client.callTool({ name: 'slow', arguments: { ms: 300 } });
    const inFlight = async () =>
      (await collect(reader))
        .get('mcpkit.server.requests.active')
        ?.points.find((point) => point.attributes['mcp.method.name'] === 'tools/call')?.value;
    // Bounded wait until the call reached the server (the machine may be busy), then it counts as one in flight.
    for (let attempt = 0; attempt < 100 && (await inFlight()) !== 1; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(await inFlight()).toBe(1);
    await running;
    const after = (await collect(reader)).get('mcpkit.server.requests.active');
    expect(after?.points.find((point) => point.attributes['mcp.method.name'] === 'tools/call')?.value).toBe(0);
  });
});
