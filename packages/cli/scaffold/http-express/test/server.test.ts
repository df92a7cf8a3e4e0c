// Starts the express app on a free port and talks to it over Streamable HTTP.
import { Client } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { expect, it } from 'vitest';
import { start } from '../src/start';

it('answers over Streamable HTTP', { timeout: 30_000 }, async () => {
  const running = await start({ port: 0 });
  try {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(running.url));
    expect((await client.listAllTools()).length).toBeGreaterThan(0);
    await client.close();
  } finally {
    await running.close();
  }
});
