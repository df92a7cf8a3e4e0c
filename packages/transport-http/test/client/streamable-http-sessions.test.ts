import { describe, expect, it } from 'vitest';
import {
  accepted,
  collect,
  event,
  INITIALIZE,
  initializeResult,
  json,
  REQUEST_PATHS,
  scriptedFetch,
  sse,
  sseStream,
  transportOn,
  until,
} from './helpers';

const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' } as const;

function methodOf(call: { body: unknown }): string | undefined {
  return (call.body as { method?: string } | undefined)?.method;
}

describe.each(REQUEST_PATHS)('StreamableHttpClientTransport: legacy sessions (%s)', (path) => {
  it('on 404 for the session: fails the request with ERR_SESSION_EXPIRED and closes with it as the reason', async () => {
    const fetch = scriptedFetch((call) => {
      if (methodOf(call) === 'initialize') return json(initializeResult(1), { headers: { 'mcp-session-id': 's1' } });
      if (methodOf(call) === 'notifications/initialized') return accepted();
      return new Response('Session not found', { status: 404 });
    });
    const transport = await transportOn(path, fetch, { standaloneStream: false });
    const { closes } = collect(transport);
    await transport.start();
    await transport.send(INITIALIZE);
    await transport.send(INITIALIZED);
    const failure = await transport
      .send({ jsonrpc: '2.0', id: 2, method: 'tools/list' })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({
      code: 'ERR_SESSION_EXPIRED',
      data: { status: 404, sessionId: 's1', method: 'tools/list' },
    });
    expect(transport.sessionId).toBeUndefined();
    // The transport closes right after the request failed (so the peer reports this error, not "connection closed").
    await until(() => closes.length === 1);
    expect(closes[0]).toBe(failure);
    // Closed: no DELETE for a session the server already forgot, nothing more is sent.
    await transport.close();
    expect(fetch.calls.map((call) => call.method)).toEqual(['POST', 'POST', 'POST']);
  });

  it('reinitializeOnSessionExpired: replays initialize and notifications/initialized, then retries the request', async () => {
    let session = 0;
    const fetch = scriptedFetch((call) => {
      const body = call.body as { id?: number | string; method?: string };
      if (body.method === 'initialize') {
        return json(initializeResult(body.id!), { headers: { 'mcp-session-id': `s${++session}` } });
      }
      if (body.method === 'notifications/initialized') return accepted();
      if (call.headers.get('mcp-session-id') === 's1') return new Response(null, { status: 404 });
      return json({ jsonrpc: '2.0', id: body.id, result: { tools: [] } });
    });
    const transport = await transportOn(path, fetch, {
      standaloneStream: false,
      reinitializeOnSessionExpired: true,
    });
    const { messages, closes } = collect(transport);
    await transport.start();
    await transport.send(INITIALIZE);
    await transport.send(INITIALIZED);
    await Promise.all([
      transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      transport.send({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
    ]);
    expect(transport.sessionId).toBe('s2');
    expect(session).toBe(2); // one replay for both requests
    const replay = fetch.calls.find((call) => methodOf(call) === 'initialize' && call !== fetch.calls[0]);
    expect((replay?.body as { params?: unknown } | undefined)?.params).toEqual(
      (INITIALIZE as { params: unknown }).params,
    );
    expect(messages.slice(1)).toEqual(
      expect.arrayContaining([
        { jsonrpc: '2.0', id: 2, result: { tools: [] } },
        { jsonrpc: '2.0', id: 3, result: { tools: [] } },
      ]),
    );
    expect(messages).toHaveLength(3); // the replayed initialize result is the transport's own
    expect(closes).toEqual([]);
  });

  it('close() sends DELETE with the session id (legacy only), tolerating 405', async () => {
    const fetch = scriptedFetch((call) => {
      if (call.method === 'DELETE') return new Response(null, { status: 405 });
      if (methodOf(call) === 'initialize') return json(initializeResult(1), { headers: { 'mcp-session-id': 'zz' } });
      return accepted();
    });
    const transport = await transportOn(path, fetch, { standaloneStream: false });
    const { closes } = collect(transport);
    await transport.start();
    await transport.send(INITIALIZE);
    await transport.close();
    const remove = fetch.calls.at(-1);
    expect(remove?.method).toBe('DELETE');
    expect(remove?.headers.get('mcp-session-id')).toBe('zz');
    expect(remove?.headers.get('mcp-protocol-version')).toBe('2025-06-18');
    expect(closes).toEqual([undefined]);
  });

  it('opens the standalone GET stream after notifications/initialized and delivers what it carries', async () => {
    const standalone = sseStream();
    const fetch = scriptedFetch((call) => {
      if (call.method === 'GET') return standalone.response;
      if (methodOf(call) === 'initialize') return json(initializeResult(1), { headers: { 'mcp-session-id': 'g1' } });
      return accepted();
    });
    const transport = await transportOn(path, fetch);
    const { messages } = collect(transport);
    await transport.start();
    await transport.send(INITIALIZE);
    expect(fetch.calls.some((call) => call.method === 'GET')).toBe(false);
    await transport.send(INITIALIZED);
    await until(() => fetch.calls.some((call) => call.method === 'GET'));
    const get = fetch.calls.find((call) => call.method === 'GET')!;
    expect(get.headers.get('accept')).toBe('text/event-stream');
    expect(get.headers.get('mcp-session-id')).toBe('g1');
    expect(get.headers.get('last-event-id')).toBeNull();
    standalone.write(event({ jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' }, { id: 'a1' }));
    await until(() => messages.length === 2);
    expect(messages[1]).toEqual({ jsonrpc: '2.0', id: 'srv-1', method: 'roots/list' });
    await transport.close();
    await standalone.cancelled;
  });

  it('notifications/initialized resolves only once the server answered the standalone GET', async () => {
    // A server that sends a request on the standalone stream right after initialization (the official SDK drops it
    // when no GET is open yet) must find the stream open once the client is connected.
    const standalone = sseStream();
    let answerGet!: () => void;
    const getAnswered = new Promise<void>((resolve) => {
      answerGet = resolve;
    });
    const fetch = scriptedFetch(async (call) => {
      if (call.method === 'GET') {
        await getAnswered;
        return standalone.response;
      }
      if (methodOf(call) === 'initialize') return json(initializeResult(1), { headers: { 'mcp-session-id': 'w1' } });
      return accepted();
    });
    const transport = await transportOn(path, fetch);
    await transport.start();
    await transport.send(INITIALIZE);
    let sent = false;
    const sending = transport.send(INITIALIZED).then(() => {
      sent = true;
    });
    await until(() => fetch.calls.some((call) => call.method === 'GET'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent).toBe(false);
    answerGet();
    await sending;
    expect(sent).toBe(true);
    await transport.close();
    await standalone.cancelled;
  });

  it('a 404 for the standalone GET stream with nothing in flight closes the transport with ERR_SESSION_EXPIRED', async () => {
    const fetch = scriptedFetch((call) => {
      if (call.method === 'GET') return new Response('gone', { status: 404 });
      if (methodOf(call) === 'initialize') return json(initializeResult(1), { headers: { 'mcp-session-id': 'old' } });
      return accepted();
    });
    const transport = await transportOn(path, fetch);
    const { closes } = collect(transport);
    await transport.start();
    await transport.send(INITIALIZE);
    await transport.send(INITIALIZED);
    await until(() => closes.length === 1);
    expect(closes[0]).toMatchObject({
      code: 'ERR_SESSION_EXPIRED',
      data: { status: 404, httpMethod: 'GET', sessionId: 'old' },
    });
    expect(transport.sessionId).toBeUndefined();
  });

  it('a 405 for the GET stream means "none": no error, no retry', async () => {
    const fetch = scriptedFetch((call) => {
      if (call.method === 'GET') return new Response(null, { status: 405, headers: { allow: 'POST' } });
      if (methodOf(call) === 'initialize') return json(initializeResult(1), { headers: { 'mcp-session-id': 'n1' } });
      return accepted();
    });
    const transport = await transportOn(path, fetch, { reconnect: { initialDelayMs: 1 } });
    const { errors } = collect(transport);
    await transport.start();
    await transport.send(INITIALIZE);
    await transport.send(INITIALIZED);
    await until(() => fetch.calls.some((call) => call.method === 'GET'));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(fetch.calls.filter((call) => call.method === 'GET')).toHaveLength(1);
    expect(errors).toEqual([]);
    await transport.close();
  });
});

describe.each(REQUEST_PATHS)('StreamableHttpClientTransport: resumption (legacy) (%s)', (path) => {
  it('resumes a POST stream that closed early with GET + Last-Event-ID after the server retry, and gets the response there', async () => {
    let closedAt = 0;
    let resumedAt = 0;
    const fetch = scriptedFetch((call) => {
      if (call.method === 'GET') {
        resumedAt = performance.now();
        return sse([event({ jsonrpc: '2.0', id: 2, result: { resumed: true } }, { id: 'ev-2' })]);
      }
      if (methodOf(call) === 'tools/call') {
        const stream = sseStream();
        stream.write('id: ev-1\nretry: 150\ndata: \n\n');
        setTimeout(() => {
          closedAt = performance.now();
          stream.end();
        }, 10);
        return stream.response;
      }
      return accepted();
    });
    const transport = await transportOn(path, fetch, { standaloneStream: false });
    const { messages } = collect(transport);
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow' } });
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 2, result: { resumed: true } }]);
    const get = fetch.calls.find((call) => call.method === 'GET')!;
    expect(get.headers.get('last-event-id')).toBe('ev-1');
    expect(resumedAt - closedAt).toBeGreaterThanOrEqual(140);
    expect(resumedAt - closedAt).toBeLessThan(1_000);
  });

  it('reports ERR_EVENTS_LOST when the resumed stream says some events are gone, and still delivers what is left', async () => {
    const fetch = scriptedFetch((call) => {
      if (call.method === 'GET') {
        return sse([
          event({ jsonrpc: '2.0', id: 2, result: { resumed: true } }, { id: 'ev-9' }),
          event({ lastEventId: 'ev-1' }, { event: 'mcpkit-gap' }),
        ]);
      }
      if (methodOf(call) === 'tools/call') {
        const stream = sseStream();
        stream.write('id: ev-1\nretry: 10\ndata: \n\n');
        setTimeout(() => stream.end(), 10);
        return stream.response;
      }
      return accepted();
    });
    const transport = await transportOn(path, fetch, { standaloneStream: false });
    const { messages, errors } = collect(transport);
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'slow' } });
    await until(() => errors.length > 0);
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 2, result: { resumed: true } }]);
    expect(errors.map((error) => (error as { code?: string }).code)).toEqual(['ERR_EVENTS_LOST']);
    expect(errors[0]!.message).toMatch(/after event ev-9.*some messages were lost/);
  });

  // A script that throws is a network failure only to the scripted fetch (a server answers it with 500).
  it.runIf(path === 'fetch')(
    'gives up after reconnect.maxAttempts failed reconnections, with backoff when the server sent no retry',
    async () => {
      const gets: number[] = [];
      const fetch = scriptedFetch((call) => {
        if (call.method === 'GET') {
          gets.push(performance.now());
          throw new TypeError('connection refused');
        }
        return sse(['id: only\ndata: \n\n']);
      });
      const transport = await transportOn(path, fetch, {
        standaloneStream: false,
        reconnect: { maxAttempts: 3, initialDelayMs: 10, growFactor: 2, maxDelayMs: 25 },
      });
      collect(transport);
      await transport.start();
      const started = performance.now();
      const failure = await transport
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } })
        .catch((error: unknown) => error);
      expect(failure).toMatchObject({
        code: 'ERR_STREAM_ENDED',
        message: expect.stringContaining('3 reconnection attempts'),
      });
      expect(gets).toHaveLength(3);
      // Waits of 10, 20, then 25 (capped) ms.
      expect(gets[0]! - started).toBeGreaterThanOrEqual(9);
      expect(gets[1]! - gets[0]!).toBeGreaterThanOrEqual(19);
      expect(gets[2]! - gets[1]!).toBeGreaterThanOrEqual(24);
    },
  );

  it('a POST stream that ends early without any event id cannot be resumed: the request fails', async () => {
    const fetch = scriptedFetch(() => sse([': nothing\n\n']));
    const transport = await transportOn(path, fetch, { standaloneStream: false });
    collect(transport);
    await transport.start();
    await expect(
      transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } }),
    ).rejects.toMatchObject({ code: 'ERR_STREAM_ENDED', message: expect.stringContaining('no event id') });
    expect(fetch.calls).toHaveLength(1);
  });

  it('reconnects the standalone stream when the server closes it, resuming from its last event id', async () => {
    let gets = 0;
    const fetch = scriptedFetch((call) => {
      if (call.method === 'GET') {
        gets++;
        if (gets === 1)
          return sse([event({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, { id: 'g-1', retry: 5 })]);
        return sseStream().response; // stays open
      }
      if (methodOf(call) === 'initialize') return json(initializeResult(1), { headers: { 'mcp-session-id': 'r1' } });
      return accepted();
    });
    const transport = await transportOn(path, fetch);
    collect(transport);
    await transport.start();
    await transport.send(INITIALIZE);
    await transport.send(INITIALIZED);
    await until(() => gets === 2);
    const second = fetch.calls.filter((call) => call.method === 'GET')[1]!;
    expect(second.headers.get('last-event-id')).toBe('g-1');
    await transport.close();
  });
});
