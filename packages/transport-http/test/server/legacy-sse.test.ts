import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { describe, expect, it } from 'vitest';
import { createSseHandler } from '../../src/index';
import { toNodeHandler } from '../../src/node/index';
import { type Loose, makeServer, messagesOf, readEvents, URL_ } from './harness';

describe('legacy HTTP+SSE (2024-11-05)', () => {
  it('GET sends the endpoint event; POST delivers; the answer comes on the stream', async () => {
    const { server } = makeServer();
    const sse = createSseHandler(server, { endpoint: '/messages', keepAliveMs: 0 });
    const stream = await sse.handle(new Request(URL_, { headers: { host: 'localhost', accept: 'text/event-stream' } }));
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    const first = await readEvents(stream, { until: () => true });
    expect(first.events[0]!.event).toBe('endpoint');
    const endpoint = first.events[0]!.data;
    expect(endpoint).toMatch(/^\/messages\?sessionId=[A-Za-z0-9_-]{22}$/);
    const post = (body: unknown, sessionPath = endpoint) =>
      sse.handle(
        new Request(new URL(sessionPath, URL_), {
          method: 'POST',
          headers: { host: 'localhost', 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
    const accepted = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
    });
    expect(accepted.status).toBe(202);
    const answer = await readEvents(
      {
        body: new ReadableStream({
          pull: async (c) => {
            const chunk = await first.reader.read();
            if (chunk.done) c.close();
            else c.enqueue(chunk.value);
          },
        }),
      } as Loose,
      { until: () => true },
    );
    expect(messagesOf(answer.events)[0].result.protocolVersion).toBe('2024-11-05');
    expect((await post({ jsonrpc: '2.0', method: 'x' }, '/messages?sessionId=nope')).status).toBe(404);
    expect((await post({ jsonrpc: '2.0', method: 'x' }, '/messages')).status).toBe(400);
    expect(sse.sessionCount).toBe(1);
    await sse.close();
    expect(sse.sessionCount).toBe(0);
  });

  it('interoperates with the official SDK SSEClientTransport over real HTTP', async () => {
    const { server } = makeServer();
    const sse = createSseHandler(server, { endpoint: '/messages', keepAliveMs: 0 });
    const listener = toNodeHandler(sse);
    const http = createServer((req, res) => void listener(req, res));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    try {
      const client = new ClientV1({ name: 'old-client', version: '1.0.0' });
      await client.connect(new SSEClientTransport(new URL(`http://127.0.0.1:${port}/sse`)));
      const result = await client.callTool({ name: 'echo', arguments: { text: 'over sse' } });
      expect((result.content as Loose)[0].text).toBe('over sse');
      await client.close();
    } finally {
      await sse.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    }
  });
  it('limits the open streams of one client (503 with Retry-After); another client still gets one; a closed stream frees its share', async () => {
    const { server } = makeServer();
    const sse = createSseHandler(server, {
      keepAliveMs: 0,
      maxSessionsPerClient: 1,
      clientKeyOf: (request) => request.headers.get('x-client') ?? undefined,
    });
    const open = (client: string) =>
      sse.handle(
        new Request(URL_, { headers: { host: 'localhost', accept: 'text/event-stream', 'x-client': client } }),
      );
    const first = await open('a');
    expect(first.status).toBe(200);
    const refused = await open('a');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as Loose).error.message).toMatch(/maxSessionsPerClient/);
    const other = await open('b');
    expect(other.status).toBe(200);
    await first.body!.cancel();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await open('a');
    expect(again.status).toBe(200);
    await other.body!.cancel();
    await again.body!.cancel();
    await sse.close();
  });
});
