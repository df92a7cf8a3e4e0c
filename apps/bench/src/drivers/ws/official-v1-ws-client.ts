// The official v1 SDK's WebSocket client (`WebSocketClientTransport`, client only: v1 has no WebSocket server and v2
// has no WebSocket transport at all) against mcpkit's WebSocket server: same server, so the two WebSocket rows compare
// the clients. v1 uses the global `WebSocket`, which Node 20 lacks, so ws's class is installed as the global first.
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import { runConcurrentDriver } from '../concurrent';

await runConcurrentDriver(async (config) => {
  if (config.wsModule === undefined) throw new Error('the WebSocket driver needs `wsModule` (the path of ws)');
  const global = globalThis as { WebSocket?: unknown };
  global.WebSocket ??= (createRequire(import.meta.url)(config.wsModule) as { WebSocket: unknown }).WebSocket;
  const client = new Client({ name: 'bench-official-v1-ws-client', version: '1.0.0' });
  await client.connect(new WebSocketClientTransport(new URL(config.url)));
  const callText = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    const first = (result.content as { type: string; text?: string }[])[0];
    return first?.type === 'text' ? (first.text ?? '') : '';
  };
  return {
    call: (text) => callText('echo', { text }),
    big: (bytes) => callText('big', { bytes }),
    close: () => client.close(),
  };
});
