import { Client } from '@mcpkit/client';
import { createLinkedTransports } from '@mcpkit/jsonrpc-core';
import { McpServer } from '@mcpkit/server';
import { describe, expect, it } from 'vitest';
import { APP_HTML_MIME_TYPE, APPS_EXTENSION_ID, AppsError, AppsServer, type AppsServerOptions } from '../src/index';

// biome-ignore lint/suspicious/noExplicitAny: tests read deep into wire objects
type Loose = Record<string, any>;

const ERAS = ['2025-11-25', '2026-07-28'] as const;
const HTML = '<!doctype html><html><body>chart</body></html>';

function appServer(options: AppsServerOptions = {}) {
  const mcp = new McpServer({ name: 'apps-test', version: '1.0.0' });
  const apps = new AppsServer(mcp, options);
  apps.registerView('chart', 'ui://test/chart', {
    html: HTML,
    description: 'A bar chart',
    csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example.com'] },
    permissions: { clipboardWrite: {} },
    prefersBorder: true,
  });
  apps.registerAppTool('sales', { view: 'ui://test/chart', description: 'Sales by month' }, (_args, ctx) => ({
    content: [{ type: 'text', text: AppsServer.rendersViews(ctx) ? 'see the chart' : 'Jan 10, Feb 12' }],
    structuredContent: { values: [10, 12] },
  }));
  apps.registerAppTool('refresh', { view: 'ui://test/chart', visibility: ['app'] }, () => ({
    content: [{ type: 'text', text: 'refreshed' }],
  }));
  mcp.registerTool('plain', { description: 'No view' }, () => ({ content: [{ type: 'text', text: 'plain' }] }));
  apps.registerAppTool('bare', { description: 'No MCP Apps metadata at all' }, () => ({ content: [] }));
  return { mcp, apps };
}

async function connect(mcp: McpServer, version: string, host: boolean) {
  const [serverSide, clientSide] = createLinkedTransports();
  await mcp.connect(serverSide);
  const client = new Client({ name: host ? 'a-host' : 'a-model-client', version: '1.0.0' });
  if (host) client.extend({ id: APPS_EXTENSION_ID, settings: { mimeTypes: [APP_HTML_MIME_TYPE] } });
  await client.connect(clientSide, { protocolVersion: version });
  return client;
}

function refusal(run: () => unknown, code: string): AppsError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(AppsError);
  expect((caught as AppsError).code).toBe(code);
  return caught as AppsError;
}

describe('AppsServer registration rules', () => {
  it('refuses a view URI that is not ui://, naming the view and the field', () => {
    const { apps } = appServer();
    const error = refusal(() => apps.registerView('page', 'https://example.com/x', { html: HTML }), 'ERR_INVALID_VIEW');
    expect(error.message).toContain("registerView('page'): uri must be a ui:// URI");
    expect(error.data).toMatchObject({ view: 'page', field: 'uri' });
    refusal(() => apps.registerView('empty', 'ui://', { html: HTML }), 'ERR_INVALID_VIEW');
  });

  it('refuses malformed csp, permissions, domain and prefersBorder', () => {
    const { apps } = appServer();
    const bad = (meta: Loose) =>
      refusal(() => apps.registerView('v', 'ui://t/v', { html: HTML, ...meta }), 'ERR_INVALID_VIEW');
    expect(bad({ csp: { connectDomains: ["https://a.com; script-src 'unsafe-eval'"] } }).data).toMatchObject({
      field: 'csp.connectDomains',
    });
    expect(bad({ csp: { scriptDomains: [] } }).data).toMatchObject({ field: 'csp.scriptDomains' });
    expect(bad({ csp: { frameDomains: 'https://a.com' } }).message).toContain('must be an array');
    expect(bad({ permissions: { usb: {} } }).data).toMatchObject({ field: 'permissions.usb' });
    expect(bad({ domain: 'a b' }).data).toMatchObject({ field: 'domain' });
    expect(bad({ prefersBorder: 'yes' }).data).toMatchObject({ field: 'prefersBorder' });
  });

  it('refuses view HTML over the limit, at registration and on each read of generated HTML', async () => {
    const { mcp, apps } = appServer({ maxHtmlBytes: 100 });
    const error = refusal(() => apps.registerView('big', 'ui://t/big', { html: 'é'.repeat(51) }), 'ERR_VIEW_TOO_LARGE');
    expect(error.data).toMatchObject({ view: 'big', bytes: 102, limit: 100 });
    apps.registerView('grows', 'ui://t/grows', { html: () => 'x'.repeat(101) });
    const client = await connect(mcp, '2025-11-25', true);
    await expect(client.readResource({ uri: 'ui://t/grows' })).rejects.toThrow(/over the limit of 100/);
    await client.close();
  });

  it('refuses a tool pointing at a view that does not exist, and unknown visibility values', () => {
    const { apps } = appServer();
    const missing = refusal(
      () => apps.registerAppTool('broken', { view: 'ui://test/nowhere' }, () => ({ content: [] })),
      'ERR_INVALID_APP_TOOL',
    );
    expect(missing.message).toContain("registerAppTool('broken'): _meta.ui.resourceUri points at ui://test/nowhere");
    expect(missing.data).toMatchObject({ tool: 'broken', field: '_meta.ui.resourceUri' });
    const notUi = refusal(
      () => apps.registerAppTool('web', { view: 'https://x' }, () => ({ content: [] })),
      'ERR_INVALID_APP_TOOL',
    );
    expect(notUi.data).toMatchObject({ tool: 'web', field: '_meta.ui.resourceUri' });
    const handWritten = refusal(
      () => apps.registerAppTool('meta', { _meta: { ui: { visibility: ['bot'] } } }, () => ({ content: [] })),
      'ERR_INVALID_APP_TOOL',
    );
    expect(handWritten.data).toMatchObject({ tool: 'meta', field: '_meta.ui.visibility' });
    for (const visibility of [['agent'], [], ['app', 'app'], 'app']) {
      const error = refusal(
        // biome-ignore lint/suspicious/noExplicitAny: deliberately wrong input
        () => apps.registerAppTool('vis', { visibility: visibility as any }, () => ({ content: [] })),
        'ERR_INVALID_APP_TOOL',
      );
      expect(error.data).toMatchObject({ tool: 'vis', field: '_meta.ui.visibility' });
      expect(error.message).toContain("registerAppTool('vis'): _meta.ui.visibility");
    }
  });
});

describe.each(ERAS)('AppsServer on the wire, %s', (version) => {
  it('advertises the extension and reads the host support from the client capabilities', async () => {
    const { mcp } = appServer();
    const host = await connect(mcp, version, true);
    expect(host.serverCapabilities?.extensions?.[APPS_EXTENSION_ID]).toEqual({});
    expect((await host.callTool({ name: 'sales' })).content).toEqual([{ type: 'text', text: 'see the chart' }]);
    const plain = await connect(mcp, version, false);
    expect((await plain.callTool({ name: 'sales' })).content).toEqual([{ type: 'text', text: 'Jan 10, Feb 12' }]);
    await Promise.all([host.close(), plain.close()]);
  });

  it('lists tools with _meta.ui and serves the view with its _meta.ui', async () => {
    const { mcp } = appServer();
    const host = await connect(mcp, version, true);
    const tools = (await host.listTools()).tools as Loose[];
    expect(tools.find((tool) => tool.name === 'sales')?._meta).toEqual({
      ui: { resourceUri: 'ui://test/chart' },
      'ui/resourceUri': 'ui://test/chart',
    });
    expect(tools.find((tool) => tool.name === 'bare')?._meta).toBeUndefined();
    expect(tools.find((tool) => tool.name === 'refresh')?._meta?.ui).toEqual({
      resourceUri: 'ui://test/chart',
      visibility: ['app'],
    });
    const ui = {
      csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://*.cdn.example.com'] },
      permissions: { clipboardWrite: {} },
      prefersBorder: true,
    };
    const listed = (await host.listResources()).resources as Loose[];
    expect(listed).toContainEqual(
      expect.objectContaining({ uri: 'ui://test/chart', mimeType: APP_HTML_MIME_TYPE, _meta: { ui } }),
    );
    const read = await host.readResource({ uri: 'ui://test/chart' });
    expect(read.contents).toEqual([
      { uri: 'ui://test/chart', mimeType: APP_HTML_MIME_TYPE, text: HTML, _meta: { ui } },
    ]);
    await host.close();
  });

  it('hides app-only tools from a client without the extension and refuses its calls, naming the visibility', async () => {
    const { mcp } = appServer();
    const plain = await connect(mcp, version, false);
    expect((await plain.listTools()).tools.map((tool) => tool.name)).toEqual(['sales', 'plain', 'bare']);
    await expect(plain.callTool({ name: 'refresh' })).rejects.toThrow(/visibility \["app"\]/);
    const host = await connect(mcp, version, true);
    expect((await host.listTools()).tools.map((tool) => tool.name)).toEqual(['sales', 'refresh', 'plain', 'bare']);
    expect((await host.callTool({ name: 'refresh' })).content).toEqual([{ type: 'text', text: 'refreshed' }]);
    await Promise.all([host.close(), plain.close()]);
  });

  it("leaves app-only tools to the client with appOnlyTools: 'show'", async () => {
    const { mcp } = appServer({ appOnlyTools: 'show' });
    const plain = await connect(mcp, version, false);
    expect((await plain.listTools()).tools.map((tool) => tool.name)).toContain('refresh');
    await plain.close();
  });
});
