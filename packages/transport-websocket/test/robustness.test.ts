import { ConnectionClosedError } from '@mcpkit/jsonrpc-core';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { closeAfterEach, closeEvent, connectClient, rawSocket, recordingWebSocket, startServer } from './helpers';

closeAfterEach();

describe('heartbeat', () => {
  it('terminates a client that stops answering pings and keeps one that answers', async () => {
    const started = await startServer({ heartbeatIntervalMs: 40 });
    const { endpoint } = started;
    const deaf = await rawSocket(endpoint.url, ['mcp'], { autoPong: false });
    const healthy = await rawSocket(endpoint.url);
    const deafClosed = closeEvent(deaf);
    const startedAt = Date.now();
    expect((await deafClosed).code).toBe(1006);
    expect(Date.now() - startedAt).toBeLessThan(2_000);
    await new Promise((resolve) => setTimeout(resolve, 200)); // five more intervals
    expect(healthy.readyState).toBe(healthy.OPEN);
    expect(endpoint.connections).toBe(1);
    await expect.poll(() => started.mcp.sessions.size).toBe(1);
    healthy.close();
  });
});

describe('message size', () => {
  it('closes a connection that sends an oversized message with 1009, and keeps serving others', async () => {
    const { endpoint } = await startServer({ maxMessageBytes: 4096 });
    const client = await connectClient(endpoint.url, 'modern');
    const failure = await client
      .callTool({ name: 'echo', arguments: { text: 'x'.repeat(10_000) } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConnectionClosedError);
    expect((failure as Error).message).toMatch(/1009 \(message too big\)/);

    const other = await connectClient(endpoint.url, 'modern');
    const result = await other.callTool({ name: 'echo', arguments: { text: 'still here' } });
    expect(result.content).toEqual([{ type: 'text', text: 'still here' }]);
  });
});

describe('abrupt disconnect', () => {
  it('rejects pending requests on both sides with ConnectionClosedError naming the close code', async () => {
    const started = await startServer();
    const { endpoint } = started;
    const { WebSocket, sockets } = recordingWebSocket();
    // The elicitation handler never answers: the server's ctx.elicit stays pending until the socket dies.
    const client = await connectClient(
      endpoint.url,
      'legacy',
      { WebSocket },
      { handlers: { elicitation: () => new Promise(() => undefined) } },
    );
    const call = client.callTool({ name: 'ask', arguments: {} }).catch((error: unknown) => error);
    await started.probe.askStarted.promise;

    (sockets[0] as WebSocket).terminate(); // no close frame: 1006 on both sides

    const clientError = await call;
    expect(clientError).toBeInstanceOf(ConnectionClosedError);
    expect((clientError as Error).message).toMatch(/tools\/call.*1006/);
    const serverError = await started.probe.askError.promise;
    expect(serverError).toBeInstanceOf(ConnectionClosedError);
    expect((serverError as Error).message).toMatch(/elicitation\/create.*1006/);
    await expect.poll(() => started.mcp.sessions.size).toBe(0);
  });

  it('a server-side abort of a pending tool call reaches the client as ConnectionClosedError', async () => {
    const started = await startServer();
    const { endpoint } = started;
    const client = await connectClient(endpoint.url, 'modern');
    const call = client.callTool({ name: 'wait', arguments: {} }).catch((error: unknown) => error);
    await started.probe.waitStarted.promise;
    for (const socket of endpoint.wss.clients) socket.terminate();
    const error = await call;
    expect(error).toBeInstanceOf(ConnectionClosedError);
    expect((error as Error).message).toMatch(/1006/);
    started.probe.release();
  });
});
