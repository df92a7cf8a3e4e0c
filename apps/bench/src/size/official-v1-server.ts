// The minimal official v1 server the size metric bundles: one tool (v1 takes a zod shape, not a plain JSON Schema),
// over stdio.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';

const server = new McpServer({ name: 'size', version: '1.0.0' });
server.registerTool(
  'echo',
  { description: 'Returns its text', inputSchema: { text: z.string() } },
  async ({ text }) => ({
    content: [{ type: 'text', text }],
  }),
);
await server.connect(new StdioServerTransport());
