// The mcpkit bench server with zod inputs: `echo` {text} and `big` {bytes} as zod shapes, as most users write them.
// Apart from mcpkit-tools.ts so the plain JSON Schema servers never load zod.
import { McpServer } from '@mcpkit/server';
import { z } from 'zod';
import { bigText } from './big-text';
import { BIG_BYTES_ZOD } from './big-zod';

/** The same tools with zod shapes as inputs, as most mcpkit users write them. */
export function createMcpkitZodServer(): McpServer {
  const server = new McpServer({ name: 'bench-mcpkit-zod', version: '1.0.0' });
  server.registerTool('echo', { description: 'Returns its text', inputSchema: { text: z.string() } }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool(
    'big',
    { description: 'Returns `bytes` bytes of text', inputSchema: { bytes: BIG_BYTES_ZOD } },
    ({ bytes }) => ({ content: [{ type: 'text', text: bigText(bytes) }] }),
  );
  return server;
}
