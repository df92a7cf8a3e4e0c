// apps/quickstart's server, unchanged, served over the Unix socket transport to our client, in both eras. (Runs in
// the workspace only: the quickstart app is not a published package.)
import { randomUUID } from 'node:crypto';
import { server } from '@mcpkit/app-quickstart/server';
import { Client } from '@mcpkit/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnUnixSocket, socketPath, UnixSocketClientTransport, type UnixSocketListener } from '../src/index';

let listener: UnixSocketListener;
beforeAll(async () => {
  listener = await listenOnUnixSocket(socketPath(`trattoria-${randomUUID()}`), (transport) =>
    server.connect(transport),
  );
});
afterAll(() => listener.close());

describe.each(['2026-07-28', '2025-11-25'])('the trattoria over a Unix socket, MCP %s', (protocolVersion) => {
  it('lists its tools and answers a call', async () => {
    const client = new Client({ name: 'socket-client', version: '1.0.0' });
    await client.connect(new UnixSocketClientTransport(listener.path), { protocolVersion });
    try {
      const tools = await client.listAllTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['opening-hours', 'split-bill', 'prepare-order', 'book-table']),
      );
      const result = await client.callTool({ name: 'opening-hours', arguments: { day: 'monday' } });
      expect(JSON.stringify(result.content)).toMatch(/closed/);
    } finally {
      await client.close();
    }
  });
});
