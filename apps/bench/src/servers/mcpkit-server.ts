// The bench server on mcpkit: one tool `echo` {text} → text content, input checked against a plain JSON Schema.
// Bundled with esbuild before it is measured, so the bench runs built code (no tsx in the process).
import { McpServer } from '@mcpkit/server';
import { StdioServerTransport } from '@mcpkit/transport-stdio';
import { installCpuReport } from './cpu-report';

installCpuReport();
const server = new McpServer({ name: 'bench-mcpkit', version: '1.0.0' });
server.registerTool(
  'echo',
  {
    description: 'Returns its text',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const,
  },
  ({ text }) => ({ content: [{ type: 'text', text }] }),
);
await server.connect(new StdioServerTransport());
