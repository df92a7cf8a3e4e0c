// The sample server: every built-in a production server usually wants, in the order they should run.
import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import { consoleJsonLogger, logging } from '@mcpkit/middleware/logging';
import { metrics } from '@mcpkit/middleware/metrics';
import { rateLimit } from '@mcpkit/middleware/rate-limit';
import { timeouts } from '@mcpkit/middleware/timeouts';
import { tracing } from '@mcpkit/middleware/tracing';
import { McpServer } from '@mcpkit/server';

const NOTES = new Map([
  ['groceries', 'eggs, flour, milk'],
  ['ideas', 'a middleware sample that proves itself'],
]);

export function createStackServer(): McpServer {
  const server = new McpServer({ name: 'middleware-stack', version: '1.0.0' });

  // Outermost first: logging and metrics see every outcome (refusals included), tracing makes the span the handler
  // runs in, and the limits answer before any handler work.
  server.use(logging({ logger: consoleJsonLogger(), redact: ['note'] }));
  server.use(metrics());
  const traced = tracing();
  server.use(traced);
  server.useOutbound(traced.outbound);
  server.use(
    rateLimit({
      limit: { capacity: 50, refillPerSecond: 10 },
      tools: { search: { capacity: 2, refillPerSecond: 0.1 } },
    }),
  );
  server.use(timeouts({ defaultMs: 10_000, tools: { report: 500 } }));

  server.registerTool(
    'lookup',
    {
      description: 'Reads one note',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const,
      annotations: { readOnlyHint: true },
    },
    ({ name }) => ({ content: [{ type: 'text', text: NOTES.get(String(name)) ?? '(no such note)' }] }),
  );
  server.registerTool(
    'search',
    {
      description: 'Searches the notes (expensive: 2 calls, then one every 10 s)',
      inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } as const,
      annotations: { readOnlyHint: true },
    },
    ({ query }) => {
      const found = [...NOTES].filter(([, text]) => text.includes(String(query))).map(([name]) => name);
      return { content: [{ type: 'text', text: found.join(', ') || '(nothing)' }] };
    },
  );
  server.registerTool(
    'report',
    {
      description: 'A report that takes 2 s: stopped at its 500 ms deadline',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
    },
    async (_args, ctx) => {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, 2_000);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(ctx.signal.reason);
        });
      });
      return { content: [{ type: 'text', text: 'report' }] };
    },
  );
  server.registerTool(
    'delete_note',
    {
      description: 'Deletes a note',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const,
      annotations: { destructiveHint: true },
    },
    ({ name }) => {
      NOTES.delete(String(name));
      return { content: [{ type: 'text', text: `deleted ${String(name)}` }] };
    },
  );

  // A resource whose store is "warming up" on the first read: the client's retries get it on the second.
  let reads = 0;
  server.registerResource('today', 'notes://today', { mimeType: 'text/plain' }, (uri) => {
    reads++;
    if (reads === 1) throw new JsonRpcError(503, 'The note store is warming up; try again shortly');
    return { contents: [{ uri: String(uri), text: NOTES.get('groceries') ?? '' }] };
  });
  return server;
}
