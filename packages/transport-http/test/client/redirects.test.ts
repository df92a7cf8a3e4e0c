import { afterEach, describe, expect, it } from 'vitest';
import { fetchExchange } from '../../src/client/fetch-exchange';
import { canRefuseRedirects, isRefusedRedirect } from '../../src/client/redirect-mode';
import { StreamableHttpClientTransport } from '../../src/index';
import { collect, INITIALIZE, initializeResult } from './helpers';
import { startServer } from './http-server';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A server that redirects every request to /mcp to /moved with `status`, and answers MCP there. */
async function redirectingServer(status = 307) {
  const hits: string[] = [];
  const server = await startServer((req, res, body) => {
    hits.push(`${req.method} ${req.url}`);
    if (req.url === '/mcp') {
      res.writeHead(status, { location: '/moved' });
      res.end();
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405);
      res.end();
      return;
    }
    const message = JSON.parse(body) as { id?: number; method: string };
    if (message.id === undefined) {
      res.writeHead(202);
      res.end();
      return;
    }
    const answer =
      message.method === 'initialize'
        ? initializeResult(message.id)
        : { jsonrpc: '2.0', id: message.id, result: { tools: [] } };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
  });
  cleanup.push(server.close);
  return { hits, url: server.url };
}

describe('StreamableHttpClientTransport: redirects with the default request path (node:http on Node)', () => {
  it('follows a 307 with the same POST, every time', async () => {
    const server = await redirectingServer();
    const transport = new StreamableHttpClientTransport(server.url, { standaloneStream: false });
    cleanup.push(() => transport.close());
    const { messages, errors } = collect(transport);
    await transport.start();
    await transport.send(INITIALIZE);
    await transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(messages).toEqual([initializeResult(1), { jsonrpc: '2.0', id: 2, result: { tools: [] } }]);
    expect(errors).toEqual([]);
    // Each POST reaches /mcp once, and its body is sent again to where it points (fetch's rule for 307/308).
    expect(server.hits).toEqual(['POST /mcp', 'POST /moved', 'POST /mcp', 'POST /moved']);
  });

  it('turns a POST redirected with 302 into a GET without body, as fetch does', async () => {
    const server = await redirectingServer(302);
    const transport = new StreamableHttpClientTransport(server.url, { standaloneStream: false, fallbackToSse: false });
    cleanup.push(() => transport.close());
    await transport.start();
    const failure = await transport.send(INITIALIZE).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'ERR_HTTP_STATUS', data: { status: 405 } });
    expect(server.hits).toEqual(['POST /mcp', 'GET /moved']);
  });
});

describe('fetchExchange: redirects with the runtime fetch on Node (used when the process proxies fetch)', () => {
  it('repeats a POST the server redirected, follows it, and keeps following afterwards', async () => {
    const server = await redirectingServer();
    const exchange = fetchExchange(globalThis.fetch, true);
    const post = async (id: number, method: string) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id, method });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const answer = await exchange(server.url, {
        method: 'POST',
        headers,
        body,
        signal: new AbortController().signal,
      });
      return JSON.parse(await answer.text()) as unknown;
    };
    expect(await post(1, 'initialize')).toEqual(initializeResult(1));
    expect(await post(2, 'tools/list')).toEqual({ jsonrpc: '2.0', id: 2, result: { tools: [] } });
    // initialize: refused redirect, then sent again and followed; tools/list: followed at once.
    expect(server.hits).toEqual(['POST /mcp', 'POST /mcp', 'POST /moved', 'POST /mcp', 'POST /moved']);
  });

  it('does not repeat a POST that failed on the network (it may have run)', async () => {
    const server = await startServer((_req, res) => {
      res.end();
    });
    const url = server.url;
    await server.close();
    const transport = new StreamableHttpClientTransport(url, { standaloneStream: false, fallbackToSse: false });
    await transport.start();
    const failure = await transport.send(INITIALIZE).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'ERR_NETWORK' });
    expect(isRefusedRedirect((failure as Error).cause)).toBe(false);
  });
});

describe('redirect-mode', () => {
  it('refuses redirects only with the runtime fetch on Node', () => {
    expect(canRefuseRedirects(undefined)).toBe(true);
    expect(canRefuseRedirects(globalThis.fetch)).toBe(false);
  });

  it('recognises undici refusing a redirect and nothing else', () => {
    const refused = new TypeError('fetch failed', { cause: new Error('unexpected redirect') });
    expect(isRefusedRedirect(refused)).toBe(true);
    expect(isRefusedRedirect(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') }))).toBe(false);
    expect(isRefusedRedirect(new TypeError('Failed to fetch'))).toBe(false);
    expect(isRefusedRedirect(undefined)).toBe(false);
  });
});
