// A Node client for the sample: `npx pnpm --filter @mcpkit/app-websocket client [ws://127.0.0.1:3000/mcp] [--legacy]`.
// Node 20 has no global WebSocket, so the `ws` package's class is passed in; Node 22+, Deno and Bun need none.
import { Client } from '@mcpkit/client';
import { WebSocketClientTransport } from '@mcpkit/transport-websocket';
import { WebSocket } from 'ws';

const args = process.argv.slice(2);
const url = args.find((arg) => !arg.startsWith('--')) ?? 'ws://127.0.0.1:3000/mcp';
const legacy = args.includes('--legacy');
const CALL = { timeoutMs: 10_000 } as const;

const client = new Client({ name: 'websocket-sample-node-client', version: '1.0.0' }, { requestTimeoutMs: 10_000 });
try {
  // Without --legacy the client probes server/discover and speaks 2026-07-28; with it, pins the initialize era.
  await client.connect(new WebSocketClientTransport(url, { WebSocket }), {
    timeoutMs: 10_000,
    ...(legacy ? { protocolVersion: '2025-11-25' } : {}),
  });
  console.log(`connected to ${client.serverInfo?.name} at ${url}: ${client.protocolVersion} (${client.era} era)`);

  const { tools } = await client.listTools({}, CALL);
  console.log(`tools: ${tools.map((tool) => tool.name).join(', ')}`);

  const echoed = await client.callTool({ name: 'echo', arguments: { text: 'hello from node' } }, CALL);
  console.log(`echo → ${echoed.content[0]?.type === 'text' ? echoed.content[0].text : '?'}`);

  const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }, CALL);
  console.log(`add(2, 3) → ${JSON.stringify(sum.structuredContent)}`);
} catch (error) {
  console.error(`websocket sample client failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await client.close();
}
