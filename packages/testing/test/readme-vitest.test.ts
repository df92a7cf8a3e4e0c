import { McpServer } from '@mcpkit/server';
import { connectInMemory } from '@mcpkit/testing';
import { checkWire } from '@mcpkit/testing/wire';
import { afterEach, describe, expect, it, vi } from 'vitest';

const server = new McpServer({ name: 'greeter', version: '1.0.0' });
server.registerTool('greet', { description: 'Greets someone', inputSchema: { type: 'object' } }, (args) => ({
  content: [{ type: 'text', text: `Hello, ${(args as { name: string }).name}!` }],
}));

describe.each(['2026-07-28', '2025-11-25'])('greeter over MCP %s', (protocolVersion) => {
  afterEach(() => vi.useRealTimers());

  it('greets, with every message valid against the official schema', async () => {
    let wire: ReturnType<typeof checkWire> | undefined;
    await using connection = await connectInMemory(server, {
      protocolVersion,
      wrapClientTransport: (transport) => (wire = checkWire(transport, { side: 'client' })),
    });
    const result = await connection.client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    wire!.assertClean();
    expect(connection.transcript.format({ hideEnvelope: true })).toMatchSnapshot();
  });

  it('works under fake timers', async () => {
    vi.useFakeTimers();
    await using connection = await connectInMemory(server, { protocolVersion });
    const result = await connection.client.callTool({ name: 'greet', arguments: { name: 'Bob' } });
    expect(result.isError).not.toBe(true);
  });
});
