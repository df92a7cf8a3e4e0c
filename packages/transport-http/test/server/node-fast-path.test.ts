import { createServer, request as httpRequest, type Server as NodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { standardHeadersFor } from '@mcpkit/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createStreamableHttpHandler, type StreamableHttpHandlerOptions } from '../../src/index';
import { toNodeHandler, type WebHandler } from '../../src/node/node-handler';
import { NodeHeaders } from '../../src/node/node-headers';
import { NodeRequest } from '../../src/node/node-request';
import { ACCEPT, LEGACY, type Loose, makeServer, modernRequest, request } from './harness';

// The node adapter no longer builds an undici Request per call (NodeRequest: headers read in place, the body handed
// over as bytes) and writes string-built responses in one go. These tests send the same bytes over real HTTP to the
// adapter and, as a web `Request`, to a twin handler, and require the same status, headers and body.

const servers: NodeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

interface Wire {
  status: number;
  headers: Record<string, string>;
  body: string;
}

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

/**
 * Listens on 127.0.0.1 with the adapter around a handler; returns the port and every request the handler saw.
 * `path: 'answer'` hands the adapter the handler itself (its own `handle`, so the adapter takes the answer without a
 * `Response`); `'handle'` wraps it, so the adapter must call `handle` and write the `Response`.
 */
async function adapter(
  options: StreamableHttpHandlerOptions,
  nodeOptions: Parameters<typeof toNodeHandler>[1] = {},
  path: 'answer' | 'handle' = 'handle',
): Promise<{ port: number; seen: Request[] }> {
  const handler = createStreamableHttpHandler(makeServer().server, { keepAliveMs: 0, ...options });
  const seen: Request[] = [];
  const recording: WebHandler = {
    handle: (request, extra) => {
      seen.push(request);
      return handler.handle(request, extra);
    },
  };
  const listener =
    path === 'handle'
      ? toNodeHandler(recording, nodeOptions)
      : toNodeHandler(handler, {
          ...nodeOptions,
          auth: (_req, request) => {
            seen.push(request);
            return undefined;
          },
        });
  const server = createServer((req, res) => void listener(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, seen };
}

function send(
  port: number,
  method: string,
  headers: [string, string][],
  body?: string | Buffer,
): Promise<Wire & { rawHeaders: [string, string][] }> {
  return new Promise((resolve, reject) => {
    // Given as an array, the headers are sent as listed (repeated fields stay separate lines) and node adds no Host.
    const flat: string[] = ['Host', `127.0.0.1:${port}`];
    for (const [name, value] of headers) flat.push(name, value);
    const req = httpRequest({ host: '127.0.0.1', port, path: '/mcp', method, headers: flat }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let index = 0; index < res.rawHeaders.length; index += 2) {
          pairs.push([res.rawHeaders[index]!.toLowerCase(), res.rawHeaders[index + 1]!]);
        }
        resolve({
          status: res.statusCode ?? 0,
          headers: comparable(pairs),
          body: Buffer.concat(chunks).toString('utf8'),
          rawHeaders: pairs,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** What a twin handler (same options, fresh server) answers to the same request as a web `Request`. */
async function twin(
  options: StreamableHttpHandlerOptions,
  url: string,
  method: string,
  headers: Headers,
  body: string | undefined,
): Promise<Wire> {
  const handler = createStreamableHttpHandler(makeServer().server, { keepAliveMs: 0, ...options });
  const response = await handler.handle(
    new Request(url, { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : body }),
  );
  const text = await response.text();
  await handler.close();
  return { status: response.status, headers: comparable(response.headers), body: text };
}

const JSON_POST: [string, string][] = [
  ['Content-Type', 'application/json'],
  ['Accept', ACCEPT],
];

function modernHeaders(body: Loose): [string, string][] {
  return [...JSON_POST, ...(Object.entries(standardHeadersFor(body)) as [string, string][])];
}

type Case = {
  name: string;
  options: StreamableHttpHandlerOptions;
  method: string;
  headers: [string, string][];
  body?: string;
  status: number;
};

const echo = (id: number) => request('tools/call', { name: 'echo', arguments: { text: `hi ${id}` } }, id);
const modernEcho = modernRequest('tools/call', { name: 'echo', arguments: { text: 'modern' } }, 41);
const mismatched = modernRequest('tools/call', { name: 'echo', arguments: { text: 'x' } }, 42);

const CASES: Case[] = [
  {
    name: 'legacy stateless call, JSON',
    options: { sessions: false, responseMode: 'json' },
    method: 'POST',
    headers: [...JSON_POST, ['MCP-Protocol-Version', LEGACY]],
    body: JSON.stringify(echo(1)),
    status: 200,
  },
  {
    name: 'legacy stateless call, SSE',
    options: { sessions: false, responseMode: 'sse' },
    method: 'POST',
    headers: [...JSON_POST, ['MCP-Protocol-Version', LEGACY]],
    body: JSON.stringify(echo(2)),
    status: 200,
  },
  {
    name: 'initialize opens a session',
    options: { responseMode: 'json' },
    method: 'POST',
    headers: JSON_POST,
    body: JSON.stringify(
      request('initialize', { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'c', version: '1' } }, 3),
    ),
    status: 200,
  },
  {
    name: '2026-07-28 call',
    options: { responseMode: 'json' },
    method: 'POST',
    headers: modernHeaders(modernEcho),
    body: JSON.stringify(modernEcho),
    status: 200,
  },
  {
    name: '2026-07-28 header mismatch',
    options: {},
    method: 'POST',
    headers: [
      ...modernHeaders(mismatched).filter(([name]) => name.toLowerCase() !== 'mcp-name'),
      ['Mcp-Name', 'other'],
    ],
    body: JSON.stringify(mismatched),
    status: 400,
  },
  {
    name: 'malformed JSON',
    options: {},
    method: 'POST',
    headers: JSON_POST,
    body: '{"jsonrpc": "2.0", ',
    status: 400,
  },
  {
    name: 'wrong content type',
    options: {},
    method: 'POST',
    headers: [
      ['Content-Type', 'text/plain'],
      ['Accept', ACCEPT],
    ],
    body: '{}',
    status: 415,
  },
  {
    name: 'no acceptable media type',
    options: {},
    method: 'POST',
    headers: [
      ['Content-Type', 'application/json'],
      ['Accept', 'text/html'],
    ],
    body: JSON.stringify(echo(4)),
    status: 406,
  },
  {
    name: 'repeated header fields combine as in Headers',
    options: {},
    method: 'POST',
    headers: [...JSON_POST, ['MCP-Protocol-Version', LEGACY], ['MCP-Protocol-Version', '2025-06-18']],
    body: JSON.stringify(echo(5)),
    status: 400,
  },
  {
    name: 'body over the handler limit (the adapter allows more)',
    options: { maxBodyBytes: 256 },
    method: 'POST',
    headers: [...JSON_POST, ['MCP-Protocol-Version', LEGACY]],
    body: JSON.stringify(request('tools/call', { name: 'echo', arguments: { text: 'x'.repeat(400) } }, 6)),
    status: 413,
  },
  {
    name: 'non-ASCII body',
    options: { sessions: false, responseMode: 'json' },
    method: 'POST',
    headers: [...JSON_POST, ['MCP-Protocol-Version', LEGACY]],
    body: JSON.stringify(request('tools/call', { name: 'echo', arguments: { text: 'héllo ✓ 🎉' } }, 7)),
    status: 200,
  },
  {
    name: 'GET without a session',
    options: {},
    method: 'GET',
    headers: [['Accept', 'text/event-stream']],
    status: 400,
  },
  { name: 'DELETE without a session', options: {}, method: 'DELETE', headers: [], status: 400 },
  { name: 'unsupported method', options: {}, method: 'PUT', headers: JSON_POST, body: '{}', status: 405 },
];

describe.each(['handle', 'answer'] as const)('node adapter (%s) ≡ web Request path', (path) => {
  for (const testCase of CASES) {
    it(testCase.name, async () => {
      const { port, seen } = await adapter(testCase.options, {}, path);
      const wire = await send(port, testCase.method, testCase.headers, testCase.body);
      expect(seen).toHaveLength(1);
      const seenRequest = seen[0]!;
      expect(seenRequest).toBeInstanceOf(NodeRequest);
      // The twin gets the same URL and header lines the adapter saw.
      const headers = new Headers();
      for (const [name, value] of seenRequest.headers) headers.append(name, value);
      const expected = await twin(testCase.options, seenRequest.url, testCase.method, headers, testCase.body);
      expect(wire.status).toBe(testCase.status);
      expect(wire.status).toBe(expected.status);
      expect(wire.headers).toEqual(expected.headers);
      expect(wire.body).toBe(expected.body);
      // Answers built from a string go out with a length, in one piece.
      if (wire.headers['content-type'] === 'application/json') {
        const length = wire.rawHeaders.find(([name]) => name === 'content-length')?.[1];
        expect(Number(length)).toBe(Buffer.byteLength(wire.body));
      }
    });
  }

  it('the adapter refuses a body over its own limit with 413, before the handler', async () => {
    const { port, seen } = await adapter({}, { maxBodyBytes: 128 }, path);
    const wire = await send(port, 'POST', JSON_POST, 'x'.repeat(1_000));
    expect(wire.status).toBe(413);
    expect(JSON.parse(wire.body).error.message).toMatch(/exceeds 128 bytes/);
    // In the 'answer' path the recorder is the auth hook, which runs before the body is read (so a refusal never
    // waits for a body); the handler itself never saw the request in either path.
    expect(seen).toHaveLength(path === 'handle' ? 0 : 1);
  });

  it('a pre-parsed body (express.json()) reaches the handler as the same JSON', async () => {
    const handler = createStreamableHttpHandler(makeServer().server, { sessions: false, responseMode: 'json' });
    const listener = toNodeHandler(handler);
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        (req as Loose).body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        void listener(req, res);
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const wire = await send(port, 'POST', [...JSON_POST, ['MCP-Protocol-Version', LEGACY]], JSON.stringify(echo(8)));
    expect(wire.status).toBe(200);
    expect(JSON.parse(wire.body).result.content[0].text).toBe('hi 8');
  });

  it('aborts the request signal when the client disconnects (2026-07-28, JSON response)', async () => {
    const made = makeServer();
    const handler = createStreamableHttpHandler(made.server, { responseMode: 'json' });
    const listener = toNodeHandler(handler);
    const server = createServer((req, res) => void listener(req, res));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const body = modernRequest('tools/call', { name: 'quiet-wait', arguments: { key: 'node-abort' } }, 50);
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      path: '/mcp',
      method: 'POST',
      headers: Object.fromEntries(modernHeaders(body)),
    });
    req.on('error', () => undefined);
    req.end(JSON.stringify(body));
    for (let i = 0; i < 200 && !made.gates.has('node-abort'); i++) await new Promise((r) => setTimeout(r, 5));
    expect(made.gates.has('node-abort')).toBe(true);
    req.destroy();
    for (let i = 0; i < 200 && !made.aborted.includes('node-abort'); i++) await new Promise((r) => setTimeout(r, 5));
    expect(made.aborted).toContain('node-abort');
  });
});

describe('NodeRequest', () => {
  const raw = ['Host', '127.0.0.1:1', 'Content-Type', 'application/json', 'X-Twice', 'a', 'x-twice', 'b'];

  it('answers like the Request it stands for, building it only when asked', async () => {
    const fast = new NodeRequest('POST', 'http://127.0.0.1:1/mcp', raw, Buffer.from('{"a":1}'));
    expect(fast.method).toBe('POST');
    expect(fast.headers.get('x-twice')).toBe('a, b');
    expect(fast.headers.get('X-TWICE')).toBe(new Headers([...pairs(raw)]).get('x-twice'));
    expect(fast.headers.has('content-type')).toBe(true);
    expect(fast.headers.get('missing')).toBeNull();
    expect([...fast.headers]).toEqual([...new Headers([...pairs(raw)])]);
    expect(fast.bodyUsed).toBe(false);
    expect(await fast.json()).toEqual({ a: 1 });
    expect(fast.bodyUsed).toBe(true);
    expect(fast.cache).toBe(new Request('http://x/').cache);
  });

  it('aborts its signal whether it was read before or after the abort', () => {
    const early = new NodeRequest('GET', 'http://127.0.0.1:1/', raw, undefined);
    const signal = early.signal;
    early.abort(new Error('gone'));
    expect(signal.aborted).toBe(true);
    const late = new NodeRequest('GET', 'http://127.0.0.1:1/', raw, undefined);
    late.abort(new Error('gone'));
    expect(late.signal.aborted).toBe(true);
    expect((late.signal.reason as Error).message).toBe('gone');
  });

  it('headers become a real Headers once mutated', () => {
    const headers = new NodeHeaders(raw);
    headers.set('x-twice', 'c');
    expect(headers.get('x-twice')).toBe('c');
    headers.delete('host');
    expect(headers.has('host')).toBe(false);
  });
});

function* pairs(raw: string[]): Generator<[string, string]> {
  for (let index = 0; index + 1 < raw.length; index += 2) yield [raw[index]!, raw[index + 1]!];
}
