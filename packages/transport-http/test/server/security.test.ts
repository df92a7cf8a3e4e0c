import { describe, expect, it } from 'vitest';
import { createStreamableHttpHandler, withCors } from '../../src/index';
import {
  ACCEPT,
  get,
  handlerFor,
  type Loose,
  makeServer,
  messagesOf,
  post,
  readEvents,
  request,
  session,
  URL_,
} from './harness';

describe('limits and media types', () => {
  it('413 for a body over the limit (declared or streamed)', async () => {
    const { handler } = handlerFor({ maxBodyBytes: 1024 });
    const big = JSON.stringify(request('tools/call', { name: 'echo', arguments: { text: 'x'.repeat(2048) } }));
    expect((await handler.handle(post(big))).status).toBe(413);
    const streamed = new Request(URL_, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT, host: 'localhost' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect((await handler.handle(streamed)).status).toBe(413);
  });

  it('415 for a non-JSON body, 406 for a wrong Accept, 400 for bad JSON', async () => {
    const { handler } = handlerFor();
    expect((await handler.handle(post(request('ping'), { 'content-type': 'text/plain' }))).status).toBe(415);
    expect((await handler.handle(post(request('ping'), { accept: 'application/json' }))).status).toBe(406);
    expect((await handler.handle(get({ accept: 'application/json' }))).status).toBe(406);
    const bad = await handler.handle(post('{"jsonrpc":'));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe(-32700);
    expect((await handler.handle(post(request('ping'), { accept: '*/*' }))).status).not.toBe(406);
  });

  it('405 with Allow for other methods', async () => {
    const { handler } = handlerFor();
    const response = await handler.handle(new Request(URL_, { method: 'PUT', headers: { host: 'localhost' } }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST, DELETE');
  });
});

describe('DNS rebinding protection', () => {
  it('refuses non-local Host and Origin by default (403), accepts local ones', async () => {
    const { handler } = handlerFor();
    expect((await handler.handle(post(request('ping'), { host: 'evil.example.com' }))).status).toBe(403);
    expect((await handler.handle(post(request('ping'), { origin: 'http://evil.example.com' }))).status).toBe(403);
    for (const host of ['localhost:3000', '127.0.0.1', '[::1]:8080']) {
      const ok = await handler.handle(
        post(
          request('initialize', {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'a', version: '1' },
          }),
          { host, origin: `http://${host}` },
        ),
      );
      expect(ok.status).toBe(200);
    }
    await handler.close();
  });

  it('uses the configured allow-lists', async () => {
    const { handler } = handlerFor({ allowedHosts: ['mcp.example.com'], allowedOrigins: ['https://app.example.com'] });
    expect((await handler.handle(post(request('ping'), { host: 'localhost' }))).status).toBe(403);
    expect(
      (await handler.handle(post(request('ping'), { host: 'mcp.example.com', origin: 'https://evil.example.com' })))
        .status,
    ).toBe(403);
    const ok = await handler.handle(
      post(request('ping'), { host: 'mcp.example.com:443', origin: 'https://app.example.com' }),
    );
    expect(ok.status).not.toBe(403);
  });

  it('keeps the localhost-only Host check when only browser origins are allowed', async () => {
    const { handler } = handlerFor({ allowedOrigins: ['https://app.example.com'] });
    expect((await handler.handle(post(request('ping'), { host: 'evil.example.com' }))).status).toBe(403);
    const ok = await handler.handle(
      post(request('ping'), { host: 'localhost:3000', origin: 'https://app.example.com' }),
    );
    expect(ok.status).not.toBe(403);
    await handler.close();
  });

  it('can be turned off', async () => {
    const { handler } = handlerFor({ dnsRebindingProtection: false });
    expect((await handler.handle(post(request('ping'), { host: 'evil.example.com' }))).status).not.toBe(403);
  });
});

describe('auth', () => {
  const alice = { token: 'a', clientId: 'app', subject: 'alice' };
  const bob = { token: 'b', clientId: 'app', subject: 'bob' };

  it('passes AuthInfo to handlers and binds a session to the identity that created it', async () => {
    const { handler } = handlerFor({ responseMode: 'json' });
    const init = await handler.handle(
      post(
        request('initialize', {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'a', version: '1' },
        }),
      ),
      { auth: alice },
    );
    const sessionId = init.headers.get('mcp-session-id')!;
    const mine = await handler.handle(
      post(request('tools/call', { name: 'whoami', arguments: {} }), session(sessionId)),
      { auth: { ...alice, token: 'refreshed' } },
    );
    expect((await mine.json()).result.content[0].text).toBe('app legacy');
    const theirs = await handler.handle(
      post(request('tools/call', { name: 'whoami', arguments: {} }), session(sessionId)),
      { auth: bob },
    );
    expect(theirs.status).toBe(404);
    const anonymous = await handler.handle(post(request('ping'), session(sessionId)));
    expect(anonymous.status).toBe(404);
    expect((await handler.handle(get(session(sessionId)), { auth: bob })).status).toBe(404);
    expect((await handler.handle(get(session(sessionId), 'DELETE'), { auth: bob })).status).toBe(404);
    expect(handler.sessionCount).toBe(1);
    await handler.close();
  });

  it('reaches 2026-07-28 handlers as ctx.auth', async () => {
    const { handler } = handlerFor({ responseMode: 'json' });
    const { modernRequest } = await import('./harness');
    const response = await handler.handle(post(modernRequest('tools/call', { name: 'whoami', arguments: {} })), {
      auth: alice,
    });
    expect((await response.json()).result.content[0].text).toBe('app modern');
  });
});

describe('CORS', () => {
  it('answers preflights allowing the MCP headers and exposes Mcp-Session-Id', async () => {
    const { server } = makeServer();
    const handler = withCors(
      createStreamableHttpHandler(server, { allowedOrigins: ['https://app.example.com'], allowedHosts: ['localhost'] }),
      {
        origin: ['https://app.example.com'],
      },
    );
    const preflight = await handler.handle(
      new Request(URL_, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, mcp-session-id, mcp-param-region, x-evil',
        },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const allowed = preflight.headers.get('access-control-allow-headers')!;
    expect(allowed).toContain('mcp-session-id');
    expect(allowed).toContain('mcp-protocol-version');
    expect(allowed).toContain('mcp-param-region');
    expect(allowed).not.toContain('x-evil');
    const foreign = await handler.handle(
      new Request(URL_, { method: 'OPTIONS', headers: { origin: 'https://evil.example.com' } }),
    );
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();

    const init = await handler.handle(
      post(
        request('initialize', {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'a', version: '1' },
        }),
        {
          host: 'localhost',
          origin: 'https://app.example.com',
        },
      ),
    );
    expect(init.headers.get('access-control-expose-headers')).toContain('mcp-session-id');
    expect(init.headers.get('mcp-session-id')).not.toBeNull();
    const first = messagesOf((await readEvents(init)).events)[0] as Loose;
    expect(first.result.serverInfo.name).toBe('http-test');
    expect(handler.sessionCount).toBe(1); // other members reach the wrapped handler
    await handler.close();
  });
});
