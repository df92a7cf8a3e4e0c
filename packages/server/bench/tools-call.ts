/**
 * Micro benchmark: the tools/call hot path, in one process.
 *
 * Run from the repository root (Node 20 cannot strip types, so bundle first):
 *   npx esbuild packages/server/bench/tools-call.ts --bundle --platform=node --format=esm \
 *     --conditions=@mcpkit/source --outfile=/tmp/server-tools-call.mjs && node /tmp/server-tools-call.mjs
 *
 * Scenarios (each 20 000 sequential calls after a warm-up, best of 10 runs):
 * - handle/modern: `McpServer.handle` with the 2026-07-28 envelope (era rules, gating, result completion).
 * - peer/legacy: a linked in-memory client/server pair after `initialize` (session era, router, peer).
 */
import { createLinkedTransports, JsonRpcPeer, type JsonRpcRequest } from '@mcpkit/jsonrpc-core';
import { buildRequestMeta, mcpPeerHooks } from '@mcpkit/protocol';
import { McpServer } from '../src/index';

const CALLS = 20_000;
const WARMUP = 2_000;
const RUNS = 10;

function makeServer(): McpServer {
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  server.registerTool(
    'add',
    {
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      } as const,
    },
    ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  return server;
}

async function best(label: string, run: (count: number) => Promise<void>): Promise<void> {
  await run(WARMUP);
  let fastest = Number.POSITIVE_INFINITY;
  for (let round = 0; round < RUNS; round++) {
    const start = performance.now();
    await run(CALLS);
    fastest = Math.min(fastest, performance.now() - start);
  }
  const perSecond = Math.round((CALLS / fastest) * 1000);
  console.log(`${label}: ${fastest.toFixed(1)} ms for ${CALLS} calls (${perSecond.toLocaleString('en')} calls/s)`);
}

const server = makeServer();
const meta = buildRequestMeta({
  protocolVersion: '2026-07-28',
  clientCapabilities: {},
  clientInfo: { name: 'b', version: '1' },
});
await best('handle/modern', async (count) => {
  for (let id = 0; id < count; id++) {
    const request: JsonRpcRequest = {
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'add', arguments: { a: id, b: 1 }, _meta: meta },
    };
    const response = await server.handle(request);
    if (response === undefined || 'error' in response) throw new Error(`call ${id} failed`);
  }
});

const [clientSide, serverSide] = createLinkedTransports();
await server.connect(serverSide);
const client = new JsonRpcPeer({ hooks: mcpPeerHooks, defaultTimeoutMs: 5_000 });
await client.connect(clientSide);
await client.request('initialize', {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'b', version: '1' },
});
await client.notify('notifications/initialized');
await best('peer/legacy', async (count) => {
  for (let id = 0; id < count; id++) await client.request('tools/call', { name: 'add', arguments: { a: id, b: 1 } });
});
await client.close();
await server.close();
