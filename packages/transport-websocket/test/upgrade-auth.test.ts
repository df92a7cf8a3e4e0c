// The auth seam of the WebSocket server: refusals with their own status, headers and body, and server middleware
// (the per-request seam every path shares) in place for a connection's very first message.
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import type { ServerMiddleware } from '@mcpkit/server';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createWebSocketServer, UpgradeRefusalError } from '../src/node/index';
import { closeAfterEach, closeAfterTest, connectClient, MODERN_META, makeMcpServer, startServer } from './helpers';

closeAfterEach();

interface Refused {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Tries to open `url` and resolves with the refusal (status, headers, body); rejects if the upgrade succeeded. */
function refusalOf(url: string, headers: Record<string, string> = {}): Promise<Refused> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, ['mcp'], { headers });
    socket.once('open', () => {
      socket.close();
      reject(new Error('the upgrade was accepted'));
    });
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    socket.once('error', reject);
  });
}

describe('authenticate refusals', () => {
  it('sends an UpgradeRefusal as given: status, headers and body', async () => {
    const { endpoint } = await startServer({
      authenticate: () => ({
        status: 401,
        headers: {
          'WWW-Authenticate': 'Bearer resource_metadata="https://x.test/.well-known/oauth-protected-resource"',
        },
        body: '{"error":"unauthorized"}',
      }),
    });
    const refused = await refusalOf(endpoint.url);
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe(
      'Bearer resource_metadata="https://x.test/.well-known/oauth-protected-resource"',
    );
    expect(refused.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(refused.body).toBe('{"error":"unauthorized"}');
    expect(endpoint.connections).toBe(0);
  });

  it('gives a refusal without a body a JSON-RPC error naming the status', async () => {
    const { endpoint } = await startServer({
      authenticate: () => ({ status: 403, headers: { 'x-reason': 'banned' } }),
    });
    const refused = await refusalOf(endpoint.url);
    expect(refused.status).toBe(403);
    expect(refused.headers['x-reason']).toBe('banned');
    expect(refused.headers['content-type']).toBe('application/json');
    expect(JSON.parse(refused.body)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: 'Forbidden: the authenticate hook refused this connection' },
    });
  });

  it('sends a web Response as the refusal, keeping the connection headers its own', async () => {
    const { endpoint } = await startServer({
      authenticate: async () =>
        new Response('{"error":"insufficient_scope"}', {
          status: 403,
          headers: {
            'content-type': 'application/json',
            'www-authenticate': 'Bearer error="insufficient_scope", scope="a b"',
            connection: 'keep-alive',
          },
        }),
    });
    const refused = await refusalOf(endpoint.url);
    expect(refused.status).toBe(403);
    expect(refused.headers['www-authenticate']).toBe('Bearer error="insufficient_scope", scope="a b"');
    expect(refused.headers.connection).toBe('close');
    expect(refused.body).toBe('{"error":"insufficient_scope"}');
  });

  it('keeps the bare 401 with a Bearer challenge for false', async () => {
    const { endpoint } = await startServer({ authenticate: () => false });
    const refused = await refusalOf(endpoint.url);
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Bearer');
  });

  it('answers 500 and reports a refusal that cannot be sent (a success status, a header with a line break)', async () => {
    const errors: Error[] = [];
    let refusal: { status: number; headers?: Record<string, string> } = { status: 200 };
    const { endpoint } = await startServer({ authenticate: () => refusal, onerror: (error) => errors.push(error) });
    expect((await refusalOf(endpoint.url)).status).toBe(500);
    refusal = { status: 401, headers: { 'www-authenticate': 'Bearer\r\nSet-Cookie: session=stolen' } };
    const injected = await refusalOf(endpoint.url);
    expect(injected.status).toBe(500);
    expect(injected.headers['set-cookie']).toBeUndefined();
    expect(errors).toHaveLength(2);
    expect(errors.every((error) => error instanceof UpgradeRefusalError)).toBe(true);
    expect((errors[1] as UpgradeRefusalError).data).toEqual({ header: 'www-authenticate' });
  });
});

describe('server middleware on WebSocket sessions', () => {
  it('runs on every session with the connection identity, and may refuse with a JSON-RPC error', async () => {
    const seen: (string | undefined)[] = [];
    const onlyOps: ServerMiddleware = (ctx, next) => {
      seen.push(ctx.auth?.clientId);
      if (ctx.method === 'tools/call' && ctx.auth?.clientId !== 'ops') {
        throw new JsonRpcError(403, 'ops only', { clientId: ctx.auth?.clientId });
      }
      return next();
    };
    const { endpoint, mcp } = await startServer({
      authenticate: (request) => ({ token: 't', clientId: String(request.headers['x-client']) }),
    });
    mcp.use(onlyOps);
    const app = await connectClient(endpoint.url, 'modern', { headers: { 'x-client': 'app' } });
    const ops = await connectClient(endpoint.url, 'modern', { headers: { 'x-client': 'ops' } });
    await expect(app.callTool({ name: 'whoami', arguments: {} })).rejects.toMatchObject({
      code: 403,
      data: { clientId: 'app' },
    });
    expect((await ops.callTool({ name: 'whoami', arguments: {} })).content).toEqual([
      { type: 'text', text: 'ops /mcp' },
    ]);
    expect(seen).toContain('app');
    expect(seen).toContain('ops');
  });

  it('checks the first frame, even one sent with the handshake to a host that connects late', async () => {
    const { mcp, probe } = makeMcpServer();
    const checked: string[] = [];
    mcp.use((ctx, next) => {
      checked.push(ctx.method);
      if (ctx.method === 'tools/call') throw new JsonRpcError(403, 'refused');
      return next();
    });
    // A host whose session is ready only a macrotask after the transport started (a store round trip, say).
    const host = {
      connect: (...args: Parameters<typeof mcp.connect>) =>
        mcp
          .connect(...args)
          .then((session) => new Promise<typeof session>((done) => setTimeout(() => done(session), 20))),
    };
    const endpoint = closeAfterTest(await createWebSocketServer(host, { port: 0 }));
    const { port } = new URL(endpoint.url);
    const frame = maskedTextFrame(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'unchecked?' }, _meta: MODERN_META },
      }),
    );
    const socket = connect(Number(port), '127.0.0.1');
    try {
      const answered = new Promise<string>((resolve) => {
        let received = '';
        socket.on('data', (chunk: Buffer) => {
          received += chunk.toString('latin1');
          if (received.includes('"refused"') || received.includes('unchecked?')) resolve(received);
        });
      });
      socket.write(
        Buffer.concat([
          Buffer.from(
            `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
              `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n` +
              'Sec-WebSocket-Protocol: mcp\r\n\r\n',
          ),
          frame,
        ]),
      );
      const received = await answered;
      expect(received).toMatch(/^HTTP\/1\.1 101 /);
      expect(received).toContain('"refused"');
      expect(checked).toEqual(['tools/call']);
      expect(probe.calls).toBe(0);
    } finally {
      socket.destroy();
    }
  });
});

/** A client text frame (masked, as RFC 6455 requires of clients); payloads under 64 KiB. */
function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  if (payload.length >= 65_536) throw new Error('maskedTextFrame: keep test payloads under 64 KiB');
  const length =
    payload.length < 126
      ? Buffer.from([0x80 | payload.length])
      : Buffer.from([0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  const mask = randomBytes(4);
  const masked = payload.map((byte, index) => byte ^ mask[index % 4]!);
  return Buffer.concat([Buffer.from([0x81]), length, mask, masked]);
}
