// The bench driver on mcpkit's client (`Client` + `StdioClientTransport`), 2025-11-25 `initialize` like the others.
import { Client } from '@mcpkit/client';
import { StdioClientTransport } from '@mcpkit/transport-stdio';
import { runDriver } from './drive';

await runDriver(async (command, args, textOf) => {
  const client = new Client({ name: 'bench-mcpkit-client', version: '1.0.0' }, { requestTimeoutMs: 120_000 });
  const transport = new StdioClientTransport({ command, args, stderr: 'inherit', closeStdinGraceMs: 500 });
  await client.connect(transport, { protocolVersion: '2025-11-25' });
  const pid = transport.pid;
  if (pid === undefined || pid === null) throw new Error('mcpkit transport has no child pid');
  return {
    pid,
    async call(text) {
      const result = await client.callTool({ name: 'echo', arguments: { text } });
      return textOf(result);
    },
    async big(bytes) {
      const result = await client.callTool({ name: 'big', arguments: { bytes } });
      const first = result.content[0];
      return first?.type === 'text' ? first.text : '';
    },
    close: () => client.close(),
  };
});
