import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import { afterEach, describe, expect, it } from 'vitest';
import { concurrency, MiddlewareErrorCode, ToolTimeoutError, timeouts } from '../src/timeouts/index';
import { closePairs, pair, until } from './fixtures/memory-pair';
import { testServer } from './fixtures/servers';

afterEach(closePairs);

describe('timeouts', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`aborts the handler's signal at the deadline and answers 504 at once (${era})`, async () => {
      const { server, aborts } = testServer();
      server.use(timeouts({ tools: { slow: 100 } }));
      const { client } = await pair(server, { era });
      const started = Date.now();
      const error = await client.callTool({ name: 'slow', arguments: { ms: 5_000 } }).catch((caught) => caught);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(error).toBeInstanceOf(JsonRpcError);
      expect(error.code).toBe(MiddlewareErrorCode.TimedOut);
      expect(error.message).toBe(
        'Tool "slow" did not finish within 100 ms and was stopped; try again, or ask for less',
      );
      expect(error.data).toEqual({ tool: 'slow', timeoutMs: 100 });
      await until(() => aborts.length === 1);
      expect(aborts[0]).toBeInstanceOf(ToolTimeoutError);
    });
  }

  it('lets a call that finishes in time through, uses defaultMs for other tools, and ignores what it does not time', async () => {
    const { server, aborts } = testServer();
    server.use(timeouts({ defaultMs: 1_000, tools: { echo: 50 } }));
    const { client } = await pair(server, { era: 'legacy' });
    expect((await client.callTool({ name: 'slow', arguments: { ms: 20 } })).content[0]).toMatchObject({
      text: 'slept 20',
    });
    await client.callTool({ name: 'echo', arguments: { text: 'quick' } });
    await client.listTools();
    expect(aborts).toEqual([]);
  });

  it('still aborts on the client cancelling (the deadline joins, not replaces, the request signal)', async () => {
    const { server, aborts } = testServer();
    server.use(timeouts({ tools: { slow: 10_000 } }));
    const { client } = await pair(server, { era: 'legacy' });
    const controller = new AbortController();
    const call = client.callTool({ name: 'slow', arguments: { ms: 5_000 } }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user pressed stop')), 50);
    await expect(call).rejects.toThrow();
    await until(() => aborts.length === 1);
    expect(aborts[0]).not.toBeInstanceOf(ToolTimeoutError);
  });

  it('refuses bad deadlines at once', () => {
    expect(() => timeouts({ tools: { x: 0 } })).toThrow(RangeError);
    expect(() => timeouts({ defaultMs: Number.NaN })).toThrow(RangeError);
  });
});

describe('concurrency', () => {
  it('refuses calls past max + queue with 503, queues in order, and admits the queue as calls finish', async () => {
    const { server } = testServer();
    let arrived = 0;
    server.use((ctx, next) => {
      if (ctx.method === 'tools/call') arrived++;
      return next();
    });
    server.use(concurrency({ tools: { slow: { max: 1, queue: 1 } } }));
    const { client } = await pair(server, { era: 'legacy' });
    const order: string[] = [];
    const first = client.callTool({ name: 'slow', arguments: { ms: 300 } }).then(() => order.push('first'));
    await until(() => arrived === 1);
    const second = client.callTool({ name: 'slow', arguments: { ms: 10 } }).then(() => order.push('second'));
    await until(() => arrived === 2);
    const error = await client.callTool({ name: 'slow', arguments: { ms: 10 } }).catch((caught) => caught);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error.code).toBe(MiddlewareErrorCode.Busy);
    expect(error.message).toBe('Tool "slow" is busy: 1 calls running and 1 waiting (limits 1 and 1); try again later');
    expect(error.data).toEqual({ tool: 'slow', running: 1, waiting: 1, max: 1, queue: 1 });
    // Other tools are not limited.
    await client.callTool({ name: 'echo', arguments: { text: 'free' } });
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
    // The gate is empty again: a new call runs at once.
    await client.callTool({ name: 'slow', arguments: { ms: 1 } });
  });

  it('a waiting call that is cancelled leaves the queue', async () => {
    const { server, calls } = testServer();
    let arrived = 0;
    server.use((ctx, next) => {
      if (ctx.method === 'tools/call') arrived++;
      return next();
    });
    server.use(concurrency({ default: { max: 1, queue: 5 } }));
    const { client } = await pair(server, { era: 'legacy' });
    const running = client.callTool({ name: 'slow', arguments: { ms: 300 } });
    await until(() => arrived === 1);
    const controller = new AbortController();
    const waiting = client.callTool({ name: 'slow', arguments: { ms: 1 } }, { signal: controller.signal });
    await until(() => arrived === 2);
    controller.abort();
    await expect(waiting).rejects.toThrow();
    await running;
    await client.callTool({ name: 'echo', arguments: {} });
    // The cancelled call never ran.
    expect(calls.filter((tool) => tool === 'slow')).toHaveLength(1);
  });
});
