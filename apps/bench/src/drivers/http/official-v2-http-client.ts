// The HTTP bench client on the official v2 SDK: `Client` + `StreamableHTTPClientTransport` from
// @modelcontextprotocol/client. Legacy modes use its default opening (`initialize`, 2025-11-25); `modern` pins
// 2026-07-28 through `versionNegotiation`.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { runConcurrentDriver } from '../concurrent';

await runConcurrentDriver(async (config) => {
  const client = new Client(
    { name: 'bench-official-v2-client', version: '1.0.0' },
    config.mode === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  const transport = new StreamableHTTPClientTransport(new URL(config.url));
  await client.connect(transport);
  const callText = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const result = await client.callTool({ name, arguments: args }, { timeout: 120_000 });
    const first = (result.content as { type: string; text?: string }[])[0];
    return first?.type === 'text' ? (first.text ?? '') : '';
  };
  return {
    call: (text) => callText('echo', { text }),
    big: (bytes) => callText('big', { bytes }),
    async close() {
      // Ends the server's session (DELETE) the way the SDK documents, then closes the transport.
      if (config.mode !== 'modern' && config.mode !== 'stateless') await transport.terminateSession();
      await client.close();
    },
  };
});
