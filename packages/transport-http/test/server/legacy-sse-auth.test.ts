// Legacy HTTP+SSE with an identity: it reaches handlers, owns the stream's session, and a server middleware that
// refuses a POSTed request before it runs answers the POST with the refusal's HTTP status.
import { type AuthInfo, JsonRpcError } from '@mcpkit/jsonrpc-core';
import type { ServerMiddleware } from '@mcpkit/server';
import { createParser } from 'eventsource-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { createSseHandler, type SseHandler, type SseHandlerOptions } from '../../src/index';
import { type Loose, makeServer, URL_ } from './harness';

const empty = { type: 'object', properties: {} } as const;
const alice: AuthInfo = { token: 'alice-1', clientId: 'app', subject: 'alice', scopes: ['read'] };
const bob: AuthInfo = { token: 'bob-1', clientId: 'app', subject: 'bob', scopes: ['read', 'write'] };

const handlers: SseHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((handler) => handler.close()));
});

/** The JSON-RPC messages of an SSE stream, one at a time, each awaited at most 3 s. */
function messageReader(stream: Response) {
  const queue: { event: string | undefined; data: string }[] = [];
  const parser = createParser({ onEvent: (event) => queue.push({ event: event.event, data: event.data }) });
  const reader = stream.body!.getReader();
  const decoder = new TextDecoder();
  return {
    async next(): Promise<{ event: string | undefined; data: string }> {
      const deadline = Date.now() + 3_000;
      while (queue.length === 0) {
        const remaining = deadline - Date.now();
        if (remaining <= 0) throw new Error('no SSE event within 3 s');
        let timer: ReturnType<typeof setTimeout> | undefined;
        const chunk = await Promise.race([
          reader.read(),
          new Promise<'timeout'>((resolve) => {
            timer = setTimeout(() => resolve('timeout'), remaining);
          }),
        ]);
        clearTimeout(timer);
        if (chunk === 'timeout') continue;
        if (chunk.done) throw new Error('the SSE stream ended');
        parser.feed(decoder.decode(chunk.value, { stream: true }));
      }
      return queue.shift()!;
    },
    cancel: () => reader.cancel(),
  };
}

async function open(options: SseHandlerOptions = {}, middleware?: ServerMiddleware) {
  const { server } = makeServer();
  if (middleware !== undefined) server.use(middleware);
  const ran: string[] = [];
  server.registerTool('identity', { inputSchema: empty }, (_args, ctx) => {
    ran.push('identity');
    return { content: [{ type: 'text', text: `${ctx.auth?.subject} ${ctx.auth?.token}` }] };
  });
  server.registerTool('delete', { inputSchema: empty }, () => {
    ran.push('delete');
    return { content: [{ type: 'text', text: 'deleted' }] };
  });
  const sse = createSseHandler(server, { endpoint: '/messages', keepAliveMs: 0, ...options });
  handlers.push(sse);
  return { sse, ran };
}

async function connect(sse: SseHandler, auth: AuthInfo | undefined) {
  const stream = await sse.handle(new Request(URL_, { headers: { host: 'localhost', accept: 'text/event-stream' } }), {
    auth,
  });
  expect(stream.status).toBe(200);
  const messages = messageReader(stream);
  const endpoint = await messages.next();
  expect(endpoint.event).toBe('endpoint');
  let id = 1;
  // `as` given (even undefined): POST as that identity; omitted: as the stream's owner.
  const post = (body: unknown, ...as: [AuthInfo | undefined] | []) =>
    sse.handle(
      new Request(new URL(endpoint.data, URL_), {
        method: 'POST',
        headers: { host: 'localhost', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
      { auth: as.length === 0 ? auth : as[0] },
    );
  const call = (name: string, ...as: [AuthInfo | undefined] | []) =>
    post({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name, arguments: {} } }, ...as);
  const accepted = await post({
    jsonrpc: '2.0',
    id: id++,
    method: 'initialize',
    params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'old', version: '1' } },
  });
  expect(accepted.status).toBe(202);
  expect(JSON.parse((await messages.next()).data).result.protocolVersion).toBe('2024-11-05');
  expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
  return { messages, post, call, lastId: () => id - 1 };
}

describe('legacy HTTP+SSE with an identity', () => {
  it('hands the identity of each POST to handlers as ctx.auth', async () => {
    const { sse } = await open();
    const { messages, call } = await connect(sse, alice);
    expect((await call('identity')).status).toBe(202);
    const answer: Loose = JSON.parse((await messages.next()).data);
    expect(answer.result.content[0].text).toBe('alice alice-1');
    // A refreshed token of the same identity keeps the session, and handlers see the new token.
    expect((await call('identity', { ...alice, token: 'alice-2' })).status).toBe(202);
    expect(JSON.parse((await messages.next()).data).result.content[0].text).toBe('alice alice-2');
    await messages.cancel();
  });

  it("refuses another identity's (or an anonymous) POST to the session with 404; nothing runs", async () => {
    const { sse, ran } = await open();
    const { messages, call } = await connect(sse, alice);
    const theirs = await call('identity', bob);
    expect(theirs.status).toBe(404);
    expect((await theirs.json()).error.message).toMatch(/Session not found/);
    expect((await call('identity', undefined)).status).toBe(404);
    expect(ran).toEqual([]);
    await messages.cancel();
  });

  it('does not let an identity take over an anonymous stream', async () => {
    const { sse, ran } = await open();
    const { messages, call } = await connect(sse, undefined);
    expect((await call('identity', alice)).status).toBe(404);
    expect(ran).toEqual([]);
    await messages.cancel();
  });

  it('uses principalOf to decide who owns a session', async () => {
    const { sse } = await open({ principalOf: (auth) => auth.clientId });
    const { messages, call } = await connect(sse, alice);
    // Same client, another user: one owner under this principalOf.
    expect((await call('identity', bob)).status).toBe(202);
    expect(JSON.parse((await messages.next()).data).result.content[0].text).toBe('bob bob-1');
    await messages.cancel();
  });

  it('a middleware refusal before the handler answers the POST with its status; nothing goes on the stream', async () => {
    const asked: { method: string; subject: string | undefined }[] = [];
    const scopes: ServerMiddleware = (ctx, next) => {
      if (ctx.kind !== 'request') return next();
      asked.push({ method: ctx.method, subject: ctx.auth?.subject });
      const name = (ctx.params as { name?: string } | undefined)?.name;
      if (name !== 'delete' || ctx.auth?.scopes?.includes('write')) return next();
      const challenge = 'Bearer error="insufficient_scope", scope="read write"';
      throw new JsonRpcError(403, 'insufficient_scope', {
        httpStatus: 403,
        httpHeaders: { 'www-authenticate': challenge },
      });
    };
    const { sse, ran } = await open({}, scopes);
    const { messages, call, post } = await connect(sse, alice);
    const refused = await call('delete');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('insufficient_scope');
    expect((await refused.json()).error).toMatchObject({ code: 403, message: 'insufficient_scope' });
    expect((await call('identity')).status).toBe(202);
    // The next event on the stream is identity's answer: the refused call sent nothing there.
    expect(JSON.parse((await messages.next()).data).result.content[0].text).toBe('alice alice-1');
    expect(ran).toEqual(['identity']);
    expect((await post({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' })).status).toBe(202);
    expect(asked.map((entry) => entry.method)).toEqual(['initialize', 'tools/call', 'tools/call']);
    expect(asked.every((entry) => entry.subject === 'alice')).toBe(true);
    await messages.cancel();
  });

  it('runs middleware only after the session check, so another identity learns nothing from it', async () => {
    let asked = 0;
    const { sse } = await open({}, (_ctx, next) => {
      asked += 1;
      return next();
    });
    const { messages, call } = await connect(sse, alice);
    const before = asked;
    expect((await call('identity', bob)).status).toBe(404);
    expect(asked).toBe(before);
    await messages.cancel();
  });

  it('a request cancelled before it was accepted still gets its POST answered', async () => {
    let release!: () => void;
    const { sse } = await open({}, async (ctx, next) => {
      if (ctx.kind === 'request' && ctx.method === 'tools/call')
        await new Promise<void>((resolve) => (release = resolve));
      return next();
    });
    const { messages, call, post, lastId } = await connect(sse, alice);
    const pending = call('identity');
    const requestId = lastId();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(typeof release).toBe('function');
    await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } });
    expect((await pending).status).toBe(202);
    release();
    await messages.cancel();
  });
});
