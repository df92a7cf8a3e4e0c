import { createServer, request as httpRequest, type Server as NodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { standardHeadersFor } from '@mcpkit/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createStreamableHttpHandler, type StreamableHttpHandlerOptions, withCors } from '../../src/index';
import { toNodeHandler, type WebHandler } from '../../src/node/node-handler';
import { answerOf } from '../../src/server/reply';
import { ACCEPT, LEGACY, type Loose, makeServer, modernRequest, request } from './harness';

// On node, the handler's own `handle` carries a faster way in: the same answer before it is a `Response` (JSON as a
// string with a length, SSE written straight to the socket). These tests run whole conversations through the adapter
// and, as web Requests, through `handle()` of a twin handler, and require the same statuses, headers and bodies; and
// they check that a wrapper around `handle` (auth, CORS) is never skipped.

const servers: NodeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

interface Wire {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One exchange; `sessionId` (random, masked in `headers`) is what the client uses next. */
type Send = (
  method: string,
  headers: Record<string, string>,
  body?: unknown,
) => Promise<{ wire: Wire; sessionId: string | undefined }>;

// Set by the HTTP layer or by the adapter's framing choice, not by the handler.
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

function comparable(headers: Iterable<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) {
    if (TRANSPORT_HEADERS.has(name)) continue;
    out[name] = name === 'mcp-session-id' ? '<session>' : value;
  }
  return out;
}

async function listenNode(listener: (req: Loose, res: Loose) => unknown): Promise<number> {
  const server = createServer((req, res) => void listener(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function nodeSend(port: number): Send {
  return (method, headers, body) =>
    new Promise((resolve, reject) => {
      const text = body === undefined ? undefined : JSON.stringify(body);
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/mcp', method, headers: { host: `127.0.0.1:${port}`, ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const pairs: [string, string][] = [];
            for (let index = 0; index < res.rawHeaders.length; index += 2) {
              pairs.push([res.rawHeaders[index]!.toLowerCase(), res.rawHeaders[index + 1]!]);
            }
            const wire = Buffer.concat(chunks).toString('utf8');
            const length = res.headers['content-length'];
            // A length, when sent, is the body's.
            if (length !== undefined && Number(length) !== Buffer.byteLength(wire)) {
              reject(new Error(`content-length ${length} for ${Buffer.byteLength(wire)} bytes`));
            }
            resolve({
              wire: { status: res.statusCode ?? 0, headers: comparable(pairs), body: wire },
              sessionId: res.headers['mcp-session-id'] as string | undefined,
            });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(text);
    });
}

function webSend(handler: WebHandler): Send {
  return async (method, headers, body) => {
    const response = await handler.handle(
      new Request('http://127.0.0.1:1/mcp', {
        method,
        headers: { host: '127.0.0.1:1', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    return {
      wire: { status: response.status, headers: comparable(response.headers), body: await response.text() },
      sessionId: response.headers.get('mcp-session-id') ?? undefined,
    };
  };
}

const JSON_POST = { 'content-type': 'application/json', accept: ACCEPT };

function modernHeaders(body: Loose): Record<string, string> {
  return { ...JSON_POST, ...standardHeadersFor(body) };
}

function modernCall(name: string, args: Record<string, unknown>, id: number, progressToken?: string): Loose {
  const body: Loose = modernRequest('tools/call', { name, arguments: args }, id);
  if (progressToken !== undefined) body.params._meta.progressToken = progressToken;
  return body;
}

/** A legacy conversation: initialize, initialized, calls (with progress), an unknown method, DELETE. */
async function legacyConversation(send: Send): Promise<Wire[]> {
  const init = await send(
    'POST',
    JSON_POST,
    request('initialize', { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'c', version: '1' } }, 1),
  );
  const session: Record<string, string> =
    init.sessionId === undefined
      ? { 'mcp-protocol-version': LEGACY }
      : { 'mcp-session-id': init.sessionId, 'mcp-protocol-version': LEGACY };
  const headers = { ...JSON_POST, ...session };
  const echo = request('tools/call', { name: 'echo', arguments: { text: 'héllo ✓' } }, 2);
  const progress = request(
    'tools/call',
    { name: 'progress', arguments: { steps: 2 }, _meta: { progressToken: 'p' } },
    3,
  );
  const wires = [
    init.wire,
    (await send('POST', headers, { jsonrpc: '2.0', method: 'notifications/initialized' })).wire,
    (await send('POST', headers, echo)).wire,
    (await send('POST', headers, progress)).wire,
    (await send('POST', headers, request('no/such/method', {}, 4))).wire,
  ];
  if (init.sessionId !== undefined) wires.push((await send('DELETE', session)).wire);
  return wires;
}

/** A 2026-07-28 conversation: a call, a call with progress, a notification, an unknown method. */
async function modernConversation(send: Send): Promise<Wire[]> {
  const echo = modernCall('echo', { text: 'modern' }, 10);
  const progress = modernCall('progress', { steps: 3 }, 11, 'tok');
  const unknown = modernRequest('no/such/method', {}, 12);
  const note = { jsonrpc: '2.0', method: 'notifications/roots/list_changed', params: modernRequest('x').params };
  return [
    (await send('POST', modernHeaders(echo), echo)).wire,
    (await send('POST', modernHeaders(progress), progress)).wire,
    (await send('POST', modernHeaders(note), note)).wire,
    (await send('POST', modernHeaders(unknown), unknown)).wire,
  ];
}

async function sides(options: StreamableHttpHandlerOptions): Promise<{ node: Send; web: Send }> {
  const nodeHandler = createStreamableHttpHandler(makeServer().server, { keepAliveMs: 0, ...options });
  const webHandler = createStreamableHttpHandler(makeServer().server, { keepAliveMs: 0, ...options });
  expect(answerOf(nodeHandler.handle)).toBeTypeOf('function');
  const port = await listenNode(toNodeHandler(nodeHandler));
  return { node: nodeSend(port), web: webSend(webHandler) };
}

describe('node answers ≡ web Responses, whole conversations', () => {
  const legacy: [string, StreamableHttpHandlerOptions][] = [
    ['stateful JSON', { responseMode: 'json' }],
    ['stateful SSE with an event store', { responseMode: 'sse' }],
    ['stateful SSE without an event store', { responseMode: 'sse', eventStore: false }],
    ['legacy stateless SSE', { sessions: false, responseMode: 'sse' }],
    ['legacy stateless auto', { sessions: false, responseMode: 'auto' }],
    ['legacy stateless JSON', { sessions: false, responseMode: 'json' }],
  ];
  for (const [name, options] of legacy) {
    it(name, async () => {
      const { node, web } = await sides(options);
      const fromNode = await legacyConversation(node);
      const fromWeb = await legacyConversation(web);
      expect(fromNode.map((wire) => wire.status)).toEqual(fromWeb.map((wire) => wire.status));
      expect(fromNode).toEqual(fromWeb);
      // The conversation did what it says: the call answered, progress arrived where the mode allows it.
      const call = fromNode[2]!;
      expect(call.status).toBe(200);
      expect(call.body).toContain('héllo ✓');
      if (options.responseMode === 'sse') expect(fromNode[3]!.body).toContain('notifications/progress');
    });
  }

  for (const mode of ['auto', 'sse', 'json'] as const) {
    it(`2026-07-28, ${mode}`, async () => {
      const { node, web } = await sides({ responseMode: mode });
      const fromNode = await modernConversation(node);
      const fromWeb = await modernConversation(web);
      expect(fromNode).toEqual(fromWeb);
      expect(fromNode.map((wire) => wire.status)).toEqual([200, 200, 202, 404]);
      if (mode !== 'json') expect(fromNode[1]!.body.match(/notifications\/progress/g)).toHaveLength(3);
    });
  }
});

describe('the fast way in', () => {
  it('answers JSON without a Response, and is the handler own', async () => {
    const handler = createStreamableHttpHandler(makeServer().server, { sessions: false, responseMode: 'json' });
    const fast = answerOf(handler.handle)!;
    const answer = await fast(
      handler,
      new Request('http://127.0.0.1:1/mcp', {
        method: 'POST',
        headers: { ...JSON_POST, host: '127.0.0.1:1', 'mcp-protocol-version': LEGACY },
        body: JSON.stringify(request('tools/call', { name: 'echo', arguments: { text: 'x' } }, 1)),
      }),
    );
    expect(answer).not.toBeInstanceOf(Response);
    expect(answer).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' } });
    expect(JSON.parse((answer as { body: string }).body).result.content[0].text).toBe('x');
  });

  it('given another object, asks its handle', async () => {
    const handler = createStreamableHttpHandler(makeServer().server);
    const fast = answerOf(handler.handle)!;
    const other = { handle: async () => new Response('teapot', { status: 418 }) };
    const answer = await fast(other, new Request('http://127.0.0.1:1/mcp'));
    expect((answer as Response).status).toBe(418);
  });

  it('a wrapper that replaces handle (bearer auth style) is never bypassed', async () => {
    const made = makeServer();
    const handler = createStreamableHttpHandler(made.server, { sessions: false, responseMode: 'json' });
    // As @mcpkit/middleware's protect(): a Proxy whose handle refuses, everything else the handler's own.
    const guarded = new Proxy(handler, {
      get(target, property) {
        if (property === 'handle') {
          return async () => new Response('{"error":"invalid_token"}', { status: 401 });
        }
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    expect(answerOf(guarded.handle)).toBeUndefined();
    const port = await listenNode(toNodeHandler(guarded));
    const call = request('tools/call', { name: 'echo', arguments: { text: 'secret' } }, 1);
    const { wire } = await nodeSend(port)('POST', { ...JSON_POST, 'mcp-protocol-version': LEGACY }, call);
    expect(wire.status).toBe(401);
    expect(wire.body).not.toContain('secret');
  });

  it('CORS around the handler still decorates node answers', async () => {
    const handler = withCors(
      createStreamableHttpHandler(makeServer().server, {
        sessions: false,
        responseMode: 'json',
        allowedOrigins: ['https://app.example.com'],
      }),
      { origin: ['https://app.example.com'] },
    );
    const port = await listenNode(toNodeHandler(handler));
    const call = request('tools/call', { name: 'echo', arguments: { text: 'c' } }, 1);
    const { wire } = await nodeSend(port)(
      'POST',
      { ...JSON_POST, 'mcp-protocol-version': LEGACY, origin: 'https://app.example.com' },
      call,
    );
    expect(wire.status).toBe(200);
    expect(wire.headers['access-control-allow-origin']).toBe('https://app.example.com');
  });

  it('a client that leaves a 2026-07-28 SSE answer cancels the request', async () => {
    const made = makeServer();
    const handler = createStreamableHttpHandler(made.server, { responseMode: 'auto', keepAliveMs: 0 });
    const port = await listenNode(toNodeHandler(handler));
    const body = modernCall('wait', { key: 'sse-leave' }, 60, 'w');
    const firstEvent = new Promise<void>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: modernHeaders(body) },
        (res) => {
          expect(res.headers['content-type']).toBe('text/event-stream');
          res.once('data', () => {
            resolve();
            req.destroy();
          });
        },
      );
      req.on('error', () => undefined);
      req.end(JSON.stringify(body));
      setTimeout(() => reject(new Error('no event within 3 s')), 3_000);
    });
    await firstEvent;
    for (let i = 0; i < 200 && !made.aborted.includes('sse-leave'); i++) await new Promise((r) => setTimeout(r, 5));
    expect(made.aborted).toContain('sse-leave');
  });
});
