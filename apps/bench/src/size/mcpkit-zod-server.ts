// The minimal mcpkit server with zod, as most users write it: one tool whose input is a zod shape, over stdio.
import { McpToolServer } from '@mcpkit/server';
import { StdioServerTransport } from '@mcpkit/transport-stdio';
import { z } from 'zod';

const server = new McpToolServer({ name: 'size', version: '1.0.0' });
server.registerTool('echo', { description: 'Returns its text', inputSchema: { text: z.string() } }, ({ text }) => ({
  content: [{ type: 'text', text }],
}));
await server.connect(new StdioServerTransport());
