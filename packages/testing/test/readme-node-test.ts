import assert from 'node:assert/strict';
import { test } from 'node:test';
import { McpServer } from '@mcpkit/server';
import { connectInMemory } from '@mcpkit/testing';

const server = new McpServer({ name: 'greeter', version: '1.0.0' });
server.registerTool('greet', { description: 'Greets someone', inputSchema: { type: 'object' } }, (args) => ({
  content: [{ type: 'text', text: `Hello, ${(args as { name: string }).name}!` }],
}));

for (const protocolVersion of ['2026-07-28', '2025-11-25']) {
  test(`greets over MCP ${protocolVersion}`, async () => {
    await using connection = await connectInMemory(server, { protocolVersion });
    assert.equal(connection.client.protocolVersion, protocolVersion);
    const result = await connection.client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'Hello, Ada!' }]);
  });
}
