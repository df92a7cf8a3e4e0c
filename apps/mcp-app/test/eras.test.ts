import { APP_HTML_MIME_TYPE, APPS_EXTENSION_ID } from '@mcpkit/apps';
import { Client } from '@mcpkit/client';
import { createStreamableHttpHandler, StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { listen } from '@mcpkit/transport-http/node';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpAppServer } from '../src/mcp-server';

// The sample server over Streamable HTTP (127.0.0.1) with a 2025-11-25 client (initialize, a session) and a
// 2026-07-28 client (server/discover, stateless, capabilities in each request's _meta), host or not.

const VIEWS = { chart: '<!doctype html><p>chart</p>', form: '<!doctype html><p>form</p>' };

describe('the sample server in both eras', async () => {
  const { server } = createMcpAppServer(VIEWS);
  const http = await listen(createStreamableHttpHandler(server), { port: 0, host: '127.0.0.1', path: '/mcp' });
  afterAll(() => http.close());

  async function connect(version: string, host: boolean) {
    const client = new Client({ name: host ? 'host' : 'plain', version: '1.0.0' });
    if (host) client.extend({ id: APPS_EXTENSION_ID, settings: { mimeTypes: [APP_HTML_MIME_TYPE] } });
    await client.connect(new StreamableHttpClientTransport(http.url), { protocolVersion: version });
    return client;
  }

  it.each(['2025-11-25', '2026-07-28'])(
    '%s: advertises the extension, serves views and app tools to a host',
    async (version) => {
      const client = await connect(version, true);
      try {
        expect(client.protocolVersion).toBe(version);
        expect(client.serverCapabilities?.extensions?.[APPS_EXTENSION_ID]).toEqual({});
        if (version === '2026-07-28') {
          expect((await client.discover()).capabilities.extensions?.[APPS_EXTENSION_ID]).toEqual({});
        }
        const tools = await client.listAllTools();
        expect(tools.map((tool) => [tool.name, tool._meta?.ui])).toEqual([
          ['show_sales', { resourceUri: 'ui://mcp-app/sales-chart' }],
          ['refresh_sales', { resourceUri: 'ui://mcp-app/sales-chart', visibility: ['app'] }],
          ['take_note', { resourceUri: 'ui://mcp-app/note-form' }],
          ['save_note', { resourceUri: 'ui://mcp-app/note-form', visibility: ['app'] }],
        ]);
        const view = await client.readResource({ uri: 'ui://mcp-app/sales-chart' });
        expect(view.contents[0]).toMatchObject({
          mimeType: APP_HTML_MIME_TYPE,
          text: VIEWS.chart,
          _meta: { ui: { prefersBorder: true } },
        });
        const result = await client.callTool({ name: 'show_sales', arguments: { region: 'EU' } });
        expect(result.structuredContent).toMatchObject({
          region: 'EU',
          months: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun'],
        });
        expect((await client.callTool({ name: 'save_note', arguments: { title: 't' } })).content).toEqual([
          { type: 'text', text: expect.stringMatching(/^Saved note \d+: t$/) },
        ]);
      } finally {
        await client.close();
      }
    },
  );

  it.each(['2025-11-25', '2026-07-28'])(
    '%s: a client without MCP Apps sees no app-only tool and cannot call one',
    async (version) => {
      const client = await connect(version, false);
      try {
        expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(['show_sales', 'take_note']);
        await expect(client.callTool({ name: 'save_note', arguments: { title: 't' } })).rejects.toThrow(
          /visibility \["app"\]/,
        );
        // The text of a tool with a view stands on its own for such a client.
        const result = await client.callTool({ name: 'show_sales', arguments: { region: 'US' } });
        expect(result.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^Jan \d+, Feb \d+/) });
      } finally {
        await client.close();
      }
    },
  );
});
