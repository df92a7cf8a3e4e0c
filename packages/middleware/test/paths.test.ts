// The built-ins whose behaviour depends on the path, on every path and in both eras, on both sides: trace context
// propagation, the logging records, the rate limit's error.
import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import { SpanKind } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { type Logger, logging, type RequestRecord } from '../src/logging/index';
import { rateLimit } from '../src/rate-limit/index';
import { tracing } from '../src/tracing/index';
import { parentIdOf, testTracing, traceIdOf } from './fixtures/otel';
import { type Connected, connectOver, PATHS } from './fixtures/paths';
import { testServer } from './fixtures/servers';

const open: Connected[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((connected) => connected.close()));
});

function memoryLogger(): Logger & { records: RequestRecord[] } {
  const records: RequestRecord[] = [];
  const keep = (record: object) => records.push(record as RequestRecord);
  return { records, info: keep, warn: keep, error: keep };
}

describe.each(PATHS)('$name ($era)', (path) => {
  it('one trace across client and server, a log record on each side, and the rate limit error', async () => {
    const { server } = testServer();
    const otel = testTracing();
    const traceOptions = { tracerProvider: otel.provider, propagator: otel.propagator };
    const serverLog = memoryLogger();
    const clientLog = memoryLogger();
    server.use(logging({ logger: serverLog }));
    server.use(tracing(traceOptions));
    server.use(rateLimit({ limit: { capacity: 1, refillPerSecond: 0.01 } }));
    const connected = await connectOver(path, server, (client, transport) => {
      const sessionId = () => transport.sessionId;
      client.use(logging({ logger: clientLog, sessionId }));
      client.use(tracing({ ...traceOptions, sessionId }));
    });
    open.push(connected);
    const { client, transport } = connected;

    const result = await client.callTool({ name: 'echo', arguments: { text: path.name } });
    expect(result.content[0]).toMatchObject({ text: path.name });

    // Tracing: the server span is the child of the client span, in the same trace.
    const sent = otel.span('tools/call echo', SpanKind.CLIENT);
    const received = otel.span('tools/call echo', SpanKind.SERVER);
    expect(traceIdOf(received)).toBe(traceIdOf(sent));
    expect(parentIdOf(received)).toBe(sent.spanContext().spanId);
    const version = path.era === 'modern' ? '2026-07-28' : '2025-11-25';
    expect(received.attributes['mcp.protocol.version']).toBe(version);

    // Logging: one record per side for the call, with era, version and (HTTP sessions) the session id. What the
    // transport asks the server for itself (2026 HTTP reads tools/list for x-mcp-header) is no request: not logged.
    expect(serverLog.records.map((record) => record.method)).not.toContain('tools/list');
    const serverRecord = serverLog.records.find((record) => record.method === 'tools/call');
    expect(serverRecord).toMatchObject({
      side: 'server',
      tool: 'echo',
      era: path.era,
      protocolVersion: version,
      outcome: 'ok',
    });
    const clientRecord = clientLog.records.find((record) => record.method === 'tools/call');
    expect(clientRecord).toMatchObject({
      side: 'client',
      direction: 'outbound',
      tool: 'echo',
      era: path.era,
      outcome: 'ok',
    });
    if (path.sessionIds) {
      expect(transport.sessionId).toBeTypeOf('string');
      expect(serverRecord?.session).toBe(transport.sessionId);
      expect(clientRecord?.session).toBe(transport.sessionId);
      expect(received.attributes['mcp.session.id']).toBe(transport.sessionId);
    } else {
      expect(serverRecord?.session).toBeUndefined();
    }

    // Rate limit: the second call is refused with 429 and the delay, logged and traced as such on the server.
    const error = await client.callTool({ name: 'echo', arguments: { text: 'again' } }).catch((caught) => caught);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error.code).toBe(429);
    expect(error.data).toMatchObject({ limit: 'caller', httpStatus: 429, httpHeaders: { 'retry-after': '100' } });
    // 100 s for a whole token, less the few ms the first call refilled.
    expect(error.data.retryAfterMs).toBeGreaterThan(99_000);
    expect(error.data.retryAfterMs).toBeLessThanOrEqual(100_000);
    const refused = serverLog.records.filter((record) => record.method === 'tools/call').at(-1);
    expect(refused).toMatchObject({ outcome: 'error', errorCode: 429 });
    const refusedSpan = otel.spans().filter((span) => span.kind === SpanKind.SERVER && span.name === 'tools/call echo');
    expect(refusedSpan.at(-1)?.attributes['error.type']).toBe('429');
  });
});
