// The host page: connects to /mcp with @mcpkit/client (declaring MCP Apps), lists the tools the model may see, calls
// one and renders its view through @mcpkit/apps/host in the spec's double iframe. Links the view asks to open are
// intercepted and logged (a real host would open them in a new tab).
import {
  APP_HTML_MIME_TYPE,
  APPS_EXTENSION_ID,
  type MountedAppView,
  mountAppView,
  visibleToModel,
} from '@mcpkit/apps/host';
import { Client } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';

interface HostEvent {
  kind: string;
  detail: unknown;
}

declare global {
  interface Window {
    mcpHost: { events: HostEvent[]; teardown(): Promise<string> };
  }
}

const $ = (id: string) => document.getElementById(id) as HTMLElement;
const params = new URLSearchParams(location.search);
const events: HostEvent[] = [];
let mounted: MountedAppView | undefined;

function record(kind: string, detail: unknown): void {
  events.push({ kind, detail });
  $('log').textContent += `${kind} ${JSON.stringify(detail)}\n`;
}

async function teardown(): Promise<string> {
  if (mounted === undefined) return 'nothing mounted';
  const outcome = await mounted.teardown('the user closed the view');
  mounted = undefined;
  record('teardown', outcome);
  return outcome;
}
window.mcpHost = { events, teardown };
$('teardown').addEventListener('click', () => void teardown());

async function main(): Promise<void> {
  const client = new Client({ name: 'mcpkit-sample-host', version: '1.0.0' });
  client.extend({ id: APPS_EXTENSION_ID, settings: { mimeTypes: [APP_HTML_MIME_TYPE] } });
  const era = params.get('era') === 'legacy' ? '2025-11-25' : '2026-07-28';
  await client.connect(new StreamableHttpClientTransport(new URL('/mcp', location.href)), { protocolVersion: era });
  $('status').textContent = `connected, ${client.protocolVersion}`;

  const tools = await client.listAllTools();
  // The host filters for its model: app-only tools are the views' business.
  $('tools').replaceChildren(
    ...tools
      .filter(visibleToModel)
      .map((tool) => Object.assign(document.createElement('li'), { textContent: tool.name })),
  );
  const name = params.get('tool') ?? 'show_sales';
  const args = JSON.parse(params.get('args') ?? '{"region":"EU"}') as Record<string, unknown>;
  const tool = tools.find((entry) => entry.name === name);
  const resourceUri = (tool?._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
  if (resourceUri === undefined) throw new Error(`tool ${name} has no view`);

  mounted = await mountAppView({
    client,
    container: $('view'),
    resourceUri,
    sandboxUrl: params.get('sandbox') ?? '',
    hostInfo: { name: 'mcpkit-sample-host', version: '1.0.0' },
    hostContext: {
      theme: params.get('theme') === 'dark' ? 'dark' : 'light',
      locale: navigator.language,
      platform: 'web',
      containerDimensions: { maxHeight: 800 },
      toolInfo: { tool: tool as unknown as { name: string; inputSchema: Record<string, unknown> } },
    },
    onopenlink: (url) => record('open-link', url),
    onmessage: (message) => record('message', message),
    onupdatemodelcontext: (context) => record('model-context', context),
    onlog: (log) => record('log', log),
    onsizechange: ({ height }) => {
      record('size', height);
      if (height !== undefined && mounted !== undefined) mounted.iframe.style.height = `${height}px`;
    },
    onrejected: (reason, event) => record('rejected', { reason, origin: event.origin }),
    onerror: (error) => record('error', error.message),
  });
  const frame = mounted.iframe;
  frame.style.height = '240px';
  record('initialized', mounted.bridge.app?.appInfo);
  await mounted.bridge.sendToolInput(args);
  const result = await client.callTool({ name, arguments: args });
  await mounted.bridge.sendToolResult(result);
  record('tool-result', name);
  document.body.dataset.state = 'ready';
}

main().catch((error: unknown) => {
  $('status').textContent = `error: ${error instanceof Error ? error.message : String(error)}`;
  document.body.dataset.state = 'error';
});
