// The minimal tmcp server, as its README writes it: the zod adapter, one tool whose input is a zod object, over stdio.
import { ZodJsonSchemaAdapter } from '@tmcp/adapter-zod';
import { StdioTransport } from '@tmcp/transport-stdio';
import { McpServer } from 'tmcp';
import { z } from 'zod';

const server = new McpServer(
  { name: 'size', version: '1.0.0', description: 'size' },
  { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: {} } },
);
server.tool(
  { name: 'echo', description: 'Returns its text', schema: z.object({ text: z.string() }) },
  async ({ text }) => ({ content: [{ type: 'text', text }] }),
);
new StdioTransport(server).listen();
