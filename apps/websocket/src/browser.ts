// The browser page's script, bundled by esbuild when the server starts (see page.ts) and served as /browser.js.
// It uses the browser's own WebSocket: nothing here is Node-specific.
import { Client } from '@mcpkit/client';
import { WebSocketClientTransport } from '@mcpkit/transport-websocket';

const status = element<HTMLOutputElement>('status');
const result = element<HTMLPreElement>('result');
const errorBox = element<HTMLPreElement>('error');
const form = element<HTMLFormElement>('echo-form');
const input = element<HTMLInputElement>('echo-text');
const button = form.querySelector('button') as HTMLButtonElement;

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the page has no #${id}`);
  return found as T;
}

/** Shows a stage on the page and on <body data-state>, which the Chromium test waits for. */
function setState(state: 'connecting' | 'calling' | 'done' | 'error', text: string): void {
  document.body.dataset.state = state;
  status.textContent = text;
}

async function callEcho(client: Client, text: string): Promise<void> {
  setState('calling', `calling echo (${client.era} era)`);
  const answer = await client.callTool({ name: 'echo', arguments: { text } }, { timeoutMs: 10_000 });
  const first = answer.content[0];
  result.textContent = first?.type === 'text' ? first.text : JSON.stringify(answer.content);
  setState('done', `connected, ${client.protocolVersion} (${client.era} era)`);
}

async function main(): Promise<void> {
  // Same host and port as the page, ws: or wss: to match http: or https:.
  const url = new URL('/mcp', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const legacy = new URLSearchParams(location.search).get('era') === 'legacy';

  setState('connecting', `connecting to ${url.href}`);
  const client = new Client({ name: 'websocket-sample-page', version: '1.0.0' }, { requestTimeoutMs: 10_000 });
  await client.connect(new WebSocketClientTransport(url), {
    timeoutMs: 10_000,
    ...(legacy ? { protocolVersion: '2025-11-25' } : {}),
  });

  const { tools } = await client.listTools({}, { timeoutMs: 10_000 });
  const list = element<HTMLUListElement>('tools');
  list.replaceChildren(
    ...tools.map((tool) => {
      const item = document.createElement('li');
      item.textContent = `${tool.name}: ${tool.description ?? ''}`;
      return item;
    }),
  );

  await callEcho(client, input.value);
  button.disabled = false;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    callEcho(client, input.value).catch(showError);
  });
}

function showError(error: unknown): void {
  errorBox.textContent = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  setState('error', 'failed');
}

main().catch(showError);
