import type { ServerResponse } from 'node:http';
import { Client } from '@mcpkit/client';
import { afterEach, describe, expect, it } from 'vitest';
import { SseClientTransport, StreamableHttpClientTransport } from '../../src/index';
import { collect, INITIALIZE, json, scriptedFetch, sse } from './helpers';
import { startServer } from './http-server';

// A minimal legacy HTTP+SSE (2024-11-05) server: GET /sse opens the stream and announces /messages?session=…;
// POSTs there are answered on the stream.
async function legacySseServer(options: { rejectStreamablePost: number }) {
  const streams = new Map<string, ServerResponse>();
  const seen: string[] = [];
  let next = 0;
  const server = await startServer((req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://x');
    seen.push(`${req.method} ${url.pathname}${req.headers.authorization ? ' auth' : ''}`);
    if (req.method === 'GET' && url.pathname === '/mcp') {
      const session = `s${++next}`;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`event: endpoint\ndata: /messages?session=${session}\n\n`);
      streams.set(session, res);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const stream = streams.get(url.searchParams.get('session') ?? '');
      if (stream === undefined) return void res.writeHead(404).end();
      res.writeHead(202).end('Accepted');
      const message = JSON.parse(body) as { id?: number; method: string; params?: { name?: string } };
      if (message.id === undefined) return;
      const result =
        message.method === 'initialize'
          ? { protocolVersion: '2024-11-05', capabilities: { tools: {} }, serverInfo: { name: 'old', version: '0.1' } }
          : message.method === 'tools/list'
            ? { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }
            : message.method === 'tools/call'
              ? { content: [{ type: 'text', text: `called ${message.params?.name}` }] }
              : undefined;
      const reply =
        result === undefined
          ? { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }
          : { jsonrpc: '2.0', id: message.id, result };
      stream.write(`event: message\ndata: ${JSON.stringify(reply)}\n\n`);
      return;
    }
    // The Streamable HTTP attempt: POST to the SSE URL.
    res.writeHead(options.rejectStreamablePost, { 'content-type': 'text/plain' }).end('Method Not Allowed');
  });
  return { ...server, seen };
}

describe('HTTP+SSE fallback and SseClientTransport', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  for (const status of [400, 404, 405]) {
    it(`falls back to HTTP+SSE when initialize gets ${status} without a 2026 error body (our Client, real server)`, async () => {
      const server = await legacySseServer({ rejectStreamablePost: status });
      cleanup.push(server.close);
      const transport = new StreamableHttpClientTransport(server.url, { headers: { Authorization: 'Bearer t' } });
      const client = new Client({ name: 'c', version: '1' });
      cleanup.push(() => client.close());
      await client.connect(transport);
      expect(transport.mode).toBe('sse');
      expect(client.era).toBe('legacy');
      expect(client.protocolVersion).toBe('2024-11-05');
      const result = await client.callTool({ name: 'echo', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'called echo' }]);
      // The probe (server/discover) and initialize were POSTed to the URL, then the GET and the message POSTs.
      expect(server.seen.slice(0, 3)).toEqual(['POST /mcp auth', 'POST /mcp auth', 'GET /mcp auth']);
      expect(server.seen).toContain('POST /messages auth');
    });
  }

  it('does not fall back when the refusal carries a 2026-07-28 error: the client gets the error', async () => {
    const fetch = scriptedFetch((call) =>
      json(
        {
          jsonrpc: '2.0',
          id: (call.body as { id: number }).id,
          error: {
            code: -32022,
            message: 'Unsupported protocol version',
            data: { supported: ['2026-07-28'], requested: '2025-11-25' },
          },
        },
        { status: 400 },
      ),
    );
    const transport = new StreamableHttpClientTransport('http://mcp.test/mcp', { fetch });
    const { messages } = collect(transport);
    await transport.start();
    await transport.send(INITIALIZE);
    expect(fetch.calls.map((call) => call.method)).toEqual(['POST']);
    expect(messages).toEqual([expect.objectContaining({ id: 1, error: expect.objectContaining({ code: -32022 }) })]);
    expect(transport.mode).toBe('streamable-http');
  });

  it('a 400 with a legacy JSON-RPC error still tries HTTP+SSE; when that fails, the error is delivered', async () => {
    const fetch = scriptedFetch((call) =>
      call.method === 'GET'
        ? new Response('no', { status: 400 })
        : json(
            { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: already initialized' } },
            { status: 400 },
          ),
    );
    const transport = new StreamableHttpClientTransport('http://mcp.test/mcp', { fetch });
    const { messages } = collect(transport);
    await transport.start();
    await transport.send(INITIALIZE);
    expect(fetch.calls.map((call) => call.method)).toEqual(['POST', 'GET']);
    expect(messages).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32000, message: 'Bad Request: already initialized' } },
    ]);
  });

  it('reports the original refusal when the HTTP+SSE attempt fails too', async () => {
    const fetch = scriptedFetch((call) =>
      call.method === 'GET' ? new Response('no', { status: 405 }) : new Response('nope', { status: 404 }),
    );
    const transport = new StreamableHttpClientTransport('http://mcp.test/mcp', { fetch });
    const { errors } = collect(transport);
    await transport.start();
    await expect(transport.send(INITIALIZE)).rejects.toMatchObject({ code: 'ERR_HTTP_STATUS', data: { status: 404 } });
    expect(errors[0]?.message).toContain('HTTP+SSE fallback failed');
  });

  it('SseClientTransport refuses an endpoint on another origin and a stream without an endpoint event', async () => {
    const elsewhere = new SseClientTransport('http://mcp.test/sse', {
      fetch: scriptedFetch(() => sse(['event: endpoint\ndata: http://evil.test/messages\n\n'])),
    });
    await expect(elsewhere.start()).rejects.toMatchObject({
      code: 'ERR_SSE_ENDPOINT',
      message: expect.stringContaining('another origin'),
    });
    const silent = new SseClientTransport('http://mcp.test/sse', { fetch: scriptedFetch(() => sse([': hi\n\n'])) });
    const { closes } = collect(silent);
    await expect(silent.start()).rejects.toMatchObject({ code: 'ERR_SSE_ENDPOINT' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closes).toEqual([]); // a failed start() is reported by start() alone
  });

  it('SseClientTransport used directly: posts to the endpoint, delivers message events, closes when the stream ends', async () => {
    const server = await legacySseServer({ rejectStreamablePost: 405 });
    cleanup.push(server.close);
    const transport = new SseClientTransport(server.url);
    const { messages, closes } = collect(transport);
    await transport.start();
    expect(transport.endpoint?.pathname).toBe('/messages');
    await transport.send(INITIALIZE);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(messages).toEqual([
      expect.objectContaining({ id: 1, result: expect.objectContaining({ protocolVersion: '2024-11-05' }) }),
    ]);
    await server.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closes).toHaveLength(1);
    expect(closes[0]).toMatchObject({ code: 'ERR_STREAM_ENDED' });
    await expect(transport.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({
      code: 'ERR_TRANSPORT_CLOSED',
    });
  });
});
