import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ACCEPT,
  assertWire,
  get,
  handlerFor,
  initialize,
  LEGACY,
  type Loose,
  messagesOf,
  post,
  readEvents,
  request,
  session,
} from './harness';

afterEach(() => {
  vi.useRealTimers();
});

describe('legacy sessions', () => {
  it('mints a CSPRNG session id at initialize and answers with the negotiated version', async () => {
    const { handler } = handlerFor();
    const first = await initialize(handler);
    const second = await initialize(handler);
    expect(first.sessionId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(first.body.result.protocolVersion).toBe(LEGACY);
    assertWire('2025-11-25', [first.body], 'initialize');
    expect(handler.sessionCount).toBe(2);
    await handler.close();
  });

  it('requires the session id after initialize (400) and refuses unknown ids (404)', async () => {
    const { handler } = handlerFor();
    await initialize(handler);
    const missing = await handler.handle(post(request('tools/list'), { 'mcp-protocol-version': LEGACY }));
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.message).toMatch(/Mcp-Session-Id/);
    const unknown = await handler.handle(post(request('tools/list'), session('not-a-session')));
    expect(unknown.status).toBe(404);
    await handler.close();
  });

  it('answers requests on an SSE stream with a priming event first', async () => {
    const { handler } = handlerFor();
    const { sessionId } = await initialize(handler);
    const response = await handler.handle(
      post(
        request('tools/call', { name: 'progress', arguments: { steps: 3 }, _meta: { progressToken: 'p' } }, 7),
        session(sessionId!),
      ),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('mcp-session-id')).toBe(sessionId);
    const retries: number[] = [];
    const { events, ended } = await readEvents(response, { retry: (ms) => retries.push(ms) });
    expect(ended).toBe(true);
    expect(events[0]!.data).toBe('');
    expect(events[0]!.id).toBeDefined();
    expect(retries).toEqual([10]);
    const messages = messagesOf(events);
    expect(messages.map((m: Loose) => m.method ?? 'response')).toEqual([
      'notifications/progress',
      'notifications/progress',
      'notifications/progress',
      'response',
    ]);
    expect(messages.at(-1).id).toBe(7);
    assertWire('2025-11-25', messages);
    // Event ids are unique within the session.
    const ids = events.map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
    await handler.close();
  });

  it('JSON mode answers with application/json', async () => {
    const { handler } = handlerFor({ responseMode: 'json' });
    const { sessionId, response: init } = await initialize(handler);
    expect(init.headers.get('content-type')).toBe('application/json');
    const response = await handler.handle(
      post(request('tools/call', { name: 'echo', arguments: { text: 'hi' } }, 3), session(sessionId!)),
    );
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = await response.json();
    expect(body).toMatchObject({ id: 3, result: { content: [{ type: 'text', text: 'hi' }] } });
    assertWire('2025-11-25', [body]);
    await handler.close();
  });

  it('takes notifications and responses with 202', async () => {
    const { handler } = handlerFor();
    const { sessionId } = await initialize(handler);
    const response = await handler.handle(
      post({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, session(sessionId!)),
    );
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
    await handler.close();
  });

  it('DELETE ends a session; its id then gets 404', async () => {
    const { handler } = handlerFor();
    const { sessionId } = await initialize(handler);
    const deleted = await handler.handle(get(session(sessionId!), 'DELETE'));
    expect(deleted.status).toBe(200);
    expect(handler.sessionCount).toBe(0);
    const after = await handler.handle(post(request('tools/list'), session(sessionId!)));
    expect(after.status).toBe(404);
    const again = await handler.handle(get(session(sessionId!), 'DELETE'));
    expect(again.status).toBe(404);
    await handler.close();
  });

  it('expires idle sessions (fake time)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'Date'] });
    const { handler } = handlerFor({ sessionIdleTimeoutMs: 60_000 });
    const { sessionId } = await initialize(handler);
    await vi.advanceTimersByTimeAsync(30_000);
    const alive = await handler.handle(post(request('ping'), session(sessionId!)));
    expect(alive.status).toBe(200);
    await readEvents(alive);
    expect(handler.sessionCount).toBe(1);
    await vi.advanceTimersByTimeAsync(60_000 + 20_000);
    expect(handler.sessionCount).toBe(0);
    const gone = await handler.handle(post(request('ping'), session(sessionId!)));
    expect(gone.status).toBe(404);
    await handler.close();
  });

  // Regression (issue 12, defect 3): an open GET stream counted as activity, so a client that opened one and went
  // away (or never read it) kept its session alive forever.
  it('expires a session whose only sign of life is an open GET stream (fake time)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'Date'] });
    const { handler } = handlerFor({ sessionIdleTimeoutMs: 60_000 });
    const { sessionId } = await initialize(handler);
    const stream = await handler.handle(get(session(sessionId!)));
    expect(stream.status).toBe(200);
    const primed = await readEvents(stream, { until: (event) => event.data === '' });
    await vi.advanceTimersByTimeAsync(60_000 + 20_000);
    expect(handler.sessionCount).toBe(0);
    // The stream ended with the session, and the id is gone.
    const rest = await primed.reader.read();
    expect(rest.done).toBe(true);
    const gone = await handler.handle(post(request('ping'), session(sessionId!)));
    expect(gone.status).toBe(404);
    await handler.close();
  });

  it('keeps a session alive while events are delivered on its GET stream (fake time)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval', 'Date'] });
    const { handler, server } = handlerFor({ sessionIdleTimeoutMs: 60_000 });
    const { sessionId } = await initialize(handler);
    const stream = await handler.handle(get(session(sessionId!)));
    const reader = stream.body!.getReader();
    const peer = [...server.server.sessions].find(
      (candidate) => (candidate.transport as { sessionId?: string } | undefined)?.sessionId === sessionId,
    )!;
    for (let minute = 0; minute < 4; minute++) {
      await vi.advanceTimersByTimeAsync(40_000);
      await peer.notify('notifications/message', { level: 'info', data: { minute } });
      expect((await reader.read()).done).toBe(false);
    }
    expect(handler.sessionCount).toBe(1);
    await reader.cancel();
    await handler.close();
  });

  it('caps the number of sessions (503 beyond)', async () => {
    const { handler } = handlerFor({ maxSessions: 2 });
    await initialize(handler);
    await initialize(handler);
    const third = await initialize(handler);
    expect(third.response.status).toBe(503);
    expect(third.response.headers.get('retry-after')).toBe('5');
    expect(third.sessionId).toBeNull();
    expect(handler.sessionCount).toBe(2);
    await handler.close();
  });

  it('caps the sessions of one client (503 with Retry-After); other clients still get theirs; ending one frees its share', async () => {
    const { handler } = handlerFor({
      maxSessionsPerClient: 2,
      clientKeyOf: (request) => request.headers.get('x-client') ?? undefined,
    });
    const a = { 'x-client': 'a' };
    const first = await initialize(handler, a);
    await initialize(handler, a);
    const refused = await initialize(handler, a);
    expect(refused.response.status).toBe(503);
    expect(refused.response.headers.get('retry-after')).toBe('5');
    expect(refused.sessionId).toBeNull();
    expect(JSON.stringify(refused.body)).toMatch(/maxSessionsPerClient/);
    expect((await initialize(handler, { 'x-client': 'b' })).response.status).toBe(200);
    const ended = await handler.handle(
      new Request('http://127.0.0.1:3000/mcp', {
        method: 'DELETE',
        headers: { host: '127.0.0.1:3000', 'mcp-session-id': first.sessionId!, 'mcp-protocol-version': LEGACY },
      }),
    );
    expect(ended.status).toBeLessThan(300);
    expect((await initialize(handler, a)).response.status).toBe(200);
    expect(handler.sessionCount).toBe(3);
    await handler.close();
  });

  it('counts an authenticated client by its principal, whatever address it comes from', async () => {
    const { handler } = handlerFor({ maxSessionsPerClient: 1 });
    const auth = { token: 't', clientId: 'app-1', scopes: [] };
    const open = () =>
      handler.handle(
        post(
          request('initialize', { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 't', version: '1' } }),
        ),
        { auth },
      );
    expect((await open()).status).toBe(200);
    const second = await open();
    expect(second.status).toBe(503);
    expect(second.headers.get('retry-after')).toBe('5');
    await handler.close();
  });

  it('counts an anonymous client by the remote address the node adapter saw', async () => {
    const { handler } = handlerFor({ maxSessionsPerClient: 1 });
    const { listen } = await import('../../src/node/index');
    const listening = await listen(handler, { port: 0 });
    try {
      const open = () =>
        fetch(listening.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: ACCEPT },
          body: JSON.stringify(
            request('initialize', {
              protocolVersion: LEGACY,
              capabilities: {},
              clientInfo: { name: 't', version: '1' },
            }),
          ),
        });
      const first = await open();
      await first.body?.cancel();
      expect(first.status).toBe(200);
      const second = await open();
      await second.body?.cancel();
      expect(second.status).toBe(503);
      expect(second.headers.get('retry-after')).toBe('5');
    } finally {
      await listening.close();
      await handler.close();
    }
  });

  it('a failed initialize leaves no session', async () => {
    const { handler } = handlerFor();
    const response = await handler.handle(post(request('initialize', { protocolVersion: LEGACY })));
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(handler.sessionCount).toBe(0);
    const body = messagesOf((await readEvents(response)).events)[0];
    expect(body.error.code).toBe(-32602);
    await handler.close();
  });

  it('refuses initialize that carries a session id', async () => {
    const { handler } = handlerFor();
    const { sessionId } = await initialize(handler);
    const response = await handler.handle(
      post(
        request('initialize', { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'x', version: '1' } }),
        session(sessionId!),
      ),
    );
    expect(response.status).toBe(400);
    await handler.close();
  });

  it('validates MCP-Protocol-Version (400 unsupported; missing assumes 2025-03-26)', async () => {
    const { handler } = handlerFor();
    const { sessionId } = await initialize(handler);
    const bad = await handler.handle(
      post(request('ping'), { 'mcp-session-id': sessionId!, 'mcp-protocol-version': '1999-01-01' }),
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.data.supported).toContain(LEGACY);
    const missing = await handler.handle(post(request('ping', {}, 'p1'), { 'mcp-session-id': sessionId! }));
    expect(missing.status).toBe(200);
    expect(messagesOf((await readEvents(missing)).events)[0]).toEqual({ jsonrpc: '2.0', id: 'p1', result: {} });
    await handler.close();
  });

  it('accepts a 2025-03-26 batch and answers every request', async () => {
    const { handler } = handlerFor({ responseMode: 'json' });
    const { sessionId } = await initialize(handler, {}, '2025-03-26');
    const response = await handler.handle(
      post(
        [
          request('ping', {}, 'a'),
          request('tools/list', {}, 'b'),
          { jsonrpc: '2.0', method: 'notifications/initialized' },
        ],
        {
          'mcp-session-id': sessionId!,
          'mcp-protocol-version': '2025-03-26',
        },
      ),
    );
    const body = await response.json();
    expect(body.map((m: Loose) => m.id).sort()).toEqual(['a', 'b']);
    // Not in 2025-06-18 and later.
    const refused = await handler.handle(post([request('ping')], session(sessionId!, '2025-06-18')));
    expect(refused.status).toBe(400);
    await handler.close();
  });

  it('closing the handler ends every session', async () => {
    const { handler, server } = handlerFor();
    await initialize(handler);
    expect(server.sessions.size).toBe(1);
    await handler.close();
    expect(handler.sessionCount).toBe(0);
    expect(server.sessions.size).toBe(0);
    const after = await handler.handle(post(request('ping')));
    expect(after.status).toBe(503);
  });
});

describe('legacy stateless mode', () => {
  it('answers initialize and later requests without session ids', async () => {
    const { handler } = handlerFor({ sessions: false, responseMode: 'json' });
    const init = await initialize(handler);
    expect(init.sessionId).toBeNull();
    expect(init.body.result.protocolVersion).toBe(LEGACY);
    const response = await handler.handle(
      post(request('tools/call', { name: 'whoami', arguments: {} }, 9), { 'mcp-protocol-version': LEGACY }),
    );
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const body = await response.json();
    expect(body.result.content[0].text).toBe('anonymous legacy');
    assertWire('2025-11-25', [body]);
    expect(handler.sessionCount).toBe(0);
  });

  it('has no GET stream or DELETE (405 with Allow)', async () => {
    const { handler } = handlerFor({ sessions: false });
    for (const method of ['GET', 'DELETE']) {
      const response = await handler.handle(get({}, method));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('streams progress then the response in SSE mode', async () => {
    const { handler } = handlerFor({ sessions: false });
    const response = await handler.handle(
      post(request('tools/call', { name: 'progress', arguments: { steps: 2 }, _meta: { progressToken: 't' } }), {
        'mcp-protocol-version': LEGACY,
      }),
    );
    const messages = messagesOf((await readEvents(response)).events);
    expect(messages.map((m: Loose) => m.method ?? 'response')).toEqual([
      'notifications/progress',
      'notifications/progress',
      'response',
    ]);
    assertWire('2025-11-25', messages);
  });
});
