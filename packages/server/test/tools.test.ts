import * as toJsonSchema from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { McpServer, RegistrationError, SchemaError } from '../src/index';
import { closeHarnesses, connect, initialize, type Loose, modern, rpcError } from './harness';

afterEach(closeHarnesses);

const echo = (args: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(args) }] });

function libraries() {
  return {
    zod: z.object({ city: z.string(), days: z.number().int().min(1).optional() }),
    valibot: toJsonSchema.toStandardJsonSchema(
      v.object({ city: v.string(), days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))) }),
    ),
    arktype: type({ city: 'string', 'days?': 'number.integer >= 1' }),
  };
}

describe('tools with Standard Schema', () => {
  for (const [vendor, schema] of Object.entries(libraries())) {
    it(`${vendor}: advertises its JSON Schema, validates, and passes typed args`, async () => {
      const server = new McpServer({ name: 's', version: '1' });
      const calls: unknown[] = [];
      server.registerTool('weather', { inputSchema: schema }, (args, _ctx) => {
        calls.push(args);
        return echo(args);
      });
      const harness = await connect(server);
      const list = await harness.client.request<Loose>('tools/list', modern());
      expect(list.tools[0].inputSchema).toMatchObject({
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
      });
      const ok = await harness.client.request<Loose>(
        'tools/call',
        modern({ name: 'weather', arguments: { city: 'Paris', days: 2 } }),
      );
      expect(ok.isError).toBeUndefined();
      expect(calls).toEqual([{ city: 'Paris', days: 2 }]);
      const bad = await harness.client.request<Loose>(
        'tools/call',
        modern({ name: 'weather', arguments: { city: 3, days: 0 } }),
      );
      expect(bad.isError).toBe(true);
      expect(bad.resultType).toBe('complete');
      expect(bad.content[0].text).toMatch(/^Invalid arguments for tool weather:/);
      expect(bad.content[0].text).toMatch(/city/);
      expect(calls).toHaveLength(1); // the handler never saw the bad call
    });
  }

  it('zod transforms reach the handler (the validated output, not the raw input)', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    let seen: unknown;
    server.registerTool('t', { inputSchema: z.object({ n: z.string().transform((text) => text.length) }) }, (args) => {
      seen = args.n;
      return { content: [] };
    });
    const harness = await connect(server);
    await harness.client.request('tools/call', modern({ name: 't', arguments: { n: 'abcd' } }));
    expect(seen).toBe(4);
  });
});

describe('tools with plain JSON Schema', () => {
  it('2020-12 with $defs and additionalProperties reaches the wire untouched and is enforced', async () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] },
      },
      properties: { from: { $ref: '#/$defs/point' }, to: { $ref: '#/$defs/point' } },
      required: ['from', 'to'],
      additionalProperties: false,
    } as const;
    const server = new McpServer({ name: 's', version: '1' });
    type Point = { x: number; y: number };
    server.registerTool('distance', { inputSchema: schema }, (args) => {
      // $ref targets are not followed by InferJsonSchema: they type as unknown.
      const from = args.from as Point;
      const to = args.to as Point;
      return { content: [{ type: 'text', text: String(Math.hypot(to.x - from.x, to.y - from.y)) }] };
    });
    const harness = await connect(server);
    const list = await harness.client.request<Loose>('tools/list', modern());
    expect(list.tools[0].inputSchema).toEqual(schema);
    const ok = await harness.client.request<Loose>(
      'tools/call',
      modern({ name: 'distance', arguments: { from: { x: 0, y: 0 }, to: { x: 3, y: 4 } } }),
    );
    expect(ok.content[0].text).toBe('5');
    const extra = await harness.client.request<Loose>(
      'tools/call',
      modern({ name: 'distance', arguments: { from: { x: 0, y: 0 }, to: { x: 3, y: 4 }, z: 1 } }),
    );
    expect(extra.isError).toBe(true);
    const badRef = await harness.client.request<Loose>(
      'tools/call',
      modern({ name: 'distance', arguments: { from: { x: 0 }, to: { x: 3, y: 4 } } }),
    );
    expect(badRef.isError).toBe(true);
    expect(badRef.content[0].text).toContain('/from');
  });

  it('draft-07 (definitions) is validated as draft-07', async () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      definitions: { tag: { type: 'string', minLength: 2 } },
      properties: { tags: { type: 'array', items: { $ref: '#/definitions/tag' } } },
      additionalProperties: false,
    } as const;
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('tag', { inputSchema: schema }, (args) => echo(args));
    const harness = await connect(server);
    expect((await harness.client.request<Loose>('tools/list', modern())).tools[0].inputSchema).toEqual(schema);
    expect(
      (await harness.client.request<Loose>('tools/call', modern({ name: 'tag', arguments: { tags: ['ab'] } }))).isError,
    ).toBeUndefined();
    expect(
      (await harness.client.request<Loose>('tools/call', modern({ name: 'tag', arguments: { tags: ['a'] } }))).isError,
    ).toBe(true);
  });

  it('rejects unusable schemas at registration', () => {
    const server = new McpServer({ name: 's', version: '1' });
    expect(() =>
      server.registerTool(
        'x',
        { inputSchema: { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } } },
        () => ({ content: [] }),
      ),
    ).toThrow(SchemaError);
    expect(() => server.registerTool('y', { inputSchema: { type: 'string' } }, () => ({ content: [] }))).toThrow(
      /object/,
    );
    expect(() =>
      server.registerTool('z', { inputSchema: { $schema: 'https://example.com/dialect', type: 'object' } }, () => ({
        content: [],
      })),
    ).toThrow(/dialect/);
  });

  it('refuses invalid x-mcp-header declarations and keeps valid ones on the wire', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    expect(() =>
      server.registerTool(
        'bad',
        { inputSchema: { type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } } },
        () => ({
          content: [],
        }),
      ),
    ).toThrow(/x-mcp-header/);
    const schema = { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } };
    server.registerTool('deploy', { inputSchema: schema }, () => ({ content: [] }));
    const harness = await connect(server);
    expect((await harness.client.request<Loose>('tools/list', modern())).tools[0].inputSchema).toEqual(schema);
  });

  it('does not modify the schema object it was given', () => {
    const schema = { type: 'object', properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: { type: 'string' } } };
    const before = JSON.stringify(schema);
    const descriptors = Object.getOwnPropertyNames(schema.properties.a);
    new McpServer({ name: 's', version: '1' }).registerTool('t', { inputSchema: schema }, () => ({ content: [] }));
    expect(JSON.stringify(schema)).toBe(before);
    expect(Object.getOwnPropertyNames(schema.properties.a)).toEqual(descriptors);
  });
});

describe('tool names (SEP-986)', () => {
  it('throws on invalid names and warns once on risky ones', () => {
    const server = new McpServer({ name: 's', version: '1' });
    expect(() => server.registerTool('get user', {}, () => ({ content: [] }))).toThrow(RegistrationError);
    expect(() => server.registerTool('', {}, () => ({ content: [] }))).toThrow(RegistrationError);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      server.registerTool('-risky', {}, () => ({ content: [] }));
      server.registerTool('ok.name', {}, () => ({ content: [] }));
      new McpServer({ name: 's2', version: '1' }).registerTool('-risky', {}, () => ({ content: [] }));
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toContain('-risky');
    } finally {
      warn.mockRestore();
    }
    expect(() => server.registerTool('ok.name', {}, () => ({ content: [] }))).toThrow(/already registered/);
  });
});

describe('tool results', () => {
  it('enforces outputSchema on structuredContent, skipped when isError', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    let mode = 'good';
    server.registerTool('measure', { outputSchema: z.object({ celsius: z.number() }) }, () => {
      if (mode === 'good') return { content: [{ type: 'text', text: '21' }], structuredContent: { celsius: 21 } };
      if (mode === 'bad') return { content: [], structuredContent: { celsius: 'warm' } };
      if (mode === 'missing') return { content: [] };
      return { isError: true, content: [{ type: 'text', text: 'sensor offline' }] };
    });
    const harness = await connect(server);
    const list = await harness.client.request<Loose>('tools/list', modern());
    expect(list.tools[0].outputSchema).toMatchObject({ type: 'object', properties: { celsius: { type: 'number' } } });
    expect((await harness.client.request<Loose>('tools/call', modern({ name: 'measure' }))).structuredContent).toEqual({
      celsius: 21,
    });
    mode = 'bad';
    const bad = await rpcError(harness.client.request('tools/call', modern({ name: 'measure' })));
    expect(bad.code).toBe(-32603);
    expect(bad.message).toContain('outputSchema');
    mode = 'missing';
    const missing = await rpcError(harness.client.request('tools/call', modern({ name: 'measure' })));
    expect(missing.code).toBe(-32603);
    expect(missing.message).toContain('no structuredContent');
    mode = 'error';
    expect((await harness.client.request<Loose>('tools/call', modern({ name: 'measure' }))).isError).toBe(true);
  });

  it('passes every content type through', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    const content = [
      { type: 'text', text: 'hi', annotations: { audience: ['user'], priority: 0.5 } },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
      { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', mimeType: 'text/plain' },
      { type: 'resource', resource: { uri: 'file:///b.txt', text: 'b', mimeType: 'text/plain' } },
      { type: 'resource', resource: { uri: 'file:///c.bin', blob: 'AAEC', mimeType: 'application/octet-stream' } },
    ] as const;
    server.registerTool('all', {}, () => ({ content: [...content] as never }));
    const harness = await connect(server);
    expect((await harness.client.request<Loose>('tools/call', modern({ name: 'all' }))).content).toEqual(content);
  });

  it('turns handler exceptions into isError results; unknown tools are -32602', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('boom', {}, () => {
      throw new Error('disk full');
    });
    const harness = await connect(server);
    await initialize(harness.client, '2025-11-25');
    const result = await harness.client.request<Loose>('tools/call', { name: 'boom' });
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'disk full' }] });
    const unknown = await rpcError(harness.client.request('tools/call', { name: 'nope' }));
    expect(unknown.code).toBe(-32602);
  });
});
