// The HTTP bench client on the official v1 SDK: `Client` + `StreamableHTTPClientTransport` from
// @modelcontextprotocol/sdk (2025-11-25 `initialize`; v1 does not speak 2026-07-28).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runConcurrentDriver } from '../concurrent';

await runConcurrentDriver(async (config) => {
  if (config.mode === 'modern') throw new Error('the official v1 SDK does not speak 2026-07-28');
  const client = new Client({ name: 'bench-official-v1-client', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(config.url));
  await client.connect(transport);
  const callText = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    const first = (result.content as { type: string; text?: string }[])[0];
    return first?.type === 'text' ? (first.text ?? '') : '';
  };
  return {
    call: (text) => callText('echo', { text }),
    big: (bytes) => callText('big', { bytes }),
    async close() {
      if (config.mode !== 'stateless') await transport.terminateSession();
      await client.close();
    },
  };
});
