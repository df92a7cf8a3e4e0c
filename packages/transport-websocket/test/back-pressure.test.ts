import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { closeAfterEach, connectClient, recordingWebSocket, startServer } from './helpers';

closeAfterEach();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('back-pressure', () => {
  it('stops reading from a client that does not read, so what is buffered for it stays bounded', async () => {
    const messageBytes = 256 * 1024;
    const bound = 512 * 1024;
    const calls = 80; // 20 MiB of responses if nothing held the server back
    const started = await startServer({ maxBufferedBytes: bound }, messageBytes);
    const { endpoint } = started;
    const { WebSocket, sockets } = recordingWebSocket();
    const client = await connectClient(endpoint.url, 'modern', { WebSocket });

    // Watch the server side of the connection: the largest bufferedAmount right after any send.
    const [serverSocket] = [...endpoint.wss.clients];
    let maxBuffered = 0;
    const send = serverSocket!.send.bind(serverSocket);
    serverSocket!.send = ((data: string, callback: (error?: Error) => void) => {
      send(data, callback);
      maxBuffered = Math.max(maxBuffered, serverSocket!.bufferedAmount);
    }) as WebSocket['send'];

    (sockets[0] as WebSocket).pause(); // the slow reader: reads nothing from now on
    const results: Promise<unknown>[] = [];
    for (let index = 0; index < calls; index += 1) {
      results.push(client.callTool({ name: 'big', arguments: {} }));
      await sleep(3);
    }
    await sleep(300);
    const handledWhileStuck = started.probe.calls;

    // The kernel's socket buffers absorb some responses; after that the server stopped taking requests.
    expect(handledWhileStuck).toBeGreaterThan(0);
    expect(handledWhileStuck).toBeLessThan(calls);
    expect(maxBuffered).toBeLessThanOrEqual(bound + messageBytes + 1024);

    (sockets[0] as WebSocket).resume();
    const settled = await Promise.all(results);
    expect(settled).toHaveLength(calls);
    expect(started.probe.calls).toBe(calls);
    // The bound held the whole time, including the catch-up after the reader came back.
    expect(maxBuffered).toBeLessThanOrEqual(bound + messageBytes + 1024);
  });
});
