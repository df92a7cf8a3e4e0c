import { JsonRpcError, type JsonRpcPeer } from '@mcpkit/jsonrpc-core';
import { CapabilityError, type ServerCapabilities, type Tool } from '@mcpkit/protocol';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { McpClientError } from '../src/index';
import { cacheable, complete, harness, legacyServer, MODERN, metaOf, modernServer } from './helpers/harness';

type Era = 'legacy' | 'modern';

const WEATHER: Tool = {
  name: 'weather',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  outputSchema: {
    type: 'object',
    properties: { celsius: { type: 'number' } },
    required: ['celsius'],
    additionalProperties: false,
  },
};
const ECHO: Tool = { name: 'echo', inputSchema: { type: 'object' } };
const EVERYTHING: ServerCapabilities = {
  tools: {},
  resources: { subscribe: true },
  prompts: {},
  completions: {},
  logging: {},
};

function everythingServer(era: Era, capabilities: ServerCapabilities = EVERYTHING, tools: Tool[] = [WEATHER, ECHO]) {
  const list = <T extends object>(result: T) => (era === 'modern' ? cacheable(result) : result);
  const done = <T extends object>(result: T) => (era === 'modern' ? complete(result) : result);
  return (peer: JsonRpcPeer) => {
    if (era === 'modern') modernServer(peer, capabilities);
    else legacyServer(peer, capabilities);
    peer.setRequestHandler('tools/list', () => list({ tools }));
    peer.setRequestHandler('tools/call', (params) => {
      const { name, arguments: args } = params as { name: string; arguments?: { city?: string } };
      if (name === 'weather') {
        return done({ content: [{ type: 'text', text: `${args?.city}: 21` }], structuredContent: { celsius: 21 } });
      }
      return done({ content: [{ type: 'text', text: JSON.stringify(args) }] });
    });
    peer.setRequestHandler('resources/list', () => list({ resources: [{ uri: 'file:///a.txt', name: 'a.txt' }] }));
    peer.setRequestHandler('resources/templates/list', () =>
      list({ resourceTemplates: [{ uriTemplate: 'file:///{path}', name: 'files' }] }),
    );
    peer.setRequestHandler('resources/read', (params) => {
      const { uri } = params as { uri: string };
      return list({ contents: [{ uri, text: `contents of ${uri}` }] });
    });
    peer.setRequestHandler('prompts/list', () => list({ prompts: [{ name: 'greet', arguments: [{ name: 'who' }] }] }));
    peer.setRequestHandler('prompts/get', (params) => {
      const { arguments: args } = params as { arguments?: { who?: string } };
      return done({ messages: [{ role: 'user', content: { type: 'text', text: `Hello ${args?.who}` } }] });
    });
    peer.setRequestHandler('completion/complete', () => done({ completion: { values: ['Paris', 'Parma'] } }));
    peer.setRequestHandler('logging/setLevel', () => ({}));
    peer.setRequestHandler('ping', () => ({}));
  };
}

describe.each(['legacy', 'modern'] as const)('typed methods (%s)', (era) => {
  it('every request method works and carries the envelope only in 2026-07-28', async () => {
    const h = await harness({ server: everythingServer(era), connect: { era } });
    expect(h.client.era).toBe(era);
    expect((await h.client.listTools()).tools.map((tool) => tool.name)).toEqual(['weather', 'echo']);
    const called = await h.client.callTool({ name: 'weather', arguments: { city: 'Paris' } });
    expect(called.structuredContent).toEqual({ celsius: 21 });
    expect((await h.client.listResources()).resources[0]!.uri).toBe('file:///a.txt');
    expect((await h.client.listResourceTemplates()).resourceTemplates[0]!.uriTemplate).toBe('file:///{path}');
    const read = await h.client.readResource({ uri: 'file:///a.txt' });
    expect(read.contents[0]).toEqual({ uri: 'file:///a.txt', text: 'contents of file:///a.txt' });
    expect((await h.client.listPrompts()).prompts[0]!.name).toBe('greet');
    const prompt = await h.client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
    expect(prompt.messages[0]!.content).toEqual({ type: 'text', text: 'Hello Ada' });
    const completion = await h.client.complete({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'who', value: 'Pa' },
      context: { arguments: {} },
    });
    expect(completion.completion.values).toEqual(['Paris', 'Parma']);
    if (era === 'legacy') await h.client.ping();
    else expect((await h.client.discover()).supportedVersions).toEqual([MODERN]);

    const requests = h.requests().slice(era === 'legacy' ? 1 : 0);
    for (const request of requests) {
      const meta = metaOf(request);
      if (era === 'modern') {
        expect(meta, request.method).toMatchObject({
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'test-client', version: '0.1.0' },
        });
      } else {
        expect(JSON.stringify(request.params ?? {}), request.method).not.toContain('io.modelcontextprotocol/');
      }
    }
    await h.client.close();
    h.checked.assertClean();
  });

  it('walks every page of each list and keeps the last complete list', async () => {
    const pages = [['a', 'b'], ['c'], ['d']];
    const h = await harness({
      server: (peer) => {
        everythingServer(era)(peer);
        peer.setRequestHandler('tools/list', (params) => {
          const cursor = (params as { cursor?: string } | undefined)?.cursor;
          const index = cursor === undefined ? 0 : Number(cursor);
          const tools = pages[index]!.map((name) => ({ name, inputSchema: { type: 'object' } }));
          const result = index + 1 < pages.length ? { tools, nextCursor: String(index + 1) } : { tools };
          return era === 'modern' ? cacheable(result) : result;
        });
        peer.setRequestHandler('prompts/list', (params) => {
          const cursor = (params as { cursor?: string } | undefined)?.cursor;
          const result = cursor ? { prompts: [{ name: 'two' }] } : { prompts: [{ name: 'one' }], nextCursor: 'p2' };
          return era === 'modern' ? cacheable(result) : result;
        });
      },
      connect: { era },
    });
    const tools = await h.client.listAllTools();
    expect(tools.map((tool) => tool.name)).toEqual(['a', 'b', 'c', 'd']);
    expect(h.client.lists.tools?.map((tool) => tool.name)).toEqual(['a', 'b', 'c', 'd']);
    expect(h.requests('tools/list').map((request) => (request.params as { cursor?: string }).cursor)).toEqual([
      undefined,
      '1',
      '2',
    ]);
    expect((await h.client.listAllPrompts()).map((prompt) => prompt.name)).toEqual(['one', 'two']);
    expect((await h.client.listAllResources()).map((resource) => resource.uri)).toEqual(['file:///a.txt']);
    expect((await h.client.listAllResourceTemplates()).map((template) => template.name)).toEqual(['files']);
    await h.client.close();
    h.checked.assertClean();
  });

  it('stops a walk on a repeated cursor', async () => {
    const h = await harness({
      server: (peer) => {
        everythingServer(era)(peer);
        peer.setRequestHandler('resources/list', () => {
          const result = { resources: [], nextCursor: 'same' };
          return era === 'modern' ? cacheable(result) : result;
        });
      },
      connect: { era },
    });
    const error = await h.client.listAllResources().catch((e: unknown) => e);
    expect(McpClientError.is(error) && error.code).toBe('ERR_PAGINATION');
    expect(h.requests('resources/list')).toHaveLength(2);
    await h.client.close();
  });

  it('refuses calls the server did not declare, unless enforcement is off', async () => {
    const h = await harness({ server: everythingServer(era, { tools: {} }), connect: { era } });
    const before = h.sent.length;
    const refused = await h.client.listPrompts().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CapabilityError);
    expect((refused as CapabilityError).code).toBe('ERR_MISSING_CAPABILITY');
    expect((refused as CapabilityError).data.missing).toEqual([{ side: 'server', path: ['prompts'] }]);
    await expect(h.client.readResource({ uri: 'file:///a.txt' })).rejects.toBeInstanceOf(CapabilityError);
    await expect(
      h.client.complete({ ref: { type: 'ref/prompt', name: 'x' }, argument: { name: 'a', value: '' } }),
    ).rejects.toBeInstanceOf(CapabilityError);
    expect(h.sent.length).toBe(before);
    await h.client.close();

    const lax = await harness({
      server: (peer) => {
        everythingServer(era, { tools: {} })(peer);
        peer.removeRequestHandler('prompts/list');
      },
      connect: { era },
      client: { enforceServerCapabilities: false },
    });
    const answered = await lax.client.listPrompts().catch((e: unknown) => e);
    expect(JsonRpcError.is(answered) && answered.code).toBe(-32601);
    expect(lax.requests('prompts/list')).toHaveLength(1);
    await lax.client.close();
  });
});

describe('era-specific methods', () => {
  it('legacy: setLoggingLevel sends logging/setLevel; ping works; discover is refused', async () => {
    const h = await harness({ server: everythingServer('legacy') });
    await h.client.setLoggingLevel('warning');
    expect(h.requests('logging/setLevel')[0]!.params).toEqual({ level: 'warning' });
    await h.client.ping();
    const error = await h.client.discover().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CapabilityError);
    expect((error as CapabilityError).code).toBe('ERR_METHOD_NOT_AVAILABLE');
    await h.client.close();
    h.checked.assertClean();
  });

  it('modern: discover() updates the server capabilities and instructions from a fresh answer', async () => {
    let capabilities: ServerCapabilities = { tools: {} };
    const h = await harness({
      server: (peer) => {
        peer.setRequestHandler('server/discover', () =>
          cacheable({ supportedVersions: [MODERN], capabilities, instructions: `caps: ${Object.keys(capabilities)}` }),
        );
      },
    });
    expect(h.client.serverCapabilities).toEqual({ tools: {} });
    capabilities = { tools: {}, prompts: { listChanged: true } };
    const result = await h.client.discover();
    expect(result.capabilities).toEqual(capabilities);
    expect(h.client.serverCapabilities).toEqual(capabilities);
    expect(h.client.instructions).toBe('caps: tools,prompts');
    await h.client.close();
  });

  it('modern: setLoggingLevel sets the envelope logLevel of later requests (per-call logLevel wins); ping is refused', async () => {
    const h = await harness({ server: everythingServer('modern') });
    await h.client.setLoggingLevel('error');
    expect(h.requests('logging/setLevel')).toEqual([]);
    await h.client.listTools();
    await h.client.callTool({ name: 'echo', arguments: {} }, { logLevel: 'debug' });
    expect(metaOf(h.requests('tools/list')[0]!)?.['io.modelcontextprotocol/logLevel']).toBe('error');
    expect(metaOf(h.requests('tools/call')[0]!)?.['io.modelcontextprotocol/logLevel']).toBe('debug');
    const error = await h.client.ping().catch((e: unknown) => e);
    expect((error as CapabilityError).code).toBe('ERR_METHOD_NOT_AVAILABLE');
    await h.client.close();
    h.checked.assertClean();
  });

  it('2024-11-05: completion/complete needs no capability', async () => {
    const h = await harness({
      server: (peer) => {
        everythingServer('legacy', { prompts: {} })(peer);
        legacyServer(peer, { prompts: {} }, '2024-11-05');
      },
      connect: { protocolVersion: '2024-11-05' },
    });
    expect(h.client.protocolVersion).toBe('2024-11-05');
    const result = await h.client.complete({
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'who', value: 'P' },
    });
    expect(result.completion.values).toHaveLength(2);
    await h.client.close();
  });

  it('modern: a -32022 on a later request is not retried with the version the server just refused', async () => {
    // The client knows one 2026-era version; a switch needs a second one, so the error surfaces after one attempt.
    const h = await harness({
      server: (peer) => {
        everythingServer('modern')(peer);
        peer.setRequestHandler('tools/list', () => {
          throw new JsonRpcError(-32022, 'Unsupported protocol version', { supported: [MODERN], requested: MODERN });
        });
      },
    });
    const error = await h.client.listTools().catch((e: unknown) => e);
    expect(JsonRpcError.is(error) && error.code).toBe(-32022);
    expect(h.requests('tools/list')).toHaveLength(1);
    await h.client.close();
  });
});

describe('callTool and outputSchema', () => {
  function server(structuredContent: unknown, extra: object = {}, outputSchema: object = WEATHER.outputSchema!) {
    return (peer: JsonRpcPeer) => {
      everythingServer('modern', EVERYTHING, [{ ...WEATHER, outputSchema } as Tool, ECHO])(peer);
      peer.setRequestHandler('tools/call', () =>
        complete({
          content: [{ type: 'text', text: 'x' }],
          ...(structuredContent === undefined ? {} : { structuredContent }),
          ...extra,
        }),
      );
    };
  }

  it('accepts structuredContent that matches the last listed outputSchema', async () => {
    const h = await harness({ server: server({ celsius: 3 }) });
    await h.client.listTools();
    await expect(h.client.callTool({ name: 'weather', arguments: { city: 'Oslo' } })).resolves.toMatchObject({
      structuredContent: { celsius: 3 },
    });
    await h.client.close();
  });

  it('rejects structuredContent that does not match, with every issue', async () => {
    const h = await harness({ server: server({ celsius: 'warm', wind: 3 }) });
    await h.client.listTools();
    const error = await h.client.callTool({ name: 'weather', arguments: { city: 'Oslo' } }).catch((e: unknown) => e);
    expect(McpClientError.is(error) && error.code).toBe('ERR_INVALID_STRUCTURED_CONTENT');
    const issues = (error as McpClientError).data.issues as Array<{ instanceLocation: string; keyword: string }>;
    expect(issues.some((issue) => issue.instanceLocation === '#/celsius' && issue.keyword === 'type')).toBe(true);
    expect(issues.some((issue) => issue.keyword === 'additionalProperties')).toBe(true);
    await h.client.close();
  });

  it('rejects a missing structuredContent, skips the check when isError, and when the tool was never listed', async () => {
    const missing = await harness({ server: server(undefined) });
    await missing.client.listTools();
    const error = await missing.client.callTool({ name: 'weather', arguments: {} }).catch((e: unknown) => e);
    expect(McpClientError.is(error) && error.code).toBe('ERR_INVALID_STRUCTURED_CONTENT');
    await missing.client.close();

    const failed = await harness({ server: server(undefined, { isError: true }) });
    await failed.client.listTools();
    await expect(failed.client.callTool({ name: 'weather', arguments: {} })).resolves.toMatchObject({ isError: true });
    await failed.client.close();

    const unlisted = await harness({ server: server({ celsius: 'warm' }) });
    await expect(unlisted.client.callTool({ name: 'weather', arguments: {} })).resolves.toBeDefined();
    await unlisted.client.close();
  });

  it('uses the dialect $schema names (draft-07) and schemas made by zod', async () => {
    const draft7 = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { celsius: { type: 'number', maximum: 60 } },
      required: ['celsius'],
    };
    const h = await harness({ server: server({ celsius: 99 }, {}, draft7) });
    await h.client.listTools();
    const error = await h.client.callTool({ name: 'weather', arguments: {} }).catch((e: unknown) => e);
    expect(McpClientError.is(error) && error.code).toBe('ERR_INVALID_STRUCTURED_CONTENT');
    await h.client.close();

    const fromZod = z.toJSONSchema(z.object({ celsius: z.number().int() })) as object;
    const zodServer = await harness({ server: server({ celsius: 1.5 }, {}, fromZod) });
    await zodServer.client.listTools();
    const zodError = await zodServer.client.callTool({ name: 'weather', arguments: {} }).catch((e: unknown) => e);
    expect(McpClientError.is(zodError) && zodError.code).toBe('ERR_INVALID_STRUCTURED_CONTENT');
    await zodServer.client.close();
  });

  it('reports an outputSchema with an unresolvable $ref (never fetched)', async () => {
    const h = await harness({ server: server({ celsius: 1 }, {}, { $ref: 'https://example.com/schema.json' }) });
    await h.client.listTools();
    const error = await h.client.callTool({ name: 'weather', arguments: {} }).catch((e: unknown) => e);
    expect(McpClientError.is(error) && error.code).toBe('ERR_INVALID_OUTPUT_SCHEMA');
    await h.client.close();
  });
});

describe('x-mcp-header', () => {
  it('drops tools with invalid declarations from listTools, warning once per tool', async () => {
    const bad: Tool = {
      name: 'bad_header',
      inputSchema: { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } },
    };
    const good: Tool = {
      name: 'deploy',
      inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
    };
    const onWarning = vi.fn();
    const h = await harness({
      server: everythingServer('modern', EVERYTHING, [bad, good]),
      client: { onWarning },
    });
    expect((await h.client.listTools()).tools.map((tool) => tool.name)).toEqual(['deploy']);
    expect((await h.client.listAllTools()).map((tool) => tool.name)).toEqual(['deploy']);
    expect(onWarning).toHaveBeenCalledTimes(1);
    expect(onWarning.mock.calls[0]![0]).toContain('bad_header');
    expect(onWarning.mock.calls[0]![1]).toMatchObject({ tool: 'bad_header' });
    await h.client.close();
  });
});

describe('resultType', () => {
  function server(era: Era, result: object, method = 'tools/list') {
    return (peer: JsonRpcPeer) => {
      everythingServer(era)(peer);
      peer.setRequestHandler(method, () => result);
    };
  }

  it('an absent resultType is complete', async () => {
    const h = await harness({ server: server('modern', { tools: [], ttlMs: 0, cacheScope: 'public' }) });
    await expect(h.client.listTools()).resolves.toMatchObject({ tools: [] });
    await h.client.close();
  });

  it('an unknown resultType is invalid', async () => {
    const h = await harness({ server: server('modern', { resultType: 'task', content: [] }, 'tools/call') });
    const error = await h.client.callTool({ name: 'echo' }).catch((e: unknown) => e);
    expect(McpClientError.is(error) && error.code).toBe('ERR_INVALID_RESULT');
    expect((error as McpClientError).data.resultType).toBe('task');
    await h.client.close();
  });

  it('input_required is invalid on methods that may not return it, and in the legacy era', async () => {
    const h = await harness({
      server: server('modern', { resultType: 'input_required', requestState: 's' }, 'tools/list'),
    });
    const error = await h.client.listTools().catch((e: unknown) => e);
    expect(McpClientError.is(error) && error.code).toBe('ERR_INVALID_RESULT');
    await h.client.close();

    const legacy = await harness({
      server: server('legacy', { resultType: 'input_required', requestState: 's' }, 'tools/call'),
    });
    const legacyError = await legacy.client.callTool({ name: 'echo' }).catch((e: unknown) => e);
    expect(McpClientError.is(legacyError) && legacyError.code).toBe('ERR_INVALID_RESULT');
    await legacy.client.close();
  });
});
