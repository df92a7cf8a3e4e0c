import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@mcpkit/client';
import { McpServer } from '@mcpkit/server';
import { describe, expect, it, onTestFinished } from 'vitest';
import { StreamableHttpClientTransport } from '../../src/client/index';
import { toNodeHandler } from '../../src/node/index';
import { createStreamableHttpHandler } from '../../src/server/index';

// The keep-alive race on the caller's `fetch` path (an OAuth fetch, a proxy's): the server closes the connection a
// request went out on without a byte of answer. The transport sends it again on a new connection, a bounded number of
// times. Here the server drops chosen POSTs on purpose (destroying the socket before reading the request).

// A legacy session's POSTs come in order: 0 initialize, 1 notifications/initialized, then the test's tools/call (and
// its resends, nothing else in between).
const FIRST_CALL = 2;

async function droppingServer(drop: (postIndex: number) => boolean) {
  const mcp = new McpServer({ name: 'dropping', version: '1.0.0' });
  mcp.registerTool(
    'echo',
    { inputSchema: { type: 'object', properties: { text: { type: 'string' } } } as const },
    ({ text }) => ({ content: [{ type: 'text', text: String(text) }] }),
  );
  const handler = createStreamableHttpHandler(mcp);
  const node = toNodeHandler(handler);
  const stats = { posts: 0 };
  const server = createServer((req, res) => {
    // Dropped before the server reads a byte of the request, as when it closes an idle connection.
    if (req.method === 'POST' && drop(stats.posts++)) req.socket.destroy();
    else void node(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await handler.close();
  });
  const { port } = server.address() as AddressInfo;
  return { url: new URL(`http://127.0.0.1:${port}/mcp`), stats };
}

const callerFetch: typeof fetch = (input, init) => fetch(input, init);

describe('a connection closed before any answer, on the caller fetch path', () => {
  it('sends the request again on a new connection and the call succeeds', async () => {
    const { url, stats } = await droppingServer((index) => index === FIRST_CALL || index === FIRST_CALL + 1);
    const client = new Client({ name: 'c', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(url, { fetch: callerFetch }), {
      protocolVersion: '2025-11-25',
    });
    onTestFinished(() => client.close());
    const result = await client.callTool({ name: 'echo', arguments: { text: 'again' } });
    expect(result.content).toEqual([{ type: 'text', text: 'again' }]);
    // Two dropped, the third one answered.
    expect(stats.posts).toBe(FIRST_CALL + 3);
  });

  it('gives up after three resends with the connection error', async () => {
    const { url, stats } = await droppingServer((index) => index >= FIRST_CALL);
    const client = new Client({ name: 'c', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(url, { fetch: callerFetch }), {
      protocolVersion: '2025-11-25',
    });
    onTestFinished(() => client.close());
    await expect(client.callTool({ name: 'echo', arguments: { text: 'x' } })).rejects.toThrow();
    // Sent once, then three resends.
    expect(stats.posts).toBe(FIRST_CALL + 4);
  });
});
