import { ConnectionClosedError } from '@mcpkit/jsonrpc-core';
import { afterEach, describe, expect, it } from 'vitest';
import { KeepAliveError, keepAlive, keepClientAlive } from '../src/keep-alive/index';
import { closePairs, pair, until } from './fixtures/memory-pair';
import { testServer } from './fixtures/servers';

afterEach(closePairs);

const never = () => new Promise<never>(() => {});
const FAST = { intervalMs: 30, timeoutMs: 40, maxMissed: 2 };

describe('keepAlive (server)', () => {
  it('pings a legacy session; one that stops answering is closed and its pending requests fail at once', async () => {
    const { server } = testServer();
    let askError: unknown;
    server.registerTool('ask', {}, async (_args, ctx) => {
      try {
        await ctx.elicit({ message: 'Still there?', requestedSchema: { type: 'object', properties: {} } });
      } catch (error) {
        askError = error;
      }
      return { content: [] };
    });
    const closed: KeepAliveError[] = [];
    server.use(keepAlive({ ...FAST, onClose: (error) => closed.push(error) }));
    let answering = true;
    let pings = 0;
    const { client, session } = await pair(server, {
      era: 'legacy',
      client: { handlers: { elicitation: never } },
      setup: (c) =>
        c.use((ctx, next) => {
          if (ctx.direction !== 'inbound' || ctx.method !== 'ping') return next();
          pings++;
          return answering ? next() : never();
        }),
    });
    await until(() => pings >= 2);
    expect(session.connected).toBe(true);
    void client.callTool({ name: 'ask', arguments: {} }).catch(() => undefined);
    await until(() => server.server.sessions.has(session) && session.pendingRequestCount > 0);
    answering = false;
    await until(() => closed.length === 1, 3_000);
    expect(session.connected).toBe(false);
    expect(closed[0]).toBeInstanceOf(KeepAliveError);
    expect(closed[0]?.message).toBe('Closed by keep-alive: 2 pings in a row got no answer within 40 ms');
    expect(closed[0]?.data).toEqual({ missed: 2, intervalMs: 30, timeoutMs: 40 });
    await until(() => askError !== undefined);
    expect(askError).toBeInstanceOf(ConnectionClosedError);
    expect((askError as Error).message).toContain('Closed by keep-alive: 2 pings in a row got no answer within 40 ms');
    expect((askError as Error).cause).toBe(closed[0]);
  });

  it('never pings in the modern era (2026-07-28 has no ping)', async () => {
    const { server } = testServer();
    server.use(keepAlive(FAST));
    let pings = 0;
    const { client } = await pair(server, {
      era: 'modern',
      setup: (c) =>
        c.use((ctx, next) => {
          if (ctx.direction === 'inbound' && ctx.method === 'ping') pings++;
          return next();
        }),
    });
    await client.callTool({ name: 'echo', arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(pings).toBe(0);
  });

  it('refuses nonsense settings', () => {
    expect(() => keepAlive({ intervalMs: 0 })).toThrow(RangeError);
    expect(() => keepAlive({ maxMissed: 0 })).toThrow(RangeError);
  });
});

describe('keepClientAlive', () => {
  it('closes a client whose server stops answering; pending calls fail at once naming the reason', async () => {
    const { server } = testServer();
    let answering = true;
    let pings = 0;
    server.use((ctx, next) => {
      if (ctx.method !== 'ping') return next();
      pings++;
      return answering ? next() : never();
    });
    const closed: KeepAliveError[] = [];
    let stop: () => void = () => {};
    const { client } = await pair(server, {
      era: 'legacy',
      setup: (c) => {
        stop = keepClientAlive(c, { ...FAST, onClose: (error) => closed.push(error) });
      },
    });
    try {
      await until(() => pings >= 2);
      const pending = client.callTool({ name: 'slow', arguments: { ms: 10_000 } }).catch((error: unknown) => error);
      answering = false;
      const error = (await pending) as ConnectionClosedError;
      expect(error).toBeInstanceOf(ConnectionClosedError);
      expect(error.message).toContain('Closed by keep-alive: 2 pings in a row got no answer within 40 ms');
      expect(error.cause).toBeInstanceOf(KeepAliveError);
      // onClose runs once the client's close has finished, which may be a turn after the pending call failed.
      await until(() => closed.length === 1);
      expect(closed).toHaveLength(1);
      expect(client.connected).toBe(false);
    } finally {
      stop();
    }
  });
});
