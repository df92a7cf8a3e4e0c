// The MCP server itself: what it offers, with nothing about WebSocket. Replace these tools with yours.
import { McpServer } from '@mcpkit/server';

/**
 * Builds the one `McpServer` every WebSocket connection is served by (the browser page's, the Node client's, any
 * other's). Each connection is its own session, so keep per-user state out of it or key it by `ctx.auth`.
 *
 * @example
 * const mcp = createMcpServer();
 * await createWebSocketServer(mcp, { port: 3000 });
 */
export function createMcpServer(): McpServer {
  const server = new McpServer(
    { name: 'websocket-sample', version: '1.0.0' },
    { instructions: 'A sample server over WebSocket: echoes text and adds numbers.' },
  );

  // A plain JSON Schema declared `as const` types the handler's arguments without a schema library.
  server.registerTool(
    'echo',
    {
      description: 'Returns the text it is given',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string', description: 'What to echo' } },
        required: ['text'],
      } as const,
      annotations: { readOnlyHint: true },
    },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );

  server.registerTool(
    'add',
    {
      description: 'Adds two numbers',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      } as const,
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] } as const,
      annotations: { readOnlyHint: true },
    },
    ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );

  return server;
}
