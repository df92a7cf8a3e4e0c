// The bench driver on the official v1 client (@modelcontextprotocol/sdk 1.x): `initialize` offering 2025-11-25. The
// SDK stays external to the bundle: plain node loads it from node_modules.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runDriver } from './drive';

await runDriver(async (command, args, textOf) => {
  const client = new Client({ name: 'bench-official-v1-client', version: '1.0.0' });
  const transport = new StdioClientTransport({ command, args, stderr: 'inherit' });
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error('official v1 transport has no child pid');
  return {
    pid,
    async call(text) {
      const result = await client.callTool({ name: 'echo', arguments: { text } }, undefined, { timeout: 120_000 });
      return textOf(result);
    },
    async big(bytes) {
      const result = await client.callTool({ name: 'big', arguments: { bytes } }, undefined, { timeout: 120_000 });
      const first = (result.content as { type: string; text?: string }[])[0];
      return first?.type === 'text' ? (first.text ?? '') : '';
    },
    close: () => client.close(),
  };
});
