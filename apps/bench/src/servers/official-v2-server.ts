// The bench server on the official v2 SDK (@modelcontextprotocol/server 2.x): one tool `echo`, its input a plain JSON
// Schema through the SDK's own `fromJsonSchema` (validated by the SDK's default JSON Schema validator). `serveStdio`
// is the SDK's stdio entry point (both eras), as its README shows. The SDK stays external to the bundle: plain node
// loads it from node_modules.
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { installCpuReport } from './cpu-report';

installCpuReport();
const input = fromJsonSchema<{ text: string }>({
  type: 'object',
  properties: { text: { type: 'string' } },
  required: ['text'],
});
serveStdio(() => {
  const server = new McpServer({ name: 'bench-official-v2', version: '1.0.0' });
  server.registerTool('echo', { description: 'Returns its text', inputSchema: input }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
});
