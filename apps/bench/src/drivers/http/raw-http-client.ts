// The SDK-free HTTP client: node:http with a keep-alive Agent and hand-written JSON-RPC bodies. It does what a client
// must and nothing more: `initialize` + `notifications/initialized` and the `Mcp-Session-Id` header in the stateful
// modes, the `_meta` envelope and the standard headers in 2026-07-28, JSON or SSE responses. It drives every server for
// "server alone" (issue 7 metric 3) and memory per session (metric 4), and is the floor's own client.
import { Agent, request } from 'node:http';
import { type ConcurrentConfig, runConcurrentDriver, type Session } from '../concurrent';

const agent = new Agent({ keepAlive: true, maxSockets: 128 });
const LEGACY_VERSION = '2025-11-25';
const MODERN_VERSION = '2026-07-28';
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench-raw-http', version: '1.0.0' },
};

interface Reply {
  status: number;
  sessionId: string | undefined;
  body: string;
  contentType: string;
}

function post(url: URL, body: string, headers: Record<string, string>): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            sessionId: res.headers['mcp-session-id'] as string | undefined,
            body: Buffer.concat(chunks).toString('utf8'),
            contentType: res.headers['content-type'] ?? '',
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function remove(url: URL, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve) => {
    const req = request(url, { method: 'DELETE', agent, headers }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', () => resolve());
    req.end();
  });
}

/** The JSON-RPC response with `id` in a JSON body or an SSE stream (`data:` lines, one message each). */
interface ToolResponse {
  id?: number;
  result?: { content?: { type: string; text?: string }[] };
}

function responseOf(reply: Reply, id: number): ToolResponse {
  if (reply.status !== 200) throw new Error(`HTTP ${reply.status}: ${reply.body.slice(0, 300)}`);
  if (!reply.contentType.startsWith('text/event-stream')) return JSON.parse(reply.body);
  for (const line of reply.body.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (data === '') continue;
    const message = JSON.parse(data) as ToolResponse;
    if (message.id === id) return message;
  }
  throw new Error(`no response with id ${id} in the SSE body: ${reply.body.slice(0, 300)}`);
}

async function open(config: ConcurrentConfig): Promise<Session> {
  const url = new URL(config.url);
  let nextId = 1;
  const headers: Record<string, string> = {};
  if (config.mode === 'modern') {
    headers['mcp-protocol-version'] = MODERN_VERSION;
    headers['mcp-method'] = 'tools/call';
  } else {
    const init = await post(
      url,
      JSON.stringify({
        jsonrpc: '2.0',
        id: nextId++,
        method: 'initialize',
        params: {
          protocolVersion: LEGACY_VERSION,
          capabilities: {},
          clientInfo: { name: 'bench-raw-http', version: '1.0.0' },
        },
      }),
      {},
    );
    responseOf(init, 1);
    if (config.mode !== 'stateless') {
      if (init.sessionId === undefined) throw new Error(`${config.mode}: the initialize response has no session id`);
      headers['mcp-session-id'] = init.sessionId;
    }
    headers['mcp-protocol-version'] = LEGACY_VERSION;
    const initialized = await post(url, '{"jsonrpc":"2.0","method":"notifications/initialized"}', headers);
    if (initialized.status !== 202) throw new Error(`notifications/initialized: HTTP ${initialized.status}`);
  }
  const callText = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const id = nextId++;
    const params = config.mode === 'modern' ? { name, arguments: args, _meta: MODERN_META } : { name, arguments: args };
    const extra = config.mode === 'modern' ? { ...headers, 'mcp-name': name } : headers;
    const reply = await post(url, JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }), extra);
    const first = responseOf(reply, id).result?.content?.[0];
    return first?.type === 'text' ? (first.text ?? '') : '';
  };
  return {
    call: (text) => callText('echo', { text }),
    big: (bytes) => callText('big', { bytes }),
    close: async () => {
      if (headers['mcp-session-id'] !== undefined) await remove(url, headers);
    },
  };
}

await runConcurrentDriver(open);
