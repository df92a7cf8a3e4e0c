// The WebSocket bench client on mcpkit: `Client` + `WebSocketClientTransport` with ws's `WebSocket` (Node 20 has no
// global one), 2025-11-25 `initialize` like the stdio and stateful HTTP runs, so the three transports compare.
import { createRequire } from 'node:module';
import { Client } from '@mcpkit/client';
import { WebSocketClientTransport, type WebSocketConstructor } from '@mcpkit/transport-websocket';
import { runConcurrentDriver } from '../concurrent';

await runConcurrentDriver(async (config) => {
  if (config.wsModule === undefined) throw new Error('the WebSocket driver needs `wsModule` (the path of ws)');
  const { WebSocket } = createRequire(import.meta.url)(config.wsModule) as { WebSocket: WebSocketConstructor };
  const client = new Client({ name: 'bench-mcpkit-ws-client', version: '1.0.0' }, { requestTimeoutMs: 120_000 });
  await client.connect(new WebSocketClientTransport(config.url, { WebSocket }), { protocolVersion: '2025-11-25' });
  const callText = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const result = await client.callTool({ name, arguments: args });
    const first = result.content[0];
    return first?.type === 'text' ? first.text : '';
  };
  return {
    call: (text) => callText('echo', { text }),
    big: (bytes) => callText('big', { bytes }),
    close: () => client.close(),
  };
});
