import { Client } from '@mcpkit/client';
import { createLinkedTransports } from '@mcpkit/jsonrpc-core';
import { approval, retries } from '@mcpkit/middleware/client';
import { type Logger, logging } from '@mcpkit/middleware/logging';
import { rateLimit } from '@mcpkit/middleware/rate-limit';
import { timeouts } from '@mcpkit/middleware/timeouts';
import { McpServer } from '@mcpkit/server';

// Any logger with info/warn/error works (pino, console); this one prints a short line per request.
const print = (record: object) => {
  const { side, method, tool, outcome, errorCode } = record as Record<string, unknown>;
  console.log(`${side}: ${method}${tool ? ` ${tool}` : ''} → ${outcome}${errorCode ? ` ${errorCode}` : ''}`);
};
const logger: Logger = { info: print, warn: print, error: print };

const server = new McpServer({ name: 'notes', version: '1.0.0' });
server.use(logging({ logger }));
server.use(rateLimit({ tools: { search: { capacity: 1, refillPerSecond: 0.1 } } }));
server.use(timeouts({ defaultMs: 5_000 }));
server.registerTool('search', { annotations: { readOnlyHint: true } }, () => ({
  content: [{ type: 'text', text: 'found 3 notes' }],
}));
server.registerTool('wipe', { annotations: { destructiveHint: true } }, () => ({
  content: [{ type: 'text', text: 'wiped' }],
}));

const client = new Client({ name: 'careful-client', version: '1.0.0' });
client.use(approval({ approve: ({ annotations }) => annotations?.destructiveHint !== true }));
client.use(retries());
client.use(logging({ logger }));

const [clientSide, serverSide] = createLinkedTransports();
await server.connect(serverSide);
await client.connect(clientSide);
await client.listTools(); // approval learns each tool's annotations here

await client.callTool({ name: 'search', arguments: {} });
await client.callTool({ name: 'search', arguments: {} }).catch((error) => console.log(`refused: ${error.message}`));
await client.callTool({ name: 'wipe', arguments: {} }).catch((error) => console.log(`refused: ${error.message}`));
await client.close();
