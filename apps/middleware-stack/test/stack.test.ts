import type { Client } from '@mcpkit/client';
import { JsonRpcError, type JsonRpcMessage, type Transport } from '@mcpkit/jsonrpc-core';
import { ToolCallDeniedError } from '@mcpkit/middleware/client';
import { tapTransport } from '@mcpkit/middleware/transport';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { SpanKind } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { createStackClient, type StackClientOptions } from '../src/client';
import { type HttpServer, httpServer, readStderr, type ServerOutput, stdioServer, until } from './fixtures';

// The client runs here with an in-memory span exporter; each server runs in its own process and prints its spans on
// stderr. Two processes share no async context: the only way a server span can join the client's trace is the
// trace context the client put in params._meta.

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

function clientTracing() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, options: { tracerProvider, propagator: new W3CTraceContextPropagator() } };
}

async function overStdio(options: StackClientOptions = {}, wrap?: (transport: Transport) => Transport) {
  const { transport, output } = stdioServer();
  const client = createStackClient({ log: () => {}, ...options });
  cleanups.push(() => client.close());
  await client.connect(wrap ? wrap(transport) : transport);
  readStderr(transport, output);
  await client.listTools(); // approval learns the tools' annotations from it
  return { client, output };
}

async function overHttp(era: 'legacy' | 'modern', options: StackClientOptions = {}) {
  const server: HttpServer = await httpServer();
  cleanups.push(() => server.stop());
  const client = createStackClient({ log: () => {}, ...options });
  cleanups.push(() => client.close());
  await client.connect(new StreamableHttpClientTransport(server.url, { reconnect: { maxAttempts: 0 } }), { era });
  await client.listTools();
  return { client, output: server.output };
}

async function expectOneTrace(client: Client, output: ServerOutput, exporter: InMemorySpanExporter) {
  await client.callTool({ name: 'lookup', arguments: { name: 'groceries' } });
  const sent = exporter.getFinishedSpans().find((span) => span.name === 'tools/call lookup');
  expect(sent?.kind).toBe(SpanKind.CLIENT);
  await until(() => output.spans.some((span) => span.name === 'tools/call lookup'));
  const received = output.spans.find((span) => span.name === 'tools/call lookup')!;
  expect(received.kind).toBe(SpanKind.SERVER);
  expect(received.traceId).toBe(sent!.spanContext().traceId);
  expect(received.parentSpanId).toBe(sent!.spanContext().spanId);
  expect(received.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'lookup' });
}

describe('one trace across client and server', () => {
  it('over stdio', async () => {
    const { exporter, options } = clientTracing();
    const { client, output } = await overStdio({ tracing: options });
    await expectOneTrace(client, output, exporter);
  });

  it('over Streamable HTTP (2026-07-28)', async () => {
    const { exporter, options } = clientTracing();
    const { client, output } = await overHttp('modern', { tracing: options });
    await expectOneTrace(client, output, exporter);
  });

  it('over Streamable HTTP (legacy session)', async () => {
    const { exporter, options } = clientTracing();
    const { client, output } = await overHttp('legacy', { tracing: options });
    await expectOneTrace(client, output, exporter);
  });
});

describe('the server stack', () => {
  it('refuses a rate-limited client with the documented error', async () => {
    const { client, output } = await overStdio();
    await client.callTool({ name: 'search', arguments: { query: 'milk' } });
    await client.callTool({ name: 'search', arguments: { query: 'eggs' } });
    const error = await client.callTool({ name: 'search', arguments: { query: 'flour' } }).catch((caught) => caught);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error.code).toBe(429);
    expect(error.message).toMatch(
      /^Rate limit exceeded for tool "search": 2 requests, 0\.1 more per second; retry in (9|10) s$/,
    );
    expect(error.data).toMatchObject({
      limit: 'tool',
      tool: 'search',
      capacity: 2,
      refillPerSecond: 0.1,
      httpStatus: 429,
    });
    expect(error.data.retryAfterMs).toBeGreaterThan(9_000);
    expect(error.data.retryAfterMs).toBeLessThanOrEqual(10_000);
    await until(() => output.records.filter((record) => record.tool === 'search').length === 3);
    expect(output.records.filter((record) => record.tool === 'search').map((record) => record.outcome)).toEqual([
      'ok',
      'ok',
      'error',
    ]);
  });

  it('stops a tool at its deadline with a clear error', async () => {
    const { client } = await overStdio();
    const started = Date.now();
    const error = await client.callTool({ name: 'report', arguments: {} }).catch((caught) => caught);
    expect(Date.now() - started).toBeLessThan(1_900);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error.code).toBe(504);
    expect(error.message).toBe(
      'Tool "report" did not finish within 500 ms and was stopped; try again, or ask for less',
    );
  });
});

describe('the client stack', () => {
  it('a denied approval sends nothing', async () => {
    const sent: JsonRpcMessage[] = [];
    const asked: string[] = [];
    const { client, output } = await overStdio(
      {
        approve: ({ tool, annotations }) => {
          asked.push(`${tool} destructive=${String(annotations?.destructiveHint)}`);
          return tool !== 'delete_note';
        },
      },
      (transport) => tapTransport(transport, { outbound: (message) => sent.push(message) }),
    );
    const before = sent.length;
    const error = await client.callTool({ name: 'delete_note', arguments: { name: 'ideas' } }).catch((e) => e);
    expect(error).toBeInstanceOf(ToolCallDeniedError);
    expect(asked).toEqual(['delete_note destructive=true']);
    expect(sent.length).toBe(before);
    // The server never heard of it either: it logged the call made after it, not the refused one.
    await client.callTool({ name: 'lookup', arguments: { name: 'ideas' } });
    await until(() => output.records.some((record) => record.tool === 'lookup'));
    expect(output.records.some((record) => record.tool === 'delete_note')).toBe(false);
  });

  it('retries resources/read after a transient failure', async () => {
    const retried: { method: string; attempt: number }[] = [];
    const { client, output } = await overStdio({ onRetry: (info) => retried.push(info) });
    const result = await client.readResource({ uri: 'notes://today' });
    expect(result.contents[0]).toMatchObject({ uri: 'notes://today', text: 'eggs, flour, milk' });
    expect(retried).toMatchObject([{ method: 'resources/read', attempt: 1 }]);
    await until(() => output.records.filter((record) => record.method === 'resources/read').length === 2);
    expect(
      output.records.filter((record) => record.method === 'resources/read').map((r) => [r.outcome, r.errorCode]),
    ).toEqual([
      ['error', 503],
      ['ok', undefined],
    ]);
  });
});
