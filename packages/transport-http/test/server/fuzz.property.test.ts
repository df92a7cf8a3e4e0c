import { buildRequestMeta, encodeHeaderValue, standardHeadersFor } from '@mcpkit/protocol';
import { McpServer } from '@mcpkit/server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStreamableHttpHandler, type StreamableHttpHandler } from '../../src/index';
import { ACCEPT, type Loose, readEvents, URL_ } from './harness';

// Property-based test of the Streamable HTTP endpoint (issue 12): POSTs with arbitrary bodies (bytes, JSON of any
// shape, JSON-RPC messages with broken or valid 2026-07-28 envelopes) and arbitrary `Mcp-*` and version headers never
// make the handler throw, and every answer is well-formed: a refusal (4xx) carries a valid JSON-RPC error response,
// a 200 carries JSON-RPC messages (JSON or SSE), a 202 nothing.

/** Small by default so the suite stays fast; `FUZZ_RUNS=20000` runs a long one. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 600);

function server(): McpServer {
  const mcp = new McpServer({ name: 'fuzz', version: '1.0.0' });
  mcp.registerTool(
    'echo',
    {
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string' }, region: { type: 'string', 'x-mcp-header': 'Region' } },
      },
    },
    (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }),
  );
  return mcp;
}

function expectJsonRpcMessage(value: Loose): void {
  expect(value.jsonrpc).toBe('2.0');
  if ('method' in value) {
    expect(typeof value.method).toBe('string');
    return;
  }
  expect(value.id === null || typeof value.id === 'string' || Number.isFinite(value.id)).toBe(true);
  if ('error' in value) {
    expect(Number.isInteger(value.error.code)).toBe(true);
    expect(typeof value.error.message).toBe('string');
  } else {
    expect('result' in value).toBe(true);
  }
}

async function expectWellFormed(response: Response): Promise<void> {
  const type = response.headers.get('content-type') ?? '';
  if (response.status === 202) {
    expect(await response.text()).toBe('');
    return;
  }
  if (type.startsWith('text/event-stream')) {
    expect(response.status).toBe(200);
    const { events } = await readEvents(response, { timeoutMs: 2_000 });
    for (const event of events) if (event.data !== '') expectJsonRpcMessage(JSON.parse(event.data));
    return;
  }
  expect(type).toBe('application/json');
  const body = JSON.parse(await response.text());
  const messages = Array.isArray(body) ? body : [body];
  for (const message of messages) expectJsonRpcMessage(message);
  if (response.status >= 400) {
    expect(response.status).toBeLessThan(500);
    expect(Array.isArray(body)).toBe(false);
    expect(body.error).toBeDefined();
  }
}

const HEADER_TEXT = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
  maxLength: 30,
});
const envelope = buildRequestMeta({ protocolVersion: '2026-07-28', clientCapabilities: {} });
const meta = fc.oneof(
  fc.constant(envelope),
  fc.anything(),
  fc.dictionary(fc.constantFrom(...Object.keys(envelope), 'progressToken', 'x'), fc.anything(), { maxKeys: 4 }),
);
const message = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.anything()),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.anything()),
    method: fc.oneof(
      fc.constantFrom('tools/call', 'tools/list', 'initialize', 'ping', 'server/discover', 'resources/read', 'x/y'),
      fc.anything(),
    ),
    params: fc.oneof(
      fc.anything(),
      fc.record(
        {
          name: fc.oneof(fc.constant('echo'), fc.anything()),
          arguments: fc.oneof(fc.anything(), fc.record({ text: fc.anything(), region: fc.anything() })),
          _meta: meta,
        },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  message.map((value) => JSON.stringify(value) ?? ''),
  fc.array(message, { maxLength: 3 }).map((value) => JSON.stringify(value)),
);
const headers = fc.record(
  {
    'mcp-protocol-version': fc.oneof(fc.constantFrom('2026-07-28', '2025-11-25', '2025-03-26'), HEADER_TEXT),
    'mcp-method': fc.oneof(fc.constantFrom('tools/call', 'ping'), HEADER_TEXT),
    'mcp-name': fc.oneof(fc.constantFrom('echo', '=?base64?ZWNobw==?=', '=?base64?!!?='), HEADER_TEXT),
    'mcp-param-region': HEADER_TEXT,
    'mcp-session-id': HEADER_TEXT,
    'content-type': fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain'),
  },
  { requiredKeys: [] },
);

/**
 * Requests that pass the first checks: a 2026-07-28 request with its envelope and the headers that mirror it (tool
 * arguments and the `Mcp-Param-Region` header of any text, either dropped or altered now and then), or a legacy
 * `initialize` with any client info.
 */
const wellFormed = fc
  .record({
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 })),
    method: fc.constantFrom('tools/call', 'tools/list', 'ping', 'server/discover', 'initialize'),
    text: fc.string({ unit: 'grapheme', maxLength: 40 }),
    region: fc.option(fc.string({ unit: 'grapheme', maxLength: 20 }), { nil: undefined }),
    clientInfo: fc.anything(),
    tamper: fc.option(fc.tuple(fc.constantFrom('mcp-method', 'mcp-name', 'mcp-param-region'), HEADER_TEXT), {
      freq: 4,
      nil: undefined,
    }),
  })
  .map(({ id, method, text, region, clientInfo, tamper }) => {
    if (method === 'initialize') {
      const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo };
      return { text: JSON.stringify({ jsonrpc: '2.0', id, method, params }), sent: {} as Record<string, string> };
    }
    const args = region === undefined ? { text } : { text, region };
    const params = method === 'tools/call' ? { name: 'echo', arguments: args, _meta: envelope } : { _meta: envelope };
    const request = { jsonrpc: '2.0' as const, id, method, params };
    const sent: Record<string, string> = {};
    for (const [name, value] of Object.entries(standardHeadersFor(request))) sent[name.toLowerCase()] = value;
    if (method === 'tools/call' && region !== undefined) sent['mcp-param-region'] = encodeHeaderValue(region);
    if (tamper !== undefined) sent[tamper[0]] = tamper[1];
    return { text: JSON.stringify(request), sent };
  });

describe('Streamable HTTP endpoint (property-based)', () => {
  it('answers arbitrary POSTs with well-formed JSON-RPC, never a throw', async () => {
    const handlers: StreamableHttpHandler[] = (['sse', 'json', 'auto'] as const).map((responseMode) =>
      createStreamableHttpHandler(server(), { keepAliveMs: 0, responseMode }),
    );
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.record({ text: body, sent: headers }), wellFormed),
        fc.nat(2),
        async (input, which) => {
          const { text, sent } = input;
          const handler = handlers[which]!;
          const request = new Request(URL_, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: ACCEPT, host: '127.0.0.1:3000', ...sent },
            body: text,
          });
          const response = await handler.handle(request);
          statuses.add(response.status);
          await expectWellFormed(response);
        },
      ),
      { numRuns: RUNS },
    );
    await Promise.all(handlers.map((handler) => handler.close()));
    // The inputs reached past the first checks: answers, refusals of several kinds.
    expect([...statuses].sort()).toEqual(expect.arrayContaining([200, 400, 404, 415]));
  }, 60_000);
});
