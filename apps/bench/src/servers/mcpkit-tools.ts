// The mcpkit bench server definition, shared by the stdio, HTTP and WebSocket servers: `echo` {text} → text, `big`
// {bytes} → that many bytes of text, inputs checked against plain JSON Schemas. One `McpServer` serves every session.
import { McpServer } from '@mcpkit/server';
import { BIG_INPUT_SCHEMA, bigText } from './big-text';

/** The mcpkit `McpServer` with the bench tools. */
export function createMcpkitServer(): McpServer {
  const server = new McpServer({ name: 'bench-mcpkit', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Returns its text',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const,
    },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerTool(
    'big',
    { description: 'Returns `bytes` bytes of text', inputSchema: BIG_INPUT_SCHEMA },
    ({ bytes }) => ({ content: [{ type: 'text', text: bigText(bytes) }] }),
  );
  return server;
}
