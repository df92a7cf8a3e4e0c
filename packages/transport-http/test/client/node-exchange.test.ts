import type { IncomingMessage } from 'node:http';
import { gzipSync } from 'node:zlib';
import { Client } from '@mcpkit/client';
import { McpServer } from '@mcpkit/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HttpExchange } from '../../src/client/http-exchange';
import { nodeExchange } from '../../src/client/node-exchange';
import { nodeHttpModules } from '../../src/client/runtime-exchange';
import { createStreamableHttpHandler, StreamableHttpClientTransport } from '../../src/index';
import { listen } from '../../src/node/index';
import { startServer } from './http-server';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

function exchange(): HttpExchange {
  const modules = nodeHttpModules();
  if (modules === undefined) throw new Error('the node path is not available in this process');
  return nodeExchange(modules);
}

const signal = () => new AbortController().signal;

async function serve(handle: Parameters<typeof startServer>[0]) {
  const server = await startServer(handle);
  cleanup.push(server.close);
  return server.url;
}

describe('the default request path on Node', () => {
  it('is node:http: a client without `fetch` works with the global fetch broken, in both eras', async () => {
    const seen: IncomingMessage['headers'][] = [];
    const server = new McpServer({ name: 'default-path', version: '1.0.0' });
    server.registerTool('ping', {}, () => ({ content: [{ type: 'text', text: 'pong' }] }));
    const handler = createStreamableHttpHandler(server);
    const observed = {
      handle: (request: Request, extra?: { auth?: never }) => {
        seen.push(Object.fromEntries(request.headers));
        return handler.handle(request, extra);
      },
      close: () => handler.close(),
    };
    const listening = await listen(observed, { port: 0, host: '127.0.0.1' });
    cleanup.push(() => listening.close());
    const broken = vi.fn(() => Promise.reject(new Error('the global fetch must not be used')));
    vi.stubGlobal('fetch', broken);
    for (const era of ['modern', 'legacy'] as const) {
      const client = new Client({ name: 'c', version: '1' });
      await client.connect(new StreamableHttpClientTransport(listening.url), { era });
      expect(client.era).toBe(era);
      expect((await client.callTool({ name: 'ping', arguments: {} })).content).toEqual([
        { type: 'text', text: 'pong' },
      ]);
      await client.close();
    }
    expect(broken).not.toHaveBeenCalled();
    // What fetch would have added (and node:http does not), and what both send.
    expect(seen.length).toBeGreaterThan(4);
    for (const headers of seen) {
      expect(headers['sec-fetch-mode']).toBeUndefined();
      expect(headers['user-agent']).toBe('node');
    }
  });

  it('is Node fetch when the process routes fetch through an undici dispatcher or NODE_USE_ENV_PROXY', async () => {
    expect(nodeHttpModules()).toBeDefined();
    const key = Symbol.for('undici.globalDispatcher.1');
    const global = globalThis as { [key]?: unknown };
    const before = global[key];
    class ProxyAgent {}
    global[key] = new ProxyAgent();
    cleanup.push(() => {
      global[key] = before;
    });
    expect(nodeHttpModules()).toBeUndefined();
    class Agent {}
    global[key] = new Agent(); // the one fetch makes for itself
    expect(nodeHttpModules()).toBeDefined();
    vi.stubEnv('NODE_USE_ENV_PROXY', '1');
    expect(nodeHttpModules()).toBeUndefined();
    vi.unstubAllEnvs();
    global[key] = before;

    // The transport then goes through the global fetch.
    vi.stubEnv('NODE_USE_ENV_PROXY', '1');
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { tools: [] } }));
    });
    const spy = vi.fn(globalThis.fetch);
    vi.stubGlobal('fetch', spy);
    const transport = new StreamableHttpClientTransport(url, { standaloneStream: false });
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(spy).toHaveBeenCalledOnce();
    await transport.close();
  });
});

describe('nodeExchange', () => {
  it('keeps one connection alive for sequential requests and reads each body whole', async () => {
    const ports = new Set<number>();
    const url = await serve((req, res, body) => {
      ports.add(req.socket.remotePort ?? 0);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    const send = exchange();
    for (let i = 0; i < 5; i++) {
      const answer = await send(url, { method: 'POST', headers: {}, body: `{"n":${i},"é":"€"}`, signal: signal() });
      expect(answer.ok).toBe(true);
      expect(await answer.text()).toBe(`{"n":${i},"é":"€"}`);
    }
    expect(ports.size).toBe(1);
  });

  it('drains a small unread body (the connection is reused) and closes a stream it drops', async () => {
    const ports: number[] = [];
    const url = await serve((req, res) => {
      ports.push(req.socket.remotePort ?? 0);
      if (req.url === '/mcp?stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': open\n\n');
        return;
      }
      res.writeHead(202, { 'content-length': '8' });
      res.end('Accepted');
    });
    const send = exchange();
    (await send(url, { method: 'POST', headers: {}, body: '{}', signal: signal() })).discard();
    await new Promise((resolve) => setTimeout(resolve, 20));
    (await send(url, { method: 'POST', headers: {}, body: '{}', signal: signal() })).discard();
    expect(ports[0]).toBe(ports[1]);
    const streamUrl = new URL('?stream', url);
    const stream = await send(streamUrl, { method: 'GET', headers: {}, signal: signal() });
    stream.discard();
    await new Promise((resolve) => setTimeout(resolve, 20));
    (await send(url, { method: 'POST', headers: {}, body: '{}', signal: signal() })).discard();
    expect(ports[3]).not.toBe(ports[2]);
  });

  it('streams a body as text, across a multi-byte character split between chunks, without a BOM', async () => {
    const bytes = Buffer.from('\uFEFFdata: ünïcødé\n\n', 'utf8');
    const url = await serve(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const byte of bytes) {
        res.write(Buffer.from([byte]));
        await new Promise((resolve) => setImmediate(resolve));
      }
      res.end();
    });
    const answer = await exchange()(url, { method: 'GET', headers: {}, signal: signal() });
    let text = '';
    await answer.stream((piece) => {
      text += piece;
    });
    expect(text).toBe('data: ünïcødé\n\n');
  });

  it('aborting the signal rejects a pending request and errors a body being read', async () => {
    const url = await serve((req, res) => {
      if (req.url === '/mcp?hang') return; // never answers
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
    });
    const send = exchange();
    const pending = new AbortController();
    const request = send(new URL('?hang', url), { method: 'POST', headers: {}, body: '{}', signal: pending.signal });
    setTimeout(() => pending.abort(), 20);
    await expect(request).rejects.toMatchObject({ name: 'AbortError' });
    await expect(send(url, { method: 'GET', headers: {}, signal: pending.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });

    const reading = new AbortController();
    const answer = await send(url, { method: 'GET', headers: {}, signal: reading.signal });
    const pieces: string[] = [];
    const streamed = answer.stream((piece) => {
      pieces.push(piece);
      reading.abort();
    });
    await expect(streamed).rejects.toBeDefined();
    expect(pieces).toEqual(['data: 1\n\n']);
  });

  it('sends again, on another connection, a request whose kept-alive connection the server had closed', async () => {
    const { createServer } = await import('node:http');
    const handled: string[] = [];
    let served = 0;
    // The first request of each connection is answered; a later one finds the connection closed by the server (as
    // when its keep-alive timeout fires just as the request goes out): the socket is destroyed unread.
    const server = createServer((req, res) => {
      const socket = req.socket as typeof req.socket & { served?: number };
      socket.served = (socket.served ?? 0) + 1;
      if (socket.served > 1) {
        socket.destroy();
        return;
      }
      req.resume();
      req.on('end', () => {
        handled.push(`${req.method} ${++served}`);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"n":${served}}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    server.on('connection', (socket) => {
      cleanup.push(() => {
        socket.destroy();
      });
    });
    const url = new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`);
    const send = exchange();
    for (let i = 1; i <= 3; i++) {
      const answer = await send(url, { method: 'POST', headers: {}, body: '{}', signal: signal() });
      expect(await answer.text()).toBe(`{"n":${i}}`);
    }
    expect(handled).toEqual(['POST 1', 'POST 2', 'POST 3']);

    // A connection reset that is not a kept-alive one is an error (the request may have run).
    const resetting = await serve((req) => {
      req.socket.destroy();
    });
    await expect(send(resetting, { method: 'POST', headers: {}, body: '{}', signal: signal() })).rejects.toMatchObject({
      code: 'ECONNRESET',
    });
  });

  it('rejects a body cut by the server before its end', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"partial":');
      setTimeout(() => res.socket?.destroy(), 10);
    });
    const answer = await exchange()(url, { method: 'POST', headers: {}, body: '{}', signal: signal() });
    await expect(answer.text()).rejects.toBeDefined();
  });

  it('decodes a compressed body, as fetch does', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync('{"zipped":true}'));
    });
    const answer = await exchange()(url, { method: 'POST', headers: {}, body: '{}', signal: signal() });
    expect(await answer.text()).toBe('{"zipped":true}');
  });

  it('follows redirects by fetch rules: 303 becomes a GET, credentials stay with their origin, 20 at most', async () => {
    const seen: string[] = [];
    const other = await serve((req, res) => {
      seen.push(`other ${req.method} ${req.url} auth=${req.headers.authorization ?? '-'}`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    const url = await serve((req, res) => {
      seen.push(
        `same ${req.method} ${req.url} auth=${req.headers.authorization ?? '-'} type=${req.headers['content-type'] ?? '-'}`,
      );
      const hop = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('hop') ?? 0);
      if (req.url?.startsWith('/mcp?loop')) {
        res.writeHead(307, { location: `/mcp?loop&hop=${hop + 1}` });
      } else if (req.url === '/mcp') {
        res.writeHead(303, { location: '/see-other' });
      } else if (req.url === '/see-other') {
        res.writeHead(307, { location: new URL('/elsewhere', other).href });
      }
      res.end();
    });
    const send = exchange();
    const headers = { authorization: 'Bearer secret', 'content-type': 'application/json' };
    const answer = await send(url, { method: 'POST', headers: { ...headers }, body: '{}', signal: signal() });
    expect(await answer.text()).toBe('{}');
    expect(seen).toEqual([
      'same POST /mcp auth=Bearer secret type=application/json',
      'same GET /see-other auth=Bearer secret type=-',
      'other GET /elsewhere auth=-',
    ]);
    const loop = send(new URL('?loop', url), { method: 'POST', headers: {}, body: '{}', signal: signal() });
    await expect(loop).rejects.toThrow(/more than 20 redirects/);
  });

  it('refuses URLs with credentials and other protocols, as fetch does', async () => {
    const send = exchange();
    await expect(
      send(new URL('http://user:pass@127.0.0.1:9/mcp'), { method: 'GET', headers: {}, signal: signal() }),
    ).rejects.toThrow(/credentials/);
    await expect(
      send(new URL('ftp://127.0.0.1/mcp'), { method: 'GET', headers: {}, signal: signal() }),
    ).rejects.toThrow(/not supported/);
  });

  it('joins repeated response headers and reports statuses without a body', async () => {
    const url = await serve((_req, res) => {
      res.setHeader('www-authenticate', ['Bearer realm="a"', 'Basic realm="b"']);
      res.writeHead(204);
      res.end();
    });
    const answer = await exchange()(url, { method: 'DELETE', headers: {}, signal: signal() });
    expect(answer.status).toBe(204);
    expect(answer.ok).toBe(true);
    expect(answer.hasBody).toBe(false);
    expect(answer.header('www-authenticate')).toBe('Bearer realm="a", Basic realm="b"');
    expect(answer.header('x-missing')).toBeNull();
    answer.discard();
  });
});
