// The minimal official v2 server the size metric bundles: one tool with a plain JSON Schema (`fromJsonSchema`), over
// stdio with `serveStdio`, as the SDK's README shows.
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const input = fromJsonSchema<{ text: string }>({
  type: 'object',
  properties: { text: { type: 'string' } },
  required: ['text'],
});
serveStdio(() => {
  const server = new McpServer({ name: 'size', version: '1.0.0' });
  server.registerTool('echo', { description: 'Returns its text', inputSchema: input }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
});
