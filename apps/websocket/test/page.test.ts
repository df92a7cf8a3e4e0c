import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type RunningApp, start } from '../src/start';

// What the HTTP side serves, and who may open the WebSocket, checked without a browser.
let app: RunningApp;
beforeAll(async () => {
  app = await start({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app?.close();
});

async function get(path: string): Promise<Response> {
  return fetch(new URL(path, app.pageUrl), { signal: AbortSignal.timeout(5_000) });
}

/** Opens a raw WebSocket with these handshake headers: 'open', or the HTTP status it was refused with. */
function handshake(headers: Record<string, string>, protocols: string[] = ['mcp']): Promise<string | number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(app.mcpUrl, protocols, { headers, handshakeTimeout: 5_000 });
    socket.once('open', () => {
      socket.close();
      resolve('open');
    });
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.once('error', reject);
  });
}

describe('the page', () => {
  it('serves index.html with a CSP that allows only the page itself', async () => {
    const response = await get('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await response.text();
    expect(html).toContain('<pre id="result"></pre>');
    expect(html).toContain('<script type="module" src="/browser.js"></script>');
  });

  it('serves the bundled browser script: ESM, no Node built-ins, no bare imports left', async () => {
    const response = await get('/browser.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const code = await response.text();
    expect(code).toContain('WebSocketClientTransport');
    expect(code).not.toMatch(/from\s*["'](node:|@mcpkit\/|ws["'])/);
    expect(code).not.toMatch(/require\(["']/);
  });

  it('answers 404 elsewhere and 405 to other methods', async () => {
    expect((await get('/nope')).status).toBe(404);
    const post = await fetch(app.pageUrl, { method: 'POST', body: '{}', signal: AbortSignal.timeout(5_000) });
    expect(post.status).toBe(405);
  });
});

describe('who may open /mcp', () => {
  it("allows the page's own origin, under both of its loopback names", async () => {
    expect(app.allowedOrigins).toEqual([app.pageUrl.origin, `http://localhost:${app.pageUrl.port}`]);
    expect(await handshake({ origin: app.pageUrl.origin })).toBe('open');
    expect(await handshake({ origin: `http://localhost:${app.pageUrl.port}` })).toBe('open');
  });

  it('refuses any other origin with 403, local ones included', async () => {
    expect(await handshake({ origin: 'https://evil.example' })).toBe(403);
    expect(await handshake({ origin: `http://127.0.0.1:${Number(app.pageUrl.port) + 1}` })).toBe(403);
    expect(await handshake({ origin: `https://127.0.0.1:${app.pageUrl.port}` })).toBe(403);
  });

  it('lets non-browser clients (no Origin) in, and requires the mcp subprotocol', async () => {
    expect(await handshake({})).toBe('open');
    expect(await handshake({}, ['chat'])).toBe(400);
  });
});
