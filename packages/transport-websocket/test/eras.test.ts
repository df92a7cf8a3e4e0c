import { describe, expect, it } from 'vitest';
import { closeAfterEach, connectClient, startServer } from './helpers';

closeAfterEach();

describe('both eras over one WebSocket server', () => {
  it('serves a 2026-07-28 client and a legacy client from one McpServer at the same time', async () => {
    const started = await startServer();
    const { endpoint } = started;
    const modern = await connectClient(endpoint.url, 'auto');
    const legacy = await connectClient(endpoint.url, 'legacy');

    expect(modern.era).toBe('modern');
    expect(modern.protocolVersion).toBe('2026-07-28');
    expect(legacy.era).toBe('legacy');

    const [a, b] = await Promise.all([
      modern.callTool({ name: 'echo', arguments: { text: 'modern' } }),
      legacy.callTool({ name: 'echo', arguments: { text: 'legacy' } }),
    ]);
    expect(a.content).toEqual([{ type: 'text', text: 'modern' }]);
    expect(b.content).toEqual([{ type: 'text', text: 'legacy' }]);
    expect((await modern.listAllTools()).map((tool) => tool.name)).toContain('echo');
    expect(started.mcp.sessions.size).toBe(2);
    expect(endpoint.connections).toBe(2);
  });

  it('handles 10 clients calling at once, each getting its own answer', async () => {
    const started = await startServer();
    const { endpoint } = started;
    const url = endpoint.url;
    const many = await Promise.all(
      Array.from({ length: 10 }, (_, index) => connectClient(url, index % 2 === 0 ? 'modern' : 'legacy')),
    );
    const results = await Promise.all(
      many.map((client, index) => client.callTool({ name: 'echo', arguments: { text: `client-${index}` } })),
    );
    expect(results.map((result) => result.content)).toEqual(
      many.map((_, index) => [{ type: 'text', text: `client-${index}` }]),
    );
    expect(started.probe.calls).toBe(10);
    expect(endpoint.connections).toBe(10);
  });

  it('forgets a session when its client closes', async () => {
    const started = await startServer();
    const { endpoint } = started;
    const client = await connectClient(endpoint.url, 'legacy');
    expect(started.mcp.sessions.size).toBe(1);
    await client.close();
    await expect.poll(() => started.mcp.sessions.size, { timeout: 2_000 }).toBe(0);
    expect(endpoint.connections).toBe(0);
  });
});
