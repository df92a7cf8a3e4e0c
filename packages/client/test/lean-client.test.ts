import { createLinkedTransports, JsonRpcPeer } from '@mcpkit/jsonrpc-core';
import { mcpPeerHooks, type Tool } from '@mcpkit/protocol';
import { describe, expect, it, vi } from 'vitest';
import {
  Client,
  type ClientOptions,
  type JsonSchemaValidator,
  jsonSchemaValidator,
  LeanClient,
  McpClientError,
  ResponseCache,
} from '../src/index';
import { CLIENT_INFO, cacheable, complete, legacyServer, modernServer, until } from './helpers/harness';

const WEATHER: Tool = {
  name: 'weather',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
};
const ECHO: Tool = { name: 'echo', inputSchema: { type: 'object' } };

/** A fake server in `era` whose `weather` tool answers `structuredContent`; `echo` has no outputSchema. */
async function connected(
  era: 'legacy' | 'modern',
  structuredContent: unknown,
  make: (options: ClientOptions) => LeanClient,
  options: ClientOptions = {},
) {
  const [clientSide, serverSide] = createLinkedTransports();
  const server = new JsonRpcPeer({ hooks: mcpPeerHooks });
  if (era === 'modern') modernServer(server, { tools: {} });
  else legacyServer(server, { tools: {} });
  const wrap = <T extends object>(result: T) => (era === 'modern' ? complete(result) : result);
  server.setRequestHandler('tools/list', () =>
    era === 'modern' ? cacheable({ tools: [WEATHER, ECHO] }) : { tools: [WEATHER, ECHO] },
  );
  server.setRequestHandler('tools/call', (params) =>
    (params as { name: string }).name === 'weather'
      ? wrap({ content: [{ type: 'text', text: 'x' }], structuredContent })
      : wrap({ content: [{ type: 'text', text: 'echo' }] }),
  );
  await server.connect(serverSide);
  const client = make(options);
  await client.connect(clientSide);
  return client;
}

describe.each(['legacy', 'modern'] as const)('LeanClient (%s)', (era) => {
  it('calls tools without an outputSchema as Client does', async () => {
    const client = await connected(era, { celsius: 1 }, (options) => new LeanClient(CLIENT_INFO, options));
    await client.listTools();
    await expect(client.callTool({ name: 'echo', arguments: {} })).resolves.toMatchObject({
      content: [{ type: 'text', text: 'echo' }],
    });
    await client.close();
  });

  it('refuses a result it must check against an outputSchema when it has no validator (never skips the check)', async () => {
    const client = await connected(era, { celsius: 1 }, (options) => new LeanClient(CLIENT_INFO, options));
    // Not listed yet: only a caller-given outputSchema asks for the check, and it needs the validator too.
    await expect(client.callTool({ name: 'weather', arguments: {} })).resolves.toBeDefined();
    const given = await client
      .callTool({ name: 'weather', arguments: {} }, { outputSchema: { type: 'object' } })
      .catch((e: unknown) => e);
    expect(McpClientError.is(given) && given.code).toBe('ERR_NO_JSON_SCHEMA_VALIDATOR');
    await client.listTools();
    const error = await client.callTool({ name: 'weather', arguments: {} }).catch((e: unknown) => e);
    expect(McpClientError.is(error) && error.code).toBe('ERR_NO_JSON_SCHEMA_VALIDATOR');
    expect((error as McpClientError).data).toMatchObject({ tool: 'weather' });
    await client.close();
  });

  it('checks structuredContent with jsonSchemaValidator when given it', async () => {
    const client = await connected(era, { celsius: 'warm' }, (options) => new LeanClient(CLIENT_INFO, options), {
      jsonSchema: jsonSchemaValidator,
    });
    await client.listTools();
    const error = await client.callTool({ name: 'weather', arguments: {} }).catch((e: unknown) => e);
    expect(McpClientError.is(error) && error.code).toBe('ERR_INVALID_STRUCTURED_CONTENT');
    const issues = (error as McpClientError).data.issues as Array<{ instanceLocation: string; keyword: string }>;
    expect(issues).toContainEqual(expect.objectContaining({ instanceLocation: '#/celsius', keyword: 'type' }));
    await client.close();
  });
});

/** A fake server in `era` with `server` in reach, for the tests that drive it after connecting. */
async function pair(era: 'legacy' | 'modern', client: LeanClient, setup: (server: JsonRpcPeer) => void) {
  const [clientSide, serverSide] = createLinkedTransports();
  const server = new JsonRpcPeer({ hooks: mcpPeerHooks });
  if (era === 'modern') modernServer(server, { tools: { listChanged: true } });
  else legacyServer(server, { tools: { listChanged: true } });
  setup(server);
  await server.connect(serverSide);
  await client.connect(clientSide);
  return server;
}

describe('LeanClient: what it leaves to Client', () => {
  it('has no subscribe and no kept lists', () => {
    const lean = new LeanClient(CLIENT_INFO);
    expect('subscribe' in lean).toBe(false);
    expect('lists' in lean).toBe(false);
    const full = new Client(CLIENT_INFO);
    expect(typeof full.subscribe).toBe('function');
    expect(full.lists).toEqual({});
  });

  it('caches nothing unless given a ResponseCache, which list_changed then invalidates', async () => {
    let listed = 0;
    const cacheableTools = (server: JsonRpcPeer) =>
      server.setRequestHandler('tools/list', () => {
        listed++;
        return cacheable({ tools: [ECHO] }, 60_000);
      });
    const uncached = new LeanClient(CLIENT_INFO);
    await pair('modern', uncached, cacheableTools);
    await uncached.listTools();
    await uncached.listTools();
    expect(listed).toBe(2);
    await uncached.close();

    listed = 0;
    let logged = 0;
    const cached = new LeanClient(CLIENT_INFO, { cache: new ResponseCache(), onLogMessage: () => logged++ });
    const server = await pair('modern', cached, cacheableTools);
    await cached.listTools();
    await cached.listTools();
    expect(listed).toBe(1);
    await server.notify('notifications/tools/list_changed');
    // Notifications are handled in order: once the log entry arrived, the list change was handled.
    await server.notify('notifications/message', { level: 'info', data: 'changed' });
    await until(() => logged === 1, 'the log entry');
    await cached.listTools();
    expect(listed).toBe(2);
    await cached.close();
  });
});

describe.each(['legacy', 'modern'] as const)('LeanClient keeps what a minimal client needs (%s)', (era) => {
  it('walks every page with listAllTools and checks results against the listed outputSchema', async () => {
    const client = new LeanClient(CLIENT_INFO);
    const wrap = <T extends object>(result: T) => (era === 'modern' ? complete(result) : result);
    await pair(era, client, (server) => {
      server.setRequestHandler('tools/list', (params) =>
        (params as { cursor?: string } | undefined)?.cursor === 'page-2'
          ? wrap({ tools: [ECHO] })
          : wrap({ tools: [WEATHER], nextCursor: 'page-2' }),
      );
      server.setRequestHandler('tools/call', () => wrap({ content: [], structuredContent: { celsius: 1 } }));
    });
    expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(['weather', 'echo']);
    const error = await client.callTool({ name: 'weather', arguments: {} }).catch((e: unknown) => e);
    expect(McpClientError.is(error) && error.code).toBe('ERR_NO_JSON_SCHEMA_VALIDATOR');
    await client.close();
  });

  it('answers the input requests it declares with its handlers', async () => {
    const elicitation = vi.fn(async () => ({ action: 'accept' as const, content: { city: 'Paris' } }));
    const client = new LeanClient(CLIENT_INFO, { handlers: { elicitation } });
    const ask = { message: 'Which city?', requestedSchema: { type: 'object' as const, properties: {} } };
    const server = await pair(era, client, (peer) => {
      peer.setRequestHandler('tools/call', (params) => {
        const answers = (params as { inputResponses?: Record<string, unknown> }).inputResponses;
        return answers === undefined
          ? { resultType: 'input_required', inputRequests: { city: { method: 'elicitation/create', params: ask } } }
          : complete({ content: [{ type: 'text', text: JSON.stringify(answers.city) }] });
      });
    });
    if (era === 'legacy') {
      await expect(server.request('elicitation/create', ask)).resolves.toEqual({
        action: 'accept',
        content: { city: 'Paris' },
      });
      await expect(server.request('sampling/createMessage', { messages: [], maxTokens: 1 })).rejects.toMatchObject({
        code: -32601,
      });
    } else {
      const result = await client.callTool({ name: 'weather', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: '{"action":"accept","content":{"city":"Paris"}}' }]);
    }
    expect(elicitation).toHaveBeenCalledTimes(1);
    await client.close();
  });
});

describe('Client and its jsonSchema option', () => {
  it('validates with jsonSchemaValidator by default', async () => {
    const client = await connected('modern', { celsius: 'warm' }, (options) => new Client(CLIENT_INFO, options));
    expect(client).toBeInstanceOf(LeanClient);
    await client.listTools();
    const error = await client.callTool({ name: 'weather', arguments: {} }).catch((e: unknown) => e);
    expect(McpClientError.is(error) && error.code).toBe('ERR_INVALID_STRUCTURED_CONTENT');
    await client.close();
  });

  it('uses the validator it is given: its issues fail the call, its throw is ERR_INVALID_OUTPUT_SCHEMA', async () => {
    const validator = vi.fn<JsonSchemaValidator>(() => [{ instanceLocation: '#', keyword: 'custom', error: 'no' }]);
    const client = await connected('legacy', { celsius: 1 }, (options) => new Client(CLIENT_INFO, options), {
      jsonSchema: validator,
    });
    await client.listTools();
    const error = await client.callTool({ name: 'weather', arguments: {} }).catch((e: unknown) => e);
    expect(McpClientError.is(error) && error.code).toBe('ERR_INVALID_STRUCTURED_CONTENT');
    expect((error as McpClientError).data.issues).toEqual([{ instanceLocation: '#', keyword: 'custom', error: 'no' }]);
    expect(validator).toHaveBeenCalledWith(WEATHER.outputSchema, { celsius: 1 });

    validator.mockImplementation(() => {
      throw new Error('cannot read this schema');
    });
    const thrown = await client.callTool({ name: 'weather', arguments: {} }).catch((e: unknown) => e);
    expect(McpClientError.is(thrown) && thrown.code).toBe('ERR_INVALID_OUTPUT_SCHEMA');
    await client.close();
  });
});
