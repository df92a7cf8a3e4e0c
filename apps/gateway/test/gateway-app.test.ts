import { Client } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { type ListeningServer, listen } from '@mcpkit/transport-http/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayApp } from '../src/app';
import { startUpstreams } from '../src/upstream-processes';

// The sample end to end: three real upstream processes (stdio, HTTP, WebSocket) behind one Streamable HTTP endpoint
// with bearer auth and a rate limit, reached by our client and by the official SDK's clients, in both eras.

const TOKENS = { 'token-ada': 'ada', 'token-bob': 'bob', 'token-eve': 'eve', 'token-sdk': 'sdk' };
let started: Awaited<ReturnType<typeof startUpstreams>>;
let app: Awaited<ReturnType<typeof createGatewayApp>>;
let listening: ListeningServer;

beforeAll(async () => {
  started = await startUpstreams();
  listening = await listen(
    { handle: (request) => app.handler.handle(request), close: () => app.close() },
    { port: 0, host: '127.0.0.1', path: '/mcp' },
  );
  app = await createGatewayApp({
    resource: listening.url,
    upstreams: started.upstreams,
    tokens: TOKENS,
    limit: { capacity: 30, refillPerSecond: 0.1 },
  });
}, 60_000);

afterAll(async () => {
  await listening?.close();
  await started?.close();
});

async function connect(token: string | undefined, protocolVersion: string) {
  const client = new Client(
    { name: 'gateway-test', version: '1.0.0' },
    { handlers: { elicitation: () => ({ action: 'accept', content: { username: 'ada', email: 'ada@example.com' } }) } },
  );
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHttpClientTransport(listening.url, { headers }), { protocolVersion });
  return client;
}

describe.each([
  ['legacy', '2025-11-25'],
  ['modern', '2026-07-28'],
])('our client, %s era', (_era, version) => {
  it('sees the three upstreams under their namespaces and calls each, an elicitation crossing two hops', async () => {
    const client = await connect('token-ada', version);
    try {
      const names = (await client.listAllTools()).map((tool) => tool.name);
      expect(names).toEqual(
        expect.arrayContaining(['quick_opening-hours', 'everything_test_simple_text', 'ws_echo', 'ws_add']),
      );
      const hours = await client.callTool({ name: 'quick_opening-hours', arguments: { day: 'monday' } });
      expect(hours.content).toEqual([{ type: 'text', text: 'On monday we are closed.' }]);
      const echoed = await client.callTool({ name: 'ws_echo', arguments: { text: 'over WebSocket' } });
      expect(echoed.content).toEqual([{ type: 'text', text: 'over WebSocket' }]);
      const asked = await client.callTool({ name: 'everything_test_elicitation', arguments: { message: 'Who?' } });
      expect(asked.content).toEqual([
        { type: 'text', text: 'User response: action=accept, content={"username":"ada","email":"ada@example.com"}' },
      ]);
    } finally {
      await client.close();
    }
  });
});

describe('in front of the upstreams', () => {
  it('refuses a request without a valid token with 401', async () => {
    const response = await fetch(listening.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} }),
    });
    expect(response.status).toBe(401);
    await expect(connect('token-nobody', '2026-07-28')).rejects.toThrow(/401|invalid_token|Unauthorized/i);
  });

  it('limits each user’s calls before they reach an upstream', async () => {
    const client = await connect('token-eve', '2026-07-28');
    try {
      let refused: unknown;
      let made = 0;
      for (; made < 40 && refused === undefined; made++) {
        await client.callTool({ name: 'ws_echo', arguments: { text: String(made) } }).catch((error) => {
          refused = error;
        });
      }
      expect(String(refused)).toMatch(/rate limit/i);
      expect(made).toBeLessThanOrEqual(31);
      // Another user is not affected.
      const other = await connect('token-bob', '2026-07-28');
      expect((await other.callTool({ name: 'ws_echo', arguments: { text: 'bob' } })).content).toHaveLength(1);
      await other.close();
    } finally {
      await client.close();
    }
  });
});

// Only the few members used are typed here, so the test does not lean on the SDKs' own declarations.
interface SdkClient {
  connect(transport: unknown): Promise<void>;
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<{ content: unknown[] }>;
  getServerVersion?(): unknown;
  close(): Promise<void>;
}
type SdkTransportClass = new (url: URL, options: { requestInit: RequestInit }) => unknown;

describe('the official SDK clients', () => {
  const requestInit = { headers: { authorization: 'Bearer token-sdk' } };

  it('v1 (@modelcontextprotocol/sdk, 2025-11-25) lists and calls through the gateway', async () => {
    const { Client: V1Client } = (await import(/* @vite-ignore */ '@modelcontextprotocol/sdk/client/index.js')) as {
      Client: new (info: { name: string; version: string }) => SdkClient;
    };
    const { StreamableHTTPClientTransport } = (await import(
      /* @vite-ignore */ '@modelcontextprotocol/sdk/client/streamableHttp.js'
    )) as { StreamableHTTPClientTransport: SdkTransportClass };
    const client = new V1Client({ name: 'sdk-v1', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(listening.url, { requestInit }));
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['quick_opening-hours', 'ws_add', 'everything_test_simple_text']));
      const sum = await client.callTool({ name: 'ws_add', arguments: { a: 2, b: 3 } });
      expect(sum.content).toEqual([{ type: 'text', text: '5' }]);
    } finally {
      await client.close();
    }
  });

  it('v2 (@modelcontextprotocol/client) pinned to 2026-07-28 lists and calls through the gateway', async () => {
    const { Client: V2Client, StreamableHTTPClientTransport } = (await import(
      /* @vite-ignore */ '@modelcontextprotocol/client'
    )) as {
      Client: new (info: { name: string; version: string }, options: unknown) => SdkClient;
      StreamableHTTPClientTransport: SdkTransportClass;
    };
    const client = new V2Client(
      { name: 'sdk-v2', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(listening.url, { requestInit }));
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['quick_opening-hours', 'ws_echo']));
      const hours = await client.callTool({ name: 'quick_opening-hours', arguments: { day: 'tuesday' } });
      expect(hours.content).toEqual([{ type: 'text', text: 'On tuesday we are open 12:00–14:30, 19:00–22:30.' }]);
    } finally {
      await client.close();
    }
  });
});
