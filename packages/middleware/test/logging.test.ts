import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleJsonLogger, createRedactor, type Logger, logging, type RequestRecord } from '../src/logging/index';
import { closePairs, pair } from './fixtures/memory-pair';
import { testServer } from './fixtures/servers';

afterEach(closePairs);

interface Line {
  level: 'info' | 'warn' | 'error';
  record: RequestRecord & Record<string, unknown>;
  message: string | undefined;
}

/** A logger with pino's shape (`info(object, message)`), keeping what it got. */
function memoryLogger(): Logger & { lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: Line['level']) => (record: object, message?: string) =>
    lines.push({ level, record: record as Line['record'], message });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

describe('logging', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`logs one record per request on the server and on the client (${era})`, async () => {
      const { server } = testServer();
      const serverLog = memoryLogger();
      const clientLog = memoryLogger();
      server.use(logging({ logger: serverLog }));
      const { client } = await pair(server, {
        era,
        messageInfo: { auth: { token: 'secret-token', clientId: 'app', subject: 'ada' } },
        sessionId: 'session-7',
        setup: (c) => c.use(logging({ logger: clientLog })),
      });
      await client.callTool({ name: 'echo', arguments: { text: 'hi' } });

      const call = serverLog.lines.find((line) => line.record.method === 'tools/call');
      expect(call?.level).toBe('info');
      expect(call?.message).toBe('mcp request');
      expect(call?.record).toMatchObject({
        side: 'server',
        direction: 'inbound',
        kind: 'request',
        method: 'tools/call',
        tool: 'echo',
        era,
        protocolVersion: era === 'modern' ? '2026-07-28' : '2025-11-25',
        session: 'session-7',
        principal: 'ada@app',
        outcome: 'ok',
      });
      expect(typeof call?.record.requestId).toBe('number');
      expect(call?.record.durationMs).toBeGreaterThanOrEqual(0);
      expect(JSON.stringify(serverLog.lines)).not.toContain('secret-token');

      const sent = clientLog.lines.find((line) => line.record.method === 'tools/call');
      expect(sent?.record).toMatchObject({
        side: 'client',
        direction: 'outbound',
        method: 'tools/call',
        tool: 'echo',
        era,
        round: 0,
        outcome: 'ok',
      });
      expect(sent?.record.requestId).toBe(call?.record.requestId);
      // One record per request: no notification (notifications/initialized) by default.
      expect(serverLog.lines.every((line) => line.record.kind === 'request')).toBe(true);
    });
  }

  it('logs a tool error at warn and a failed request at error, with its code', async () => {
    const { server } = testServer();
    const log = memoryLogger();
    server.use(logging({ logger: log }));
    const { client } = await pair(server, { era: 'legacy' });
    await client.callTool({ name: 'broken', arguments: {} });
    await expect(client.callTool({ name: 'fails', arguments: {} })).rejects.toThrow('Bad arguments for fails');
    await expect(client.getPrompt({ name: 'nope' })).rejects.toBeInstanceOf(JsonRpcError);
    const records = log.lines.filter((line) => line.record.method !== 'initialize');
    expect(records.map((line) => [line.level, line.record.tool ?? line.record.prompt, line.record.outcome])).toEqual([
      ['warn', 'broken', 'tool_error'],
      ['error', 'fails', 'error'],
      ['error', 'nope', 'error'],
    ]);
    expect(records[1]?.record).toMatchObject({ errorCode: -32602, errorMessage: 'Bad arguments for fails' });
  });

  it('includes params only when asked, redacted (defaults and named fields, any depth, Bearer strings)', async () => {
    const { server } = testServer();
    const log = memoryLogger();
    server.use(logging({ logger: log, params: true, redact: ['ssn'] }));
    const { client } = await pair(server, { era: 'legacy' });
    await client.callTool({
      name: 'echo',
      arguments: { text: 'Authorization: Bearer abc.def', nested: { SSN: '123', password: 'pw', keep: 1 } },
    });
    const record = log.lines.find((line) => line.record.method === 'tools/call')?.record;
    expect(record?.params).toEqual({
      name: 'echo',
      arguments: {
        text: 'Authorization: Bearer [REDACTED]',
        nested: { SSN: '[REDACTED]', password: '[REDACTED]', keep: 1 },
      },
    });
    const plain = memoryLogger();
    server.use(logging({ logger: plain }));
    await client.callTool({ name: 'echo', arguments: { text: 'x' } });
    expect(plain.lines.find((line) => line.record.method === 'tools/call')?.record.params).toBeUndefined();
  });

  it('logs notifications when asked, and a throwing logger never fails the request', async () => {
    const { server } = testServer();
    const log = memoryLogger();
    server.use(logging({ logger: log, notifications: true }));
    server.use(
      logging({
        logger: {
          info: () => {
            throw new Error('disk full');
          },
          warn: () => {},
          error: () => {},
        },
      }),
    );
    const { client } = await pair(server, { era: 'legacy' });
    const result = await client.callTool({ name: 'echo', arguments: { text: 'still' } });
    expect(result.content[0]).toMatchObject({ text: 'still' });
    const notification = log.lines.find((line) => line.record.kind === 'notification');
    expect(notification?.record.method).toBe('notifications/initialized');
    expect(notification?.message).toBe('mcp notification');
  });

  it('consoleJsonLogger writes one JSON line per record with level, time and message', () => {
    const written: string[] = [];
    const logger = consoleJsonLogger({ write: (line) => written.push(line) });
    logger.warn({ method: 'tools/call', outcome: 'tool_error' }, 'mcp request');
    expect(written).toHaveLength(1);
    const parsed = JSON.parse(written[0]!);
    expect(parsed).toMatchObject({ level: 'warn', msg: 'mcp request', method: 'tools/call', outcome: 'tool_error' });
    expect(Number.isNaN(Date.parse(parsed.time))).toBe(false);
  });

  it('the redactor bounds depth, keys and string length', () => {
    const redact = createRedactor();
    let deep: Record<string, unknown> = { leaf: true };
    for (let level = 0; level < 10; level++) deep = { down: deep };
    expect(JSON.stringify(redact(deep))).toContain('[…]');
    const wide = Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`k${index}`, index]));
    expect(Object.keys(redact(wide) as object)).toHaveLength(51);
    expect((redact('x'.repeat(5_000)) as string).length).toBe(1_001);
  });
});
