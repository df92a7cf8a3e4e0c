// The minimal mcpkit server with zod: one tool whose input is a zod shape, over stdio, on `McpToolServer` (the
// tools-only server: `McpServer` without resources, prompts, completion, the JSON Schema validator and input rounds).
import { McpToolServer } from '@mcpkit/server';
import { StdioServerTransport } from '@mcpkit/transport-stdio';
import { z } from 'zod';

const server = new McpToolServer({ name: 'size', version: '1.0.0' });
server.registerTool('echo', { description: 'Returns its text', inputSchema: { text: z.string() } }, ({ text }) => ({
  content: [{ type: 'text', text }],
}));
await server.connect(new StdioServerTransport());
