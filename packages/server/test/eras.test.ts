import { createLinkedTransports, JsonRpcPeer } from '@mcpkit/jsonrpc-core';
import { mcpPeerHooks } from '@mcpkit/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer, type Server } from '../src/index';
import {
  closeHarnesses,
  connect,
  dropClientViolations,
  initialize,
  LEGACY_VERSIONS,
  type Loose,
  MODERN,
  modern,
  rpcError,
} from './harness';

function weather(): McpServer {
  const server = new McpServer({ name: 'weather', version: '1.2.0' }, { instructions: 'Ask about the weather.' });
  server.registerTool('forecast', { description: 'Forecast' }, () => ({ content: [{ type: 'text', text: 'Sunny' }] }));
  server.registerResource('readme', 'file:///README.md', { mimeType: 'text/markdown' }, (uri) => ({
    contents: [{ uri, text: '# Weather' }],
  }));
  return server;
}

afterEach(closeHarnesses);

describe('legacy era: initialize', () => {
  for (const version of LEGACY_VERSIONS) {
    it(`negotiates ${version} and serves it`, async () => {
      const server = weather();
      const harness = await connect(server);
      const result = await initialize(harness.client, version, { roots: {} });
      expect(result.protocolVersion).toBe(version);
      expect(result.serverInfo).toEqual({ name: 'weather', version: '1.2.0' });
      expect(result.instructions).toBe('Ask about the weather.');
      expect(result.capabilities).toMatchObject({ tools: { listChanged: true }, resources: { subscribe: true } });
      expect(result).not.toHaveProperty('resultType');
      expect(harness.session.era).toBe('legacy');
      expect(harness.session.protocolVersion).toBe(version);
      expect(harness.session.clientCapabilities).toEqual({ roots: {} });
      const list = await harness.client.request<Record<string, unknown>>('tools/list', {});
      expect(list).toEqual({
        tools: [{ name: 'forecast', description: 'Forecast', inputSchema: { type: 'object', properties: {} } }],
      });
      expect(await harness.client.request('ping')).toEqual({});
    });
  }

  it('answers an unknown version with the latest legacy one', async () => {
    const harness = await connect(weather(), { revision: '2025-11-25' });
    const result = await initialize(harness.client, '2099-01-01');
    expect(result.protocolVersion).toBe('2025-11-25');
  });

  it('answers an older unsupported version with the newest it supports', async () => {
    const server = new McpServer({ name: 's', version: '1' }, { protocolVersions: ['2025-06-18', '2026-07-28'] });
    const harness = await connect(server, { revision: '2025-06-18' });
    expect((await initialize(harness.client, '2024-11-05')).protocolVersion).toBe('2025-06-18');
  });

  it('rejects methods absent from the negotiated revision with -32601', async () => {
    const harness = await connect(weather());
    await initialize(harness.client, '2025-06-18');
    const discover = await rpcError(harness.client.request('server/discover', modern()));
    expect(discover.code).toBe(-32601);
    const listen = await rpcError(harness.client.request('subscriptions/listen', { notifications: {} }));
    expect(listen.code).toBe(-32601);
    // A client cannot send server→client requests.
    const sampling = await rpcError(harness.client.request('sampling/createMessage', { messages: [], maxTokens: 1 }));
    expect(sampling.code).toBe(-32601);
    dropClientViolations(harness); // those requests do not exist in 2025-06-18: the checker flags what we sent
  });

  it('rejects methods whose capability the server did not declare with -32601', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('t', {}, () => ({ content: [] }));
    const harness = await connect(server);
    await initialize(harness.client, '2025-11-25');
    const error = await rpcError(harness.client.request('prompts/list', {}));
    expect(error.code).toBe(-32601);
    expect(error.data).toMatchObject({ method: 'prompts/list' });
  });

  it('a modern-only server answers initialize with -32022 listing what it supports', async () => {
    const server = new McpServer({ name: 's', version: '1' }, { protocolVersions: [MODERN] });
    const harness = await connect(server, { revision: '2025-11-25' });
    const error = await rpcError(
      harness.client.request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      }),
    );
    expect(error.code).toBe(-32022);
    expect(error.data).toEqual({ supported: [MODERN], requested: '2025-11-25' });
  });

  it('requests before initialize without an envelope get -32602 (modern-capable server)', async () => {
    const harness = await connect(weather());
    const error = await rpcError(harness.client.request('tools/list', {}));
    expect(error.code).toBe(-32602);
    expect(error.data.missing).toContain('io.modelcontextprotocol/protocolVersion');
    dropClientViolations(harness); // a request without the envelope is invalid on the 2026 wire by design
  });
});

describe('modern era: the envelope', () => {
  it('completes results with resultType, serverInfo and cache hints', async () => {
    const server = weather();
    const harness = await connect(server);
    const discover = await harness.client.request<Loose>('server/discover', modern());
    expect(discover.resultType).toBe('complete');
    expect(discover.supportedVersions).toEqual([MODERN, '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);
    expect(discover.capabilities).toMatchObject({ tools: { listChanged: true }, logging: {} });
    expect(discover.instructions).toBe('Ask about the weather.');
    expect(discover.ttlMs).toBe(0);
    expect(discover.cacheScope).toBe('private');
    expect(discover._meta['io.modelcontextprotocol/serverInfo']).toEqual({ name: 'weather', version: '1.2.0' });
    const list = await harness.client.request<Loose>('tools/list', modern());
    expect(list).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    const call = await harness.client.request<Loose>('tools/call', modern({ name: 'forecast' }));
    expect(call.resultType).toBe('complete');
    expect(call).not.toHaveProperty('ttlMs');
    expect(call._meta['io.modelcontextprotocol/serverInfo'].name).toBe('weather');
    expect(harness.session.era).toBe('modern');
  });

  it('uses configured cache hints, per server and per resource', async () => {
    const server = new McpServer(
      { name: 's', version: '1' },
      {
        cacheHints: {
          'tools/list': { ttlMs: 60_000, cacheScope: 'public' },
          default: { ttlMs: 5, cacheScope: 'private' },
        },
      },
    );
    server.registerTool('t', {}, () => ({ content: [] }));
    server.registerResource('a', 'mem://a', { cache: { ttlMs: 30_000, cacheScope: 'public' } }, (uri) => ({
      contents: [{ uri, text: 'a' }],
    }));
    server.registerResource('b', 'mem://b', {}, (uri) => ({ contents: [{ uri, text: 'b' }] }));
    const harness = await connect(server);
    expect(await harness.client.request('tools/list', modern())).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
    expect(await harness.client.request('resources/list', modern())).toMatchObject({ ttlMs: 5, cacheScope: 'private' });
    expect(await harness.client.request('resources/read', modern({ uri: 'mem://a' }))).toMatchObject({
      ttlMs: 30_000,
      cacheScope: 'public',
    });
    expect(await harness.client.request('resources/read', modern({ uri: 'mem://b' }))).toMatchObject({
      ttlMs: 5,
      cacheScope: 'private',
    });
    // A legacy result carries no hint, the resource's own included.
    const legacy = await connect(server);
    await initialize(legacy.client, '2025-11-25');
    expect(await legacy.client.request('resources/read', { uri: 'mem://a' })).toEqual({
      contents: [{ uri: 'mem://a', text: 'a' }],
    });
  });

  it('missing envelope keys → -32602 naming them', async () => {
    const harness = await connect(weather(), { fixEra: false });
    const error = await rpcError(
      harness.client.request('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } }),
    );
    expect(error.code).toBe(-32602);
    expect(error.data).toEqual({ missing: ['io.modelcontextprotocol/clientCapabilities'], invalid: [] });
    dropClientViolations(harness); // the request itself breaks the 2026 schema, on purpose
  });

  it('an unsupported version → -32022 with {supported, requested}', async () => {
    const harness = await connect(weather(), { revision: MODERN });
    const error = await rpcError(harness.client.request('tools/list', modern({}, {}, { version: '2030-01-01' })));
    expect(error.code).toBe(-32022);
    expect(error.data).toEqual({
      supported: [MODERN, '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
      requested: '2030-01-01',
    });
    // A legacy version in the envelope is not a modern version either.
    const legacy = await rpcError(harness.client.request('tools/list', modern({}, {}, { version: '2025-11-25' })));
    expect(legacy.code).toBe(-32022);
    expect(harness.session.era).toBeUndefined();
  });

  it('methods absent from 2026-07-28 or ungated → -32601', async () => {
    const harness = await connect(weather());
    for (const method of ['ping', 'logging/setLevel', 'resources/subscribe', 'prompts/list', 'no/such-method']) {
      const error = await rpcError(harness.client.request(method, modern({ uri: 'file:///README.md', level: 'info' })));
      expect(error.code, method).toBe(-32601);
    }
    dropClientViolations(harness); // ping & co. are not 2026 requests: the checker flags the requests we sent
  });

  it('takes client capabilities from each request only', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    const seen: unknown[] = [];
    server.registerTool('caps', {}, (_args, ctx) => {
      seen.push(ctx.clientCapabilities);
      return { content: [] };
    });
    const harness = await connect(server);
    await harness.client.request('tools/call', modern({ name: 'caps' }, { elicitation: {} }));
    await harness.client.request('tools/call', modern({ name: 'caps' }, {}));
    expect(seen).toEqual([{ elicitation: {} }, {}]);
  });

  it('stdio-like connections fix the era on the first request', async () => {
    const harness = await connect(weather());
    await harness.client.request('tools/list', modern());
    const error = await rpcError(
      harness.client.request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      }),
    );
    expect(error.code).toBe(-32601);
    expect((error.data as { reason: string }).reason).toMatch(/which has no initialize; the era is fixed by the first/);
    dropClientViolations(harness);
  });

  it('a server/discover probe does not fix the era: a client whose probe timed out can still initialize', async () => {
    const harness = await connect(weather());
    const discovered = await harness.client.request<Record<string, unknown>>('server/discover', modern());
    expect(discovered).toHaveProperty('supportedVersions');
    const result = await initialize(harness.client, '2025-11-25');
    expect(result.protocolVersion).toBe('2025-11-25');
    const list = await harness.client.request<Record<string, unknown>>('tools/list', {});
    expect(list).not.toHaveProperty('resultType');
  });

  it('a legacy connection ignores a later envelope (the era is fixed)', async () => {
    const harness = await connect(weather(), { revision: '2025-06-18' });
    await initialize(harness.client, '2025-06-18');
    const list = await harness.client.request<Record<string, unknown>>('tools/list', modern());
    expect(list).not.toHaveProperty('resultType');
  });

  it('with fixEra: false, one connection serves both eras', async () => {
    const harness = await connect(weather(), { fixEra: false });
    await initialize(harness.client, '2025-06-18');
    const legacy = await harness.client.request<Record<string, unknown>>('tools/list', {});
    expect(legacy).not.toHaveProperty('resultType');
    const modernList = await harness.client.request<Record<string, unknown>>('tools/list', modern());
    expect(modernList.resultType).toBe('complete');
  });
});

describe('Server.handle (no long-lived peer)', () => {
  it('runs one modern request and returns the response', async () => {
    const server = weather();
    const response = await server.handle({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: modern({ name: 'forecast' }),
    });
    expect(response).toMatchObject({
      id: 7,
      result: { resultType: 'complete', content: [{ type: 'text', text: 'Sunny' }] },
    });
    const error = await server.handle({ jsonrpc: '2.0', id: 8, method: 'tools/list', params: {} });
    expect(error).toMatchObject({ id: 8, error: { code: -32602 } });
  });

  it('returns nothing when the signal aborted', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    const controller = new AbortController();
    server.registerTool('slow', {}, async () => {
      controller.abort();
      return { content: [] };
    });
    const response = await server.handle(
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: modern({ name: 'slow' }) },
      { signal: controller.signal },
    );
    expect(response).toBeUndefined();
  });
});

describe('many sessions', () => {
  it('serves 50 sessions of mixed eras from one McpServer', async () => {
    const server = weather();
    const low: Server = server.server;
    const clients: JsonRpcPeer[] = [];
    for (let index = 0; index < 50; index++) {
      const [a, b] = createLinkedTransports();
      await server.connect(b);
      const client = new JsonRpcPeer({ hooks: mcpPeerHooks });
      await client.connect(a);
      clients.push(client);
    }
    expect(low.sessions.size).toBe(50);
    const results = await Promise.all(
      clients.map(async (client, index) => {
        if (index % 2 === 0) {
          await initialize(client, LEGACY_VERSIONS[index % 4]!);
          return client.request<Loose>('tools/call', { name: 'forecast' });
        }
        return client.request<Loose>('tools/call', modern({ name: 'forecast' }));
      }),
    );
    results.forEach((result, index) => {
      expect(result.content[0].text).toBe('Sunny');
      expect(result.resultType).toBe(index % 2 === 0 ? undefined : 'complete');
    });
    const eras = [...low.sessions].map((session) => session.era);
    expect(eras.filter((era) => era === 'legacy')).toHaveLength(25);
    expect(eras.filter((era) => era === 'modern')).toHaveLength(25);
    await Promise.all(clients.map((client) => client.close()));
    expect(low.sessions.size).toBe(0);
  });
});
