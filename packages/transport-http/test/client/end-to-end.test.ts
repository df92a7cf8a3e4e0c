import { Client } from '@mcpkit/client';
import { McpServer } from '@mcpkit/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createStreamableHttpHandler, StreamableHttpClientTransport } from '../../src/index';
import { listen } from '../../src/node/index';

// Our client transport against our own Streamable HTTP server (node adapter), over real HTTP on 127.0.0.1.

function everything(
  closeStream: (ctx: Parameters<ReturnType<typeof createStreamableHttpHandler>['closeSseStream']>[0]) => void,
) {
  const server = new McpServer({ name: 'e2e', version: '1.0.0' });
  server.registerTool(
    'deploy',
    {
      description: 'Deploys',
      inputSchema: {
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, note: { type: 'string' } },
        required: ['region'],
      },
    },
    (args) => ({ content: [{ type: 'text', text: `deployed to ${String((args as { region: string }).region)}` }] }),
  );
  server.registerTool('polling', { description: 'Closes its stream mid-call' }, async (_args, ctx) => {
    await ctx.progress(1, 2);
    closeStream(ctx);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await ctx.progress(2, 2);
    return { content: [{ type: 'text', text: 'survived' }] };
  });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
}

describe('end to end: our client transport with our server', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function serve() {
    let handler!: ReturnType<typeof createStreamableHttpHandler>;
    handler = createStreamableHttpHandler(
      everything((ctx) => handler.closeSseStream(ctx)),
      { retryMs: 20 },
    );
    const listening = await listen(handler, { port: 0, host: '127.0.0.1' });
    cleanup.push(() => listening.close());
    return { handler, url: listening.url };
  }

  it('2026-07-28: discovers, sends Mcp-Param-* from the listed x-mcp-header, calls tools', async () => {
    const { url } = await serve();
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(new StreamableHttpClientTransport(url));
    expect(client.era).toBe('modern');
    const tools = await client.listAllTools();
    expect(tools.map((tool) => tool.name)).toEqual(['deploy', 'polling', 'echo']);
    const result = await client.callTool({ name: 'deploy', arguments: { region: 'eu-west' } });
    expect(result.content).toEqual([{ type: 'text', text: 'deployed to eu-west' }]);
    // Without the tool list, the transport learns the declaration from the server's -32020 by re-listing.
    const posted: string[] = [];
    const fresh = new Client({ name: 'c2', version: '1' });
    await fresh.connect(
      new StreamableHttpClientTransport(url, {
        fetch: (input, init) => {
          const headers = new Headers(init?.headers);
          posted.push(`${headers.get('mcp-method')} ${headers.get('mcp-param-region') ?? '-'}`);
          return fetch(input, init);
        },
      }),
    );
    const again = await fresh.callTool({ name: 'deploy', arguments: { region: 'ap-south' } });
    expect(again.content).toEqual([{ type: 'text', text: 'deployed to ap-south' }]);
    expect(posted).toEqual(['server/discover -', 'tools/call -', 'tools/list -', 'tools/call ap-south']);
    await Promise.all([client.close(), fresh.close()]);
  });

  it('legacy sessions: a call whose stream the server closes mid-call completes after resuming with Last-Event-ID', async () => {
    const { handler, url } = await serve();
    const client = new Client({ name: 'c', version: '1' });
    const transport = new StreamableHttpClientTransport(url);
    await client.connect(transport, { era: 'legacy' });
    expect(transport.sessionId).toBeDefined();
    expect(handler.sessionCount).toBe(1);
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'polling', arguments: {} },
      { onProgress: ({ progress: p }) => progress.push(p) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'survived' }]);
    expect(progress).toEqual([1, 2]);
    await client.close();
    expect(handler.sessionCount).toBe(0); // DELETE ended the session
  });
});
