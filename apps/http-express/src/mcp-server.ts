// The MCP server itself: what it offers, with nothing about HTTP. Replace these tools and the resource with yours.
import { McpServer } from '@mcpkit/server';

/**
 * Builds the one `McpServer` the HTTP endpoint serves. Every client (every legacy session and every stateless
 * 2026-07-28 request) talks to this same instance, so keep per-user state out of it or key it by `ctx.auth`.
 *
 * @example
 * const server = createMcpServer();
 * const handler = createStreamableHttpHandler(server);
 */
export function createMcpServer(): McpServer {
  const server = new McpServer(
    { name: 'http-express-sample', version: '1.0.0' },
    { instructions: 'A sample server: echoes text and tells the time.' },
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

  // Typed output: the outputSchema is published in tools/list and every result is checked against it.
  server.registerTool(
    'time',
    {
      description: 'The current time, in an IANA time zone (default UTC)',
      inputSchema: {
        type: 'object',
        properties: { timeZone: { type: 'string', description: 'e.g. Europe/Paris' } },
      } as const,
      outputSchema: {
        type: 'object',
        properties: { iso: { type: 'string' }, timeZone: { type: 'string' }, local: { type: 'string' } },
        required: ['iso', 'timeZone', 'local'],
      } as const,
      annotations: { readOnlyHint: true },
    },
    ({ timeZone = 'UTC' }) => {
      let local: string;
      try {
        local = new Date().toLocaleString('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'long' });
      } catch {
        // A bad zone is the caller's mistake, not a server failure: answer with a tool error the model can act on.
        return { isError: true, content: [{ type: 'text', text: `Unknown time zone '${timeZone}'` }] };
      }
      const iso = new Date().toISOString();
      return {
        content: [{ type: 'text', text: `${local} (${timeZone})` }],
        structuredContent: { iso, timeZone, local },
      };
    },
  );

  server.registerResource(
    'about',
    'sample://about',
    { title: 'About this server', mimeType: 'application/json' },
    (uri) => ({
      contents: [
        {
          uri,
          mimeType: 'application/json',
          text: JSON.stringify({ name: 'http-express-sample', transport: 'streamable-http', endpoint: '/mcp' }),
        },
      ],
    }),
  );

  return server;
}
