import { JsonRpcError, type JsonRpcMessage } from '@mcpkit/jsonrpc-core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  approval,
  isTransientError,
  retries,
  type ToolCallApprovalRequest,
  ToolCallDeniedError,
} from '../src/client/index';
import { rateLimit } from '../src/rate-limit/index';
import { tapTransport } from '../src/transport/index';
import { closePairs, pair } from './fixtures/memory-pair';
import { testServer } from './fixtures/servers';

afterEach(closePairs);

describe('approval', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`asks with the tool, its arguments and annotations; a refusal sends nothing (${era})`, async () => {
      const { server, calls } = testServer();
      const asked: ToolCallApprovalRequest[] = [];
      const sent: JsonRpcMessage[] = [];
      const { client } = await pair(server, {
        era,
        wrapClientTransport: (transport) => tapTransport(transport, { outbound: (message) => sent.push(message) }),
        setup: (c) =>
          c.use(
            approval({
              approve: (request) => {
                asked.push(request);
                return request.tool !== 'delete_all';
              },
            }),
          ),
      });
      await client.listTools();
      await client.callTool({ name: 'echo', arguments: { text: 'ok' } });
      const before = sent.length;
      const error = await client.callTool({ name: 'delete_all', arguments: { really: true } }).catch((e) => e);
      expect(error).toBeInstanceOf(ToolCallDeniedError);
      expect(error.code).toBe('ERR_TOOL_CALL_DENIED');
      expect(error.message).toBe('The call of tool "delete_all" was not approved; nothing was sent to the server');
      expect(error.data).toEqual({ tool: 'delete_all', arguments: { really: true } });
      expect(sent.length).toBe(before); // nothing left the client
      expect(calls).toEqual(['echo']);
      expect(asked.map((request) => [request.tool, request.arguments, request.annotations])).toEqual([
        ['echo', { text: 'ok' }, { readOnlyHint: true, title: 'Echo' }],
        ['delete_all', { really: true }, { destructiveHint: true }],
      ]);
      expect(asked[0]?.definition?.name).toBe('echo');
    });
  }

  it('only asks for the tools named, can skip read-only tools, and knows tools it did not see listed', async () => {
    const { server } = testServer();
    const asked: string[] = [];
    const { client } = await pair(server, {
      era: 'legacy',
      setup: (c) =>
        c.use(
          approval({
            tools: ['delete_*', 'echo'],
            skipReadOnly: true,
            knownTools: () => [{ name: 'echo', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
            approve: ({ tool }) => {
              asked.push(tool);
              return true;
            },
          }),
        ),
    });
    await client.callTool({ name: 'echo', arguments: { text: 'read-only' } });
    await client.callTool({ name: 'broken', arguments: {} });
    await client.callTool({ name: 'delete_all', arguments: {} });
    expect(asked).toEqual(['delete_all']);
  });
});

describe('retries', () => {
  it('retries a resources/read after a transient failure, with backoff', async () => {
    const { server } = testServer();
    let reads = 0;
    server.use('resources/read', (_ctx, next) => {
      reads++;
      if (reads === 1) throw new JsonRpcError(503, 'Storage is warming up');
      return next();
    });
    const retried: unknown[] = [];
    const { client } = await pair(server, {
      era: 'modern',
      client: { cache: false },
      setup: (c) => c.use(retries({ baseDelayMs: 10, random: () => 0.5, onRetry: (info) => retried.push(info) })),
    });
    const result = await client.readResource({ uri: 'note://one' });
    expect(result.contents[0]).toMatchObject({ text: 'one' });
    expect(reads).toBe(2);
    expect(retried).toHaveLength(1);
    expect(retried[0]).toMatchObject({ method: 'resources/read', attempt: 1, delayMs: 5 });
  });

  it('honours the retry delay a rate-limited server sends', async () => {
    const { server } = testServer();
    // The limiter's clock moves only when the client waits, so the delay it asks for is exact whatever the load.
    let clock = 0;
    server.use(rateLimit({ limit: { capacity: 1, refillPerSecond: 10 }, now: () => clock }));
    const delays: number[] = [];
    const { client } = await pair(server, {
      era: 'legacy',
      setup: (c) =>
        c.use(
          retries({
            onRetry: ({ delayMs }) => {
              delays.push(delayMs);
              clock += delayMs;
            },
          }),
        ),
    });
    await client.listTools();
    const started = Date.now();
    await client.listTools(); // refused once (bucket empty), retried after the server's 100 ms
    expect(delays).toEqual([100]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });

  it('never retries tools/call, protocol errors, or past maxAttempts; a too-long server delay gives up', async () => {
    const { server } = testServer();
    let reads = 0;
    server.use('resources/read', () => {
      reads++;
      throw new JsonRpcError(503, 'Down');
    });
    let calls = 0;
    server.use('tools/call', () => {
      calls++;
      throw new JsonRpcError(503, 'Down');
    });
    server.use('prompts/get', () => {
      throw new JsonRpcError(429, 'Slow down', { retryAfterMs: 60_000 });
    });
    const { client } = await pair(server, {
      era: 'legacy',
      setup: (c) => c.use(retries({ maxAttempts: 3, baseDelayMs: 1 })),
    });
    await expect(client.readResource({ uri: 'note://one' })).rejects.toThrow('Down');
    expect(reads).toBe(3);
    await expect(client.callTool({ name: 'echo', arguments: {} })).rejects.toThrow('Down');
    expect(calls).toBe(1);
    const started = Date.now();
    await expect(client.getPrompt({ name: 'greet' })).rejects.toThrow('Slow down');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('tells transient failures from the rest', () => {
    expect(isTransientError(new JsonRpcError(429, 'x'))).toBe(true);
    expect(isTransientError(new JsonRpcError(-32000, 'x', { retryAfterMs: 10 }))).toBe(true);
    expect(isTransientError(new JsonRpcError(-32602, 'x'))).toBe(false);
    expect(isTransientError(Object.assign(new Error('x'), { code: 'ERR_NETWORK' }))).toBe(true);
    expect(isTransientError(Object.assign(new Error('x'), { code: 'ERR_HTTP_STATUS', data: { status: 502 } }))).toBe(
      true,
    );
    expect(isTransientError(Object.assign(new Error('x'), { code: 'ERR_HTTP_STATUS', data: { status: 400 } }))).toBe(
      false,
    );
    expect(isTransientError(Object.assign(new Error('x'), { code: 'ERR_REQUEST_TIMEOUT' }))).toBe(true);
    expect(isTransientError(new Error('x'))).toBe(false);
  });
});
