// The bench server on the official v1 SDK (@modelcontextprotocol/sdk 1.x): one tool `echo`. v1 takes no plain JSON
// Schema for tool input, only a zod shape, so this is the smallest v1 server a user can write. The SDK stays
// external to the bundle: plain node loads it from node_modules.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';
import { installCpuReport } from './cpu-report';

installCpuReport();
const server = new McpServer({ name: 'bench-official-v1', version: '1.0.0' });
server.registerTool(
  'echo',
  { description: 'Returns its text', inputSchema: { text: z.string() } },
  async ({ text }) => ({
    content: [{ type: 'text', text }],
  }),
);
await server.connect(new StdioServerTransport());
