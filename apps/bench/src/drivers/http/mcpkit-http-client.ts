// The HTTP bench client on mcpkit: `Client` + `StreamableHttpClientTransport` with its defaults (on Node: node:http
// and its global keep-alive agent, no `fetch`). Legacy modes pin 2025-11-25 (`initialize`); `modern` pins
// 2026-07-28 (no probe, no session).
import { Client } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { runConcurrentDriver } from '../concurrent';

await runConcurrentDriver(async (config) => {
  const client = new Client({ name: 'bench-mcpkit-client', version: '1.0.0' }, { requestTimeoutMs: 120_000 });
  const transport = new StreamableHttpClientTransport(new URL(config.url));
  await client.connect(transport, { protocolVersion: config.mode === 'modern' ? '2026-07-28' : '2025-11-25' });
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
