// The official v2 bench server definition, shared by the stdio and HTTP servers: `echo` {text} → text, `big` {bytes}
// → that many bytes of text, inputs as plain JSON Schemas through the SDK's `fromJsonSchema`.
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { BIG_INPUT_SCHEMA, bigText } from './big-text';
import { BIG_BYTES_ZOD } from './big-zod';

const echoInput = fromJsonSchema<{ text: string }>({
  type: 'object',
  properties: { text: { type: 'string' } },
  required: ['text'],
});
const bigInput = fromJsonSchema<{ bytes: number }>(BIG_INPUT_SCHEMA);

/** A new official v2 `McpServer` with the bench tools (v2 binds one server instance to one transport). */
export function createOfficialV2Server(): McpServer {
  const server = new McpServer({ name: 'bench-official-v2', version: '1.0.0' });
  server.registerTool('echo', { description: 'Returns its text', inputSchema: echoInput }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  server.registerTool(
    'big',
    { description: 'Returns `bytes` bytes of text', inputSchema: bigInput },
    async ({ bytes }) => ({
      content: [{ type: 'text', text: bigText(bytes) }],
    }),
  );
  return server;
}

/** The same tools with zod objects as inputs, as the v2 README writes them. */
export function createOfficialV2ZodServer(): McpServer {
  const server = new McpServer({ name: 'bench-official-v2-zod', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Returns its text', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool(
    'big',
    { description: 'Returns `bytes` bytes of text', inputSchema: z.object({ bytes: BIG_BYTES_ZOD }) },
    async ({ bytes }) => ({ content: [{ type: 'text', text: bigText(bytes) }] }),
  );
  return server;
}
