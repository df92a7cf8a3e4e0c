import { Client } from '@mcpkit/client';
import { createLinkedTransports } from '@mcpkit/jsonrpc-core';
import { McpServer } from '@mcpkit/server';
import { APP_HTML_MIME_TYPE, APPS_EXTENSION_ID, AppsServer } from '../src/index';

// biome-ignore lint/suspicious/noExplicitAny: tests read deep into wire objects
export type Loose = Record<string, any>;

export const VIEW_HTML = '<!doctype html><html><body>view</body></html>';

/** A server with a view, a tool linked to it, an app-only tool and a model-only tool; a host client connected to it. */
export async function hostClient(options: { html?: string; maxHtmlBytes?: number } = {}) {
  const mcp = new McpServer({ name: 'apps-host-test', version: '1.0.0' });
  const apps = new AppsServer(mcp, {
    ...(options.maxHtmlBytes !== undefined && { maxHtmlBytes: options.maxHtmlBytes }),
  });
  apps.registerView('chart', 'ui://test/chart', { html: options.html ?? VIEW_HTML });
  apps.registerAppTool('sales', { view: 'ui://test/chart' }, () => ({
    content: [{ type: 'text', text: 'sales' }],
    structuredContent: { values: [1, 2] },
  }));
  apps.registerAppTool('refresh', { view: 'ui://test/chart', visibility: ['app'] }, () => ({
    content: [{ type: 'text', text: 'refreshed' }],
  }));
  apps.registerAppTool('model_only', { visibility: ['model'] }, () => ({
    content: [{ type: 'text', text: 'secret' }],
  }));
  const [serverSide, clientSide] = createLinkedTransports();
  await mcp.connect(serverSide);
  const client = new Client({ name: 'test-host', version: '1.0.0' });
  client.extend({ id: APPS_EXTENSION_ID, settings: { mimeTypes: [APP_HTML_MIME_TYPE] } });
  await client.connect(clientSide, { protocolVersion: '2025-11-25' });
  return { mcp, apps, client };
}
