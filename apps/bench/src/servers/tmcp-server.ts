// The bench server on tmcp over stdio: `echo` and `big` with zod inputs through tmcp's zod adapter, as its README
// writes a server. tmcp and its packages stay external to the bundle: plain node loads them from node_modules.
import { ZodJsonSchemaAdapter } from '@tmcp/adapter-zod';
import { StdioTransport } from '@tmcp/transport-stdio';
import { McpServer } from 'tmcp';
import { z } from 'zod';
import { bigText } from './big-text';
import { BIG_BYTES_ZOD } from './big-zod';
import { installCpuReport } from './cpu-report';

installCpuReport();
const server = new McpServer(
  { name: 'bench-tmcp', version: '1.0.0', description: 'The bench server on tmcp' },
  { adapter: new ZodJsonSchemaAdapter(), capabilities: { tools: {} } },
);
server.tool(
  { name: 'echo', description: 'Returns its text', schema: z.object({ text: z.string() }) },
  async ({ text }) => ({ content: [{ type: 'text', text }] }),
);
server.tool(
  { name: 'big', description: 'Returns `bytes` bytes of text', schema: z.object({ bytes: BIG_BYTES_ZOD }) },
  async ({ bytes }) => ({ content: [{ type: 'text', text: bigText(bytes) }] }),
);
new StdioTransport(server).listen();
