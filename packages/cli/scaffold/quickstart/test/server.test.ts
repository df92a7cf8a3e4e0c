// Starts the server over stdio, as a host would, and talks to it in both protocol eras.
import { Client } from '@mcpkit/client';
import { StdioClientTransport } from '@mcpkit/transport-stdio';
import { expect, it } from 'vitest';

it('lists the tools and calls one, in both eras', { timeout: 30_000 }, async () => {
  for (const era of ['modern', 'legacy'] as const) {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', 'src/server.ts'] }),
      { era },
    );
    const tools = await client.listAllTools();
    expect(tools.map((tool) => tool.name)).toContain('split-bill');
    const result = await client.callTool({ name: 'split-bill', arguments: { total: 100, people: 4 } });
    expect(result.structuredContent).toEqual({ perPerson: 27.5, tip: 10, totalWithTip: 110 });
    await client.close();
  }
});
