import { describe, expect, it } from 'vitest';
import {
  accepted,
  collect,
  INITIALIZE,
  initializeResult,
  json,
  MODERN_META,
  modernRequest,
  REQUEST_PATHS,
  scriptedFetch,
  transportOn,
} from './helpers';

describe.each(REQUEST_PATHS)('StreamableHttpClientTransport: request headers (%s)', (path) => {
  it('sends Accept, Content-Type and the caller headers (static and per request), never letting them override its own', async () => {
    let token = 0;
    const fetch = scriptedFetch((call) => json({ jsonrpc: '2.0', id: (call.body as { id: number }).id, result: {} }));
    const transport = await transportOn(path, fetch, {
      headers: async () => ({ Authorization: `Bearer t${++token}`, Accept: 'text/plain', 'X-App': 'demo' }),
    });
    collect(transport);
    await transport.start();
    await transport.send(modernRequest(1, 'tools/list'));
    await transport.send(modernRequest(2, 'tools/list'));
    const [first, second] = fetch.calls;
    expect(first?.headers.get('accept')).toBe('application/json, text/event-stream');
    expect(first?.headers.get('content-type')).toBe('application/json');
    expect(first?.headers.get('x-app')).toBe('demo');
    expect(first?.headers.get('authorization')).toBe('Bearer t1');
    expect(second?.headers.get('authorization')).toBe('Bearer t2');

    const fixed = await transportOn(path, fetch, { headers: { Authorization: 'Bearer fixed' } });
    collect(fixed);
    await fixed.start();
    await fixed.send(modernRequest(3, 'tools/list'));
    expect(fetch.calls[2]?.headers.get('authorization')).toBe('Bearer fixed');
  });

  it('legacy: captures Mcp-Session-Id at initialize, echoes it with the negotiated MCP-Protocol-Version', async () => {
    const fetch = scriptedFetch((call) => {
      const body = call.body as { id?: number; method?: string };
      if (body.method === 'initialize')
        return json(initializeResult(1, '2025-06-18'), { headers: { 'mcp-session-id': 'abc' } });
      if (body.id === undefined) return accepted();
      return json({ jsonrpc: '2.0', id: body.id, result: { tools: [] } });
    });
    const transport = await transportOn(path, fetch, { standaloneStream: false });
    const { messages } = collect(transport);
    await transport.start();
    await transport.send(INITIALIZE);
    expect(transport.sessionId).toBe('abc');
    expect(transport.protocolVersion).toBe('2025-06-18');
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });

    const [init, initialized, list] = fetch.calls;
    expect(init?.headers.get('mcp-session-id')).toBeNull();
    expect(init?.headers.get('mcp-protocol-version')).toBeNull();
    for (const call of [initialized, list]) {
      expect(call?.headers.get('mcp-session-id')).toBe('abc');
      expect(call?.headers.get('mcp-protocol-version')).toBe('2025-06-18');
      expect(call?.headers.get('mcp-method')).toBeNull();
    }
    expect(messages).toEqual([initializeResult(1, '2025-06-18'), { jsonrpc: '2.0', id: 2, result: { tools: [] } }]);
  });

  it('takes its era and version from the client (setProtocolVersion), not from what it sends', async () => {
    const fetch = scriptedFetch(() => accepted());
    const transport = await transportOn(path, fetch);
    collect(transport);
    await transport.start();
    expect(transport.protocolVersion).toBeUndefined();
    transport.setProtocolVersion('2026-07-28');
    expect(transport.protocolVersion).toBe('2026-07-28');
    // A notification names no version: the told era's headers go with it (the modern ones, no session).
    await transport.send({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 1 },
    });
    const sent = fetch.calls[0];
    expect(sent?.headers.get('mcp-protocol-version')).toBe('2026-07-28');
    expect(sent?.headers.get('mcp-method')).toBe('notifications/progress');
    expect(sent?.headers.get('mcp-session-id')).toBeNull();
    // close() asks no era: without a legacy session there is nothing to end (no DELETE).
    await transport.close();
    expect(fetch.calls.map((call) => call.method)).toEqual(['POST']);
  });

  it('2026-07-28: MCP-Protocol-Version from _meta, Mcp-Method and Mcp-Name (encoded), no session id', async () => {
    const fetch = scriptedFetch((call) =>
      json(
        { jsonrpc: '2.0', id: (call.body as { id: number }).id, result: { resultType: 'complete' } },
        {
          headers: { 'mcp-session-id': 'must-be-ignored' },
        },
      ),
    );
    const transport = await transportOn(path, fetch);
    collect(transport);
    await transport.start();
    await transport.send(modernRequest(1, 'server/discover'));
    await transport.send(modernRequest(2, 'tools/call', { name: 'get weather', arguments: {} }));
    await transport.send(modernRequest(3, 'resources/read', { uri: 'file:///a.txt' }));
    await transport.send(modernRequest(4, 'prompts/get', { name: 'Hello, 世界' }));
    const [discover, call, read, prompt] = fetch.calls;
    expect(discover?.headers.get('mcp-protocol-version')).toBe('2026-07-28');
    expect(discover?.headers.get('mcp-method')).toBe('server/discover');
    expect(discover?.headers.get('mcp-name')).toBeNull();
    expect(call?.headers.get('mcp-name')).toBe('get weather');
    expect(read?.headers.get('mcp-name')).toBe('file:///a.txt');
    expect(prompt?.headers.get('mcp-name')).toBe('=?base64?SGVsbG8sIOS4lueVjA==?=');
    expect(transport.sessionId).toBeUndefined();
    for (const recorded of fetch.calls) expect(recorded.headers.get('mcp-session-id')).toBeNull();
  });

  it('2026-07-28: learns x-mcp-header declarations from tools/list results and sends Mcp-Param-* on tools/call', async () => {
    const tools = [
      {
        name: 'deploy',
        inputSchema: {
          type: 'object',
          properties: {
            region: { type: 'string', 'x-mcp-header': 'Region' },
            replicas: { type: 'integer', 'x-mcp-header': 'Replicas' },
            dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
            target: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
          },
        },
      },
      // Invalid (number is not allowed): forgotten, its call carries no param headers.
      { name: 'bad', inputSchema: { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } } },
    ];
    const fetch = scriptedFetch((call) => {
      const body = call.body as { id: number; method: string };
      if (body.method === 'tools/list')
        return json({ jsonrpc: '2.0', id: body.id, result: { tools, resultType: 'complete' } });
      return json({ jsonrpc: '2.0', id: body.id, result: { content: [], resultType: 'complete' } });
    });
    const transport = await transportOn(path, fetch);
    collect(transport);
    await transport.start();
    await transport.send(modernRequest(1, 'tools/call', { name: 'deploy', arguments: { region: 'eu' } }));
    expect(fetch.calls[0]?.headers.get('mcp-param-region')).toBeNull(); // not listed yet

    await transport.send(modernRequest(2, 'tools/list'));
    await transport.send(
      modernRequest(3, 'tools/call', {
        name: 'deploy',
        arguments: { region: ' us west ', replicas: 3, dry: false, target: { zone: 'b' } },
      }),
    );
    await transport.send(modernRequest(4, 'tools/call', { name: 'deploy', arguments: { region: null } }));
    await transport.send(modernRequest(5, 'tools/call', { name: 'bad', arguments: { n: 1 } }));
    const withParams = fetch.calls[2]!.headers;
    expect(withParams.get('mcp-param-region')).toBe('=?base64?IHVzIHdlc3Qg?=');
    expect(withParams.get('mcp-param-replicas')).toBe('3');
    expect(withParams.get('mcp-param-dry-run')).toBe('false');
    expect(withParams.get('mcp-param-zone')).toBe('b');
    const nullValue = fetch.calls[3]!.headers;
    expect([...nullValue.keys()].filter((name) => name.startsWith('mcp-param-'))).toEqual([]);
    expect([...fetch.calls[4]!.headers.keys()].filter((name) => name.startsWith('mcp-param-'))).toEqual([]);
  });

  it('2026-07-28: on 400 -32020 about a param header, re-lists tools with the same envelope and retries once', async () => {
    let listed = 0;
    const fetch = scriptedFetch((call) => {
      const body = call.body as unknown as { id: number | string; method: string; params: { _meta: unknown } };
      if (body.method === 'tools/list') {
        listed++;
        return json({
          jsonrpc: '2.0',
          id: body.id,
          result: {
            resultType: 'complete',
            tools: [
              {
                name: 'deploy',
                inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
              },
            ],
          },
        });
      }
      if (call.headers.get('mcp-param-region') === null) {
        return json(
          {
            jsonrpc: '2.0',
            id: body.id,
            error: { code: -32020, message: 'Header mismatch: required header Mcp-Param-Region is missing' },
          },
          { status: 400 },
        );
      }
      return json({ jsonrpc: '2.0', id: body.id, result: { resultType: 'complete', content: [] } });
    });
    const transport = await transportOn(path, fetch);
    const { messages } = collect(transport);
    await transport.start();
    const meta = {
      ...MODERN_META,
      progressToken: 7,
      'io.modelcontextprotocol/clientInfo': { name: 'c', version: '1' },
    };
    await transport.send({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'deploy', arguments: { region: 'eu' }, _meta: meta },
    });
    expect(fetch.calls.map((call) => (call.body as { method: string }).method)).toEqual([
      'tools/call',
      'tools/list',
      'tools/call',
    ]);
    const relist = fetch.calls[1]!;
    const { progressToken: _dropped, ...envelope } = meta;
    expect((relist.body as { params: unknown }).params).toEqual({ _meta: envelope });
    expect(relist.headers.get('mcp-method')).toBe('tools/list');
    expect(fetch.calls[2]!.headers.get('mcp-param-region')).toBe('eu');
    expect(listed).toBe(1);
    // The transport's own tools/list result is not delivered; the retried call's result is.
    expect(messages).toEqual([{ jsonrpc: '2.0', id: 9, result: { resultType: 'complete', content: [] } }]);
  });

  it('2026-07-28: retries only once, then delivers the -32020; a -32020 about another header is delivered at once', async () => {
    const mismatch = (id: unknown, message: string) =>
      json({ jsonrpc: '2.0', id, error: { code: -32020, message } }, { status: 400 });
    const fetch = scriptedFetch((call) => {
      const body = call.body as { id: number; method: string; params: { name?: string } };
      if (body.method === 'tools/list')
        return json({ jsonrpc: '2.0', id: body.id, result: { resultType: 'complete', tools: [] } });
      return body.params.name === 'x'
        ? mismatch(body.id, 'Header mismatch: Mcp-Param-A header value 1 does not match body value 2')
        : mismatch(body.id, "Header mismatch: Mcp-Name header value 'a' does not match body value 'b'");
    });
    const transport = await transportOn(path, fetch);
    const { messages } = collect(transport);
    await transport.start();
    await transport.send(modernRequest(1, 'tools/call', { name: 'x', arguments: {} }));
    expect(fetch.calls.map((call) => (call.body as { method: string }).method)).toEqual([
      'tools/call',
      'tools/list',
      'tools/call',
    ]);
    expect(messages).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32020, message: 'Header mismatch: Mcp-Param-A header value 1 does not match body value 2' },
      },
    ]);
    await transport.send(modernRequest(2, 'tools/call', { name: 'y', arguments: {} }));
    expect(fetch.calls).toHaveLength(4);
    expect((messages[1] as { error: { code: number } }).error.code).toBe(-32020);
  });
});
