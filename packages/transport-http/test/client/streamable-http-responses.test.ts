import { describe, expect, it } from 'vitest';
import { StreamableHttpClientTransport, StreamableHttpError } from '../../src/index';
import {
  accepted,
  collect,
  event,
  json,
  modernRequest,
  REQUEST_PATHS,
  type RecordedCall,
  type RequestPath,
  type ScriptedFetch,
  scriptedFetch,
  sse,
  sseStream,
  transportOn,
  until,
} from './helpers';

async function started(path: RequestPath, fetch: ScriptedFetch) {
  const transport = await transportOn(path, fetch, { standaloneStream: false });
  const seen = collect(transport);
  await transport.start();
  return { transport, ...seen };
}

describe.each(REQUEST_PATHS)('StreamableHttpClientTransport: responses (%s)', (path) => {
  it('delivers a JSON response (and every message of a JSON batch)', async () => {
    const fetch = scriptedFetch((call) => {
      const id = (call.body as { id: number }).id;
      return id === 1
        ? json(
            { jsonrpc: '2.0', id, result: { ok: 1 } },
            { headers: { 'content-type': 'application/json; charset=utf-8' } },
          )
        : json([
            { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } },
            { jsonrpc: '2.0', id, result: { ok: 2 } },
          ]);
    });
    const { transport, messages } = await started(path, fetch);
    await transport.send(modernRequest(1, 'tools/list'));
    await transport.send(modernRequest(2, 'tools/list'));
    expect(messages).toEqual([
      { jsonrpc: '2.0', id: 1, result: { ok: 1 } },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } },
      { jsonrpc: '2.0', id: 2, result: { ok: 2 } },
    ]);
  });

  it('delivers SSE events in order (notifications, then the response), skipping priming events and comments', async () => {
    const fetch = scriptedFetch((call) => {
      const id = (call.body as { id: number }).id;
      return sse([
        'id: p1\nretry: 100\ndata: \n\n',
        ': keep-alive\n\n',
        event(
          { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
          { id: 'e1' },
        ),
        // An event split across chunks and with CRLF line ends is still one event.
        `data: ${JSON.stringify({ jsonrpc: '2.0', id, result: { done: true } })}\r\n\r\n`,
      ]);
    });
    const { transport, messages, errors } = await started(path, fetch);
    await transport.send(modernRequest(5, 'tools/call', { name: 'x', arguments: {} }));
    expect(messages).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
      { jsonrpc: '2.0', id: 5, result: { done: true } },
    ]);
    expect(errors).toEqual([]);
  });

  it('send() settles when the response arrives, not when the headers do', async () => {
    const stream = sseStream();
    const fetch = scriptedFetch(() => stream.response);
    const { transport, messages } = await started(path, fetch);
    let settled = false;
    const sending = transport.send(modernRequest(1, 'tools/call', { name: 'slow', arguments: {} })).then(() => {
      settled = true;
    });
    await until(() => fetch.calls.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    stream.write(event({ jsonrpc: '2.0', id: 1, result: {} }));
    stream.end();
    await sending;
    expect(messages).toHaveLength(1);
  });

  it('posts notifications and responses, accepting 202 without a body', async () => {
    const fetch = scriptedFetch(() => accepted());
    const { transport } = await started(path, fetch);
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await transport.send({ jsonrpc: '2.0', id: 'srv-1', result: { roots: [] } });
    expect(fetch.calls.map((call) => call.body)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'srv-1', result: { roots: [] } },
    ]);
  });

  it('turns an HTTP error with a JSON-RPC error body into the error response of the request (id null or missing)', async () => {
    const fetch = scriptedFetch(() =>
      json(
        { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Bad Request: Server not initialized' } },
        { status: 400 },
      ),
    );
    const { transport, messages } = await started(path, fetch);
    await transport.send(modernRequest(3, 'server/discover'));
    expect(messages).toEqual([
      { jsonrpc: '2.0', id: 3, error: { code: -32000, message: 'Bad Request: Server not initialized' } },
    ]);
  });

  it('rejects send() with StreamableHttpError for an HTTP error without a JSON-RPC body', async () => {
    const fetch = scriptedFetch(
      () => new Response('<html>oops</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
    );
    const { transport, messages } = await started(path, fetch);
    const failure = await transport.send(modernRequest(1, 'tools/list')).catch((error: unknown) => error);
    expect(StreamableHttpError.is(failure)).toBe(true);
    expect(failure).toMatchObject({
      code: 'ERR_HTTP_STATUS',
      data: { status: 502, httpMethod: 'POST', method: 'tools/list', body: '<html>oops</html>' },
    });
    expect(messages).toEqual([]);
    const notification = await transport
      .send({ jsonrpc: '2.0', method: 'notifications/x' })
      .catch((error: unknown) => error);
    expect(notification).toMatchObject({ code: 'ERR_HTTP_STATUS', data: { status: 502 } });
  });

  it('rejects a 2xx with another content type, and a network failure, with clear codes', async () => {
    const fetch = scriptedFetch((_call, index) => {
      if (index === 0) return new Response('hello', { status: 200, headers: { 'content-type': 'text/plain' } });
      throw new TypeError('fetch failed');
    });
    const { transport } = await started(path, fetch);
    await expect(transport.send(modernRequest(1, 'tools/list'))).rejects.toMatchObject({ code: 'ERR_CONTENT_TYPE' });
    // A script that throws is a network failure only to the scripted fetch (a server answers it with 500); on
    // node:http a refused connection is one.
    const failing = path === 'fetch' ? transport : new StreamableHttpClientTransport('http://127.0.0.1:9/mcp');
    await failing.start().catch(() => {});
    await expect(failing.send(modernRequest(2, 'tools/list'))).rejects.toMatchObject({
      code: 'ERR_NETWORK',
      message: expect.stringContaining(path === 'fetch' ? 'fetch failed' : 'ECONNREFUSED'),
    });
  });

  it('2026-07-28: a response stream that ends before the response fails the request (no resumption)', async () => {
    const fetch = scriptedFetch(() =>
      sse([event({ jsonrpc: '2.0', method: 'notifications/progress', params: {} }, { id: 'x1' })]),
    );
    const { transport } = await started(path, fetch);
    await expect(transport.send(modernRequest(1, 'tools/call', { name: 'x', arguments: {} }))).rejects.toMatchObject({
      code: 'ERR_STREAM_ENDED',
    });
    expect(fetch.calls).toHaveLength(1);
  });

  it('reports SSE events that are not JSON-RPC through onerror and goes on', async () => {
    const fetch = scriptedFetch(() => sse(['data: {not json\n\n', event({ jsonrpc: '2.0', id: 1, result: {} })]));
    const { transport, messages, errors } = await started(path, fetch);
    await transport.send(modernRequest(1, 'tools/list'));
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'ERR_INVALID_BODY' });
  });
});

describe.each(REQUEST_PATHS)('StreamableHttpClientTransport: cancellation (%s)', (path) => {
  it('2026-07-28: notifications/cancelled aborts the request fetch (closing its stream) and posts nothing', async () => {
    const stream = sseStream();
    let signal: AbortSignal | undefined;
    const fetch = scriptedFetch((call: RecordedCall) => {
      signal = call.signal;
      return stream.response;
    });
    const { transport } = await started(path, fetch);
    const sending = transport.send(modernRequest(7, 'tools/call', { name: 'slow', arguments: {} }));
    await until(() => signal !== undefined);
    expect(signal?.aborted).toBe(false);
    await transport.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 7, reason: 'user' },
    });
    await until(() => signal?.aborted === true); // at once with fetch; when the server sees the connection close
    await sending;
    expect(fetch.calls).toHaveLength(1);
    // A cancellation for a request the transport does not know is posted as is.
    const other = scriptedFetch(() => accepted());
    const second = await started(path, other);
    await second.transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } });
    expect(other.calls).toHaveLength(1);
  });

  it('legacy: notifications/cancelled is posted, then the request stream is closed', async () => {
    const stream = sseStream();
    const fetch = scriptedFetch((call) =>
      (call.body as { method: string }).method === 'tools/call' ? stream.response : accepted(),
    );
    const { transport } = await started(path, fetch);
    const sending = transport.send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'slow' } });
    await until(() => fetch.calls.length === 1);
    await transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 4 } });
    await sending;
    expect(fetch.calls.map((call) => (call.body as { method: string }).method)).toEqual([
      'tools/call',
      'notifications/cancelled',
    ]);
    await until(() => fetch.calls[0]?.signal?.aborted === true);
  });

  it('close() aborts requests in flight and rejects their send(), then refuses to send', async () => {
    const fetch = scriptedFetch(() => sseStream().response);
    const transport = await transportOn(path, fetch);
    const { closes } = collect(transport);
    await transport.start();
    const sending = transport.send(modernRequest(1, 'tools/call', { name: 'x', arguments: {} }));
    await until(() => fetch.calls.length === 1);
    await transport.close();
    await transport.close();
    await expect(sending).rejects.toMatchObject({ code: 'ERR_TRANSPORT_CLOSED' });
    await until(() => fetch.calls[0]?.signal?.aborted === true);
    expect(closes).toEqual([undefined]);
    await expect(transport.send(modernRequest(2, 'tools/list'))).rejects.toMatchObject({
      code: 'ERR_TRANSPORT_CLOSED',
    });
  });
});
