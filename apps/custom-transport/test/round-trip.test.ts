// A server and our client over the socket, in both protocol eras.
import { randomUUID } from 'node:crypto';
import { Client } from '@mcpkit/client';
import { McpServer } from '@mcpkit/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenOnUnixSocket, socketPath, UnixSocketClientTransport, type UnixSocketListener } from '../src/index';

const server = new McpServer({ name: 'socket-echo', version: '1.0.0' });
server.registerTool('echo', { description: 'Echoes its text', inputSchema: { type: 'object' } }, (args) => ({
  content: [{ type: 'text', text: String((args as { text?: unknown }).text) }],
}));

let listener: UnixSocketListener;
beforeAll(async () => {
  listener = await listenOnUnixSocket(socketPath(`mcp-echo-${randomUUID()}`), (transport) => server.connect(transport));
});
afterAll(() => listener.close());

describe.each(['2026-07-28', '2025-11-25'])('a client and a server over a Unix socket, MCP %s', (protocolVersion) => {
  it('calls a tool and closes cleanly', async () => {
    const client = new Client({ name: 'socket-client', version: '1.0.0' });
    await client.connect(new UnixSocketClientTransport(listener.path), { protocolVersion });
    expect(client.protocolVersion).toBe(protocolVersion);
    const result = await client.callTool({ name: 'echo', arguments: { text: 'über the socket ✓' } });
    expect(result.content).toEqual([{ type: 'text', text: 'über the socket ✓' }]);
    await client.close();
    expect(client.connected).toBe(false);
  });
});
