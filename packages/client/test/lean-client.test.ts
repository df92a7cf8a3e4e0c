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
} from '../src/index';
import { CLIENT_INFO, cacheable, complete, legacyServer, modernServer } from './helpers/harness';

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
