import { encodeHeaderValue } from '@mcpkit/protocol';
import { McpServer, McpToolServer, SchemaError } from '@mcpkit/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  assertWire,
  get,
  handlerFor,
  type Loose,
  MODERN,
  makeServer,
  messagesOf,
  modernRequest,
  post,
  readEvents,
} from './harness';

const call = (name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  modernRequest('tools/call', { name, arguments: args, ...extra });

describe('2026-07-28 over Streamable HTTP', () => {
  it('answers a request statelessly, without a session id, as JSON when nothing comes first (auto)', async () => {
    const { handler } = handlerFor({ responseMode: 'auto' });
    const body = call('echo', { text: 'hi' });
    const response = await handler.handle(post(body, { 'mcp-session-id': 'ignored' }));
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(response.headers.get('content-type')).toBe('application/json');
    const message = await response.json();
    expect(message.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'hi' }] });
    assertWire(MODERN, [message]);
    expect(handler.sessionCount).toBe(0);
  });

  it('streams progress then the response (SSE), and passes the wire schema', async () => {
    const { handler } = handlerFor();
    const body = call('progress', { steps: 2 });
    (body.params._meta as Loose).progressToken = 'tok';
    const response = await handler.handle(post(body));
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const { events } = await readEvents(response);
    // No priming event and no ids: 2026-07-28 has no resumability.
    expect(events.every((event) => event.id === undefined && event.data !== '')).toBe(true);
    const messages = messagesOf(events);
    expect(messages.map((m: Loose) => m.method ?? 'response')).toEqual([
      'notifications/progress',
      'notifications/progress',
      'response',
    ]);
    assertWire(MODERN, messages);
  });

  it('GET and DELETE are 405 with Allow: POST', async () => {
    const { handler } = handlerFor();
    for (const method of ['GET', 'DELETE']) {
      const response = await handler.handle(get({ 'mcp-protocol-version': MODERN }, method));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('a modern-only server answers GET with 405 even without a version header', async () => {
    const { McpServer } = await import('@mcpkit/server');
    const { createStreamableHttpHandler } = await import('../../src/index');
    const server = new McpServer({ name: 'm', version: '1' }, { protocolVersions: ['2026-07-28'] });
    const handler = createStreamableHttpHandler(server);
    const response = await handler.handle(get());
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('unknown method → 404 with a -32601 body', async () => {
    const { handler } = handlerFor();
    const response = await handler.handle(post(modernRequest('no/such-method')));
    expect(response.status).toBe(404);
    const body = await response.json();
    expect(body.error.code).toBe(-32601);
    assertWire(MODERN, [body], 'ping');
  });

  it('envelope errors and unsupported versions → 400', async () => {
    const { handler } = handlerFor();
    const missingCaps = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } },
    };
    const response = await handler.handle(post(missingCaps));
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe(-32602);
    const future = modernRequest('tools/list');
    (future.params._meta as Loose)['io.modelcontextprotocol/protocolVersion'] = '2099-01-01';
    const unsupported = await handler.handle(post(future));
    expect(unsupported.status).toBe(400);
    expect((await unsupported.json()).error).toMatchObject({ code: -32022, data: { requested: '2099-01-01' } });
  });

  it('a notification is accepted with 202', async () => {
    const { handler } = handlerFor();
    const response = await handler.handle(
      post(
        { jsonrpc: '2.0', method: 'notifications/something' },
        { 'mcp-protocol-version': MODERN, 'mcp-method': 'notifications/something' },
      ),
    );
    expect(response.status).toBe(202);
  });

  it('refuses batches and client responses with 400', async () => {
    const { handler } = handlerFor();
    const batch = await handler.handle(post([modernRequest('tools/list')], { 'mcp-protocol-version': MODERN }));
    expect(batch.status).toBe(400);
    const reply = await handler.handle(post({ jsonrpc: '2.0', id: 5, result: {} }, { 'mcp-protocol-version': MODERN }));
    expect(reply.status).toBe(400);
  });

  it('closing the response stream cancels the request: the handler signal aborts and nothing more is sent', async () => {
    const { handler, aborted, gates } = handlerFor();
    const body = call('wait', { key: 'cancel-me' });
    (body.params._meta as Loose).progressToken = 1;
    const response = await handler.handle(post(body));
    const { events, reader } = await readEvents(response, { until: () => true });
    expect(messagesOf(events)[0].method).toBe('notifications/progress');
    await reader.cancel();
    for (let i = 0; i < 50 && !aborted.includes('cancel-me'); i++) await new Promise((r) => setTimeout(r, 5));
    expect(aborted).toContain('cancel-me');
    gates.get('cancel-me')?.();
  });

  it('an aborted HTTP request (JSON mode) cancels the request too', async () => {
    const { handler, aborted } = handlerFor({ responseMode: 'json' });
    const controller = new AbortController();
    const pending = handler.handle(post(call('quiet-wait', { key: 'abort-me' }), {}, { signal: controller.signal }));
    for (let i = 0; i < 50 && !handlerFor.length; i++) await new Promise((r) => setTimeout(r, 1));
    await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const response = await pending;
    expect(response.status).toBe(499);
    expect(aborted).toContain('abort-me');
  });
});

describe('2026-07-28 header validation (-32020)', () => {
  async function expectMismatch(response: Response, header: RegExp) {
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.error.code).toBe(-32020);
    expect(body.error.message).toMatch(/^Header mismatch: /);
    expect(body.error.message).toMatch(header);
    assertWire(MODERN, [body]);
  }

  it('requires Mcp-Method and MCP-Protocol-Version, matching the body', async () => {
    const { handler } = handlerFor();
    const body = modernRequest('tools/list');
    await expectMismatch(await handler.handle(post(body, { 'mcp-method': 'prompts/list' })), /Mcp-Method/);
    const noMethod = post(body);
    noMethod.headers.delete('mcp-method');
    await expectMismatch(await handler.handle(noMethod), /Mcp-Method/);
    await expectMismatch(
      await handler.handle(post(body, { 'mcp-protocol-version': '2025-11-25' })),
      /MCP-Protocol-Version/,
    );
  });

  it('checks Mcp-Name against params.name, with the base64 sentinel', async () => {
    const { handler } = handlerFor();
    await expectMismatch(await handler.handle(post(call('echo', { text: 'x' }), { 'mcp-name': 'other' })), /Mcp-Name/);
    const ok = await handler.handle(post(call('echo', { text: 'x' }), { 'mcp-name': '=?base64?ZWNobw==?=' }));
    expect(ok.status).toBe(200);
    await expectMismatch(
      await handler.handle(post(call('echo', { text: 'x' }), { 'mcp-name': '=?base64?ZWNobw=?=' })),
      /invalid characters/,
    );
  });

  it('checks Mcp-Param-* from the tool x-mcp-header declarations (integers numerically, base64, missing)', async () => {
    const { handler } = handlerFor();
    const args = { region: 'Hello, 世界', days: 42, detailed: true };
    const good = {
      'mcp-param-region': encodeHeaderValue('Hello, 世界'),
      'mcp-param-days': '42.0',
      'mcp-param-detailed': 'true',
    };
    const ok = await handler.handle(post(call('weather', args), good));
    expect(ok.status).toBe(200);
    const result = messagesOf((await readEvents(ok)).events)[0];
    expect(JSON.parse(result.result.content[0].text)).toEqual(args);
    await expectMismatch(
      await handler.handle(post(call('weather', args), { ...good, 'mcp-param-days': '43' })),
      /Mcp-Param-Days/,
    );
    const { 'mcp-param-region': _omit, ...withoutRegion } = good;
    await expectMismatch(await handler.handle(post(call('weather', args), withoutRegion)), /Mcp-Param-Region.*missing/);
    await expectMismatch(
      await handler.handle(post(call('weather', { days: 1 }), { 'mcp-param-days': '1', 'mcp-param-region': 'x' })),
      /no matching value/,
    );
    await expectMismatch(
      await handler.handle(post(call('weather', args), { ...good, 'mcp-param-detailed': 'false' })),
      /Detailed/,
    );
    // Undeclared Mcp-Param-* headers are ignored.
    const extra = await handler.handle(post(call('weather', args), { ...good, 'mcp-param-unknown': 'x' }));
    expect(extra.status).toBe(200);
  });

  it('follows tool changes (declarations re-read when the list changes)', async () => {
    const { handler, server } = handlerFor();
    const tool = server.registerTool(
      'late',
      { inputSchema: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } } },
      () => ({ content: [] }),
    );
    await expectMismatch(await handler.handle(post(call('late', { zone: 'a' }))), /Mcp-Param-Zone/);
    tool.update({ inputSchema: { type: 'object', properties: { zone: { type: 'string' } } } });
    const ok = await handler.handle(post(call('late', { zone: 'a' })));
    expect(ok.status).toBe(200);
  });
});

describe('x-mcp-header declarations of a server that does not check them at registration (McpToolServer)', () => {
  it('reports an invalid one once to onError and serves the call without header checks', async () => {
    const errors: Error[] = [];
    const server = new McpToolServer({ name: 'lean', version: '1' }, { onError: (error) => errors.push(error) });
    // number is not a type x-mcp-header may declare: McpServer refuses this at registration.
    server.registerTool('bad', { inputSchema: { n: z.number().meta({ 'x-mcp-header': 'N' }) } }, ({ n }) => ({
      content: [{ type: 'text', text: String(n) }],
    }));
    const { createStreamableHttpHandler } = await import('../../src/index');
    const handler = createStreamableHttpHandler(server, { responseMode: 'json' });
    for (const n of [1, 2]) {
      const response = await handler.handle(post(call('bad', { n })));
      expect((await response.json()).result.content).toEqual([{ type: 'text', text: String(n) }]);
    }
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(SchemaError);
    expect(errors[0]!.message).toMatch(/Tool "bad": invalid x-mcp-header declaration: .*clients drop this tool/);
  });
});

describe('a server from another copy of @mcpkit/server', () => {
  it('is served by its shape, not instanceof (two copies of the package loaded: a bundled transport and the app)', async () => {
    const { server } = makeServer();
    // What a second copy's McpServer looks like from here: same shape, another class.
    const foreign = Object.assign(Object.create(null), { server: server.server }) as unknown as McpServer;
    expect(foreign instanceof McpServer).toBe(false);
    const { createStreamableHttpHandler } = await import('../../src/index');
    const handler = createStreamableHttpHandler(foreign, { responseMode: 'json' });
    const response = await handler.handle(post(call('echo', { text: 'copy' })));
    const message = await response.json();
    expect(message.result).toMatchObject({ content: [{ type: 'text', text: 'copy' }] });
  });
});
