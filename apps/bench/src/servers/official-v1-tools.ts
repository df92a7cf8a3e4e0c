// The official v1 bench server definition, shared by the stdio and HTTP servers: `echo` and `big`. v1 takes no plain
// JSON Schema for tool input, only a zod shape, so this is the smallest v1 server a user can write.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { bigText } from './big-text';

/** A new official v1 `McpServer` with the bench tools (v1 binds one server instance to one transport). */
export function createOfficialV1Server(): McpServer {
  const server = new McpServer({ name: 'bench-official-v1', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Returns its text', inputSchema: { text: z.string() } },
    async ({ text }) => ({
      content: [{ type: 'text', text }],
    }),
  );
  server.registerTool(
    'big',
    { description: 'Returns `bytes` bytes of text', inputSchema: { bytes: z.number().int().min(0).max(67_108_864) } },
    async ({ bytes }) => ({ content: [{ type: 'text', text: bigText(bytes) }] }),
  );
  return server;
}
