import { ClientRequestContext } from '@mcpkit/client';
import { context, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { tracing } from '../src/tracing/index';
import { closePairs, pair } from './fixtures/memory-pair';
import { parentIdOf, testTracing, traceIdOf } from './fixtures/otel';
import { testServer } from './fixtures/servers';

afterEach(closePairs);

describe('tracing', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`a client span and its server span share one trace through params._meta (${era})`, async () => {
      const { server } = testServer();
      const otel = testTracing();
      const options = { tracerProvider: otel.provider, propagator: otel.propagator };
      server.use(tracing(options));
      const sentMeta: unknown[] = [];
      const { client } = await pair(server, {
        era,
        sessionId: 'session-9',
        setup: (c) => {
          c.use(tracing(options));
          // Inside tracing: sees the params as they go out.
          c.use((ctx, next) => {
            if (ctx instanceof ClientRequestContext) sentMeta.push(ctx.params?._meta);
            return next();
          });
        },
      });
      await client.callTool({ name: 'echo', arguments: { text: 'hi' } });

      const sent = otel.span('tools/call echo', SpanKind.CLIENT);
      const received = otel.span('tools/call echo', SpanKind.SERVER);
      expect(traceIdOf(received)).toBe(traceIdOf(sent));
      expect(parentIdOf(received)).toBe(sent.spanContext().spanId);
      expect(sentMeta.at(-1)).toMatchObject({
        traceparent: `00-${traceIdOf(sent)}-${sent.spanContext().spanId}-01`,
      });
      expect(received.attributes).toMatchObject({
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'echo',
        'gen_ai.operation.name': 'execute_tool',
        'mcp.protocol.version': era === 'modern' ? '2026-07-28' : '2025-11-25',
        'mcp.session.id': 'session-9',
      });
      expect(typeof received.attributes['jsonrpc.request.id']).toBe('string');
      // The client learns the id once the request went out; both spans name the same request.
      expect(sent.attributes['jsonrpc.request.id']).toBe(received.attributes['jsonrpc.request.id']);
      expect(sent.attributes).toMatchObject({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'echo' });
      expect(received.status.code).toBe(SpanStatusCode.UNSET);
    });
  }

  it('without trace context in _meta the server span starts its own trace (what links them is _meta)', async () => {
    const { server } = testServer();
    const otel = testTracing();
    server.use(tracing({ tracerProvider: otel.provider, propagator: otel.propagator }));
    const { client } = await pair(server, { era: 'legacy' });
    await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(parentIdOf(otel.span('tools/call echo', SpanKind.SERVER))).toBeUndefined();
  });

  it('marks failures: error.type and status code from the JSON-RPC error, tool_error for isError results', async () => {
    const { server } = testServer();
    const otel = testTracing();
    server.use(tracing({ tracerProvider: otel.provider, propagator: otel.propagator }));
    const { client } = await pair(server, { era: 'legacy' });
    await expect(client.callTool({ name: 'fails', arguments: {} })).rejects.toThrow();
    await client.callTool({ name: 'broken', arguments: {} });
    await client.readResource({ uri: 'note://one' });
    await client.getPrompt({ name: 'greet' });
    const failed = otel.span('tools/call fails');
    expect(failed.attributes).toMatchObject({ 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
    expect(failed.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Bad arguments for fails' });
    const broken = otel.span('tools/call broken');
    expect(broken.attributes['error.type']).toBe('tool_error');
    expect(broken.status.code).toBe(SpanStatusCode.ERROR);
    // Resource URIs are attributes, not part of the name (cardinality); prompts name their span.
    expect(otel.span('resources/read').attributes['mcp.resource.uri']).toBe('note://one');
    expect(otel.span('prompts/get greet').attributes['gen_ai.prompt.name']).toBe('greet');
  });

  it("traces the server's requests to the client: server → client → server spans in the same trace", async () => {
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    try {
      const { server } = testServer();
      server.registerTool('ask', {}, async (_args, ctx) => {
        const answer = await ctx.elicit({
          message: 'Sure?',
          requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
        });
        return { content: [{ type: 'text', text: answer.action }] };
      });
      const otel = testTracing();
      const options = { tracerProvider: otel.provider, propagator: otel.propagator };
      const traced = tracing(options);
      server.use(traced);
      server.useOutbound(traced.outbound);
      const { client } = await pair(server, {
        era: 'legacy',
        client: { handlers: { elicitation: () => ({ action: 'accept', content: { ok: true } }) } },
        setup: (c) => c.use(tracing(options)),
      });
      const result = await client.callTool({ name: 'ask', arguments: {} });
      expect(result.content[0]).toMatchObject({ text: 'accept' });

      const call = otel.span('tools/call ask', SpanKind.CLIENT);
      const handled = otel.span('tools/call ask', SpanKind.SERVER);
      const asked = otel.span('elicitation/create', SpanKind.CLIENT);
      const answered = otel.span('elicitation/create', SpanKind.SERVER);
      for (const span of [handled, asked, answered]) expect(traceIdOf(span)).toBe(traceIdOf(call));
      expect(parentIdOf(handled)).toBe(call.spanContext().spanId);
      expect(parentIdOf(asked)).toBe(handled.spanContext().spanId);
      expect(parentIdOf(answered)).toBe(asked.spanContext().spanId);
    } finally {
      context.disable();
    }
  });

  it('records tool arguments only when asked, and names resources only when asked', async () => {
    const { server } = testServer();
    const otel = testTracing();
    server.use(
      tracing({
        tracerProvider: otel.provider,
        propagator: otel.propagator,
        toolArguments: true,
        resourceUriInSpanName: true,
      }),
    );
    const { client } = await pair(server, { era: 'modern' });
    await client.callTool({ name: 'echo', arguments: { text: 'visible' } });
    await client.readResource({ uri: 'note://one' });
    expect(otel.span('tools/call echo').attributes['gen_ai.tool.call.arguments']).toBe('{"text":"visible"}');
    expect(otel.span('resources/read note://one').kind).toBe(SpanKind.SERVER);
  });
});
