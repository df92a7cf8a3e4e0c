// The minimal mcpkit server the size metric bundles (issue 7 metric 6): one tool with a plain JSON Schema, over stdio.
import { McpServer } from '@mcpkit/server';
import { StdioServerTransport } from '@mcpkit/transport-stdio';

const server = new McpServer({ name: 'size', version: '1.0.0' });
server.registerTool(
  'echo',
  {
    description: 'Returns its text',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const,
  },
  ({ text }) => ({ content: [{ type: 'text', text }] }),
);
await server.connect(new StdioServerTransport());
