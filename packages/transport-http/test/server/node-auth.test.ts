import { createServer, request as httpRequest, type Server as NodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createStreamableHttpHandler } from '../../src/index';
import { toNodeHandler } from '../../src/node/index';
import { makeServer } from './harness';

const servers: NodeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function serveRefusingAll(seen: { bodyRead: boolean[] }): Promise<number> {
  const handler = createStreamableHttpHandler(makeServer().server);
  const listener = toNodeHandler(handler, {
    auth: (req) => {
      // `complete` turns true once the whole body has been received and read.
      seen.bodyRead.push(req.complete);
      return new Response('{"error":"unauthorized"}', {
        status: 401,
        headers: {
          'www-authenticate': 'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource"',
        },
      });
    },
  });
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('node adapter: auth before the body', () => {
  it('refuses a request before reading a byte of its body', { timeout: 10_000 }, async () => {
    const seen = { bodyRead: [] as boolean[] };
    const port = await serveRefusingAll(seen);
    // Announce a 3 MiB body, send only the headers, and wait: the refusal must come without the body.
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/mcp',
        headers: { 'content-type': 'application/json', 'content-length': String(3 * 1024 * 1024) },
      });
      const timer = setTimeout(() => reject(new Error('no answer without the body: the adapter waited for it')), 5_000);
      req.on('response', (res) => {
        clearTimeout(timer);
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', () => undefined);
      req.flushHeaders();
    });
    expect(status).toBe(401);
    expect(seen.bodyRead).toEqual([false]);
  });

  it('still refuses a small body that arrived with the headers, and keeps the connection usable', async () => {
    const seen = { bodyRead: [] as boolean[] };
    const port = await serveRefusingAll(seen);
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'ping' }),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('resource_metadata=');
      await response.text();
    }
    expect(seen.bodyRead).toHaveLength(2);
  });
});
