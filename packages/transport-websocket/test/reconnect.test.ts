import { Client } from '@mcpkit/client';
import { describe, expect, it } from 'vitest';
import type { WebSocketTransportError } from '../src/index';
import { clientTransport, closeAfterEach, closeAfterTest, startServer } from './helpers';

closeAfterEach();

describe('opt-in reconnection', () => {
  it('2026-07-28: reconnects after a drop, fails the in-flight request, and the same client keeps working', async () => {
    const started = await startServer();
    const { endpoint } = started;
    const reconnected: number[] = [];
    const transport = clientTransport(endpoint.url, {
      reconnect: { initialDelayMs: 10, onReconnected: ({ attempt }) => reconnected.push(attempt) },
    });
    const client = closeAfterTest(new Client({ name: 'reconnecting', version: '1.0.0' }));
    await client.connect(transport, { era: 'modern' });

    const inFlight = client.callTool({ name: 'wait', arguments: {} }).catch((error: unknown) => error);
    await started.probe.waitStarted.promise;
    for (const socket of endpoint.wss.clients) socket.terminate();

    expect(String((await inFlight) as Error)).toMatch(/1006.*may or may not have run/);
    await expect.poll(() => reconnected, { timeout: 3_000 }).toEqual([1]);
    const result = await client.callTool({ name: 'echo', arguments: { text: 'after' } });
    expect(result.content).toEqual([{ type: 'text', text: 'after' }]);
    started.probe.release();
  });

  it('legacy era: does not reconnect (the server forgot the session) and closes saying so', async () => {
    const { endpoint } = await startServer();
    const transport = clientTransport(endpoint.url, { reconnect: { initialDelayMs: 10 } });
    const client = closeAfterTest(new Client({ name: 'legacy', version: '1.0.0' }));
    await client.connect(transport, { era: 'legacy' });
    const closed = new Promise<Error | undefined>((resolve) => {
      const previous = transport.onclose;
      transport.onclose = (reason) => {
        previous?.(reason);
        resolve(reason);
      };
    });
    for (const socket of endpoint.wss.clients) socket.terminate();
    const reason = (await closed) as WebSocketTransportError;
    expect(reason.code).toBe('ERR_WS_RECONNECT');
    expect(reason.message).toMatch(/1006.*legacy-era session.*connect again/);
    expect(transport.closed).toBe(true);
  });
});
