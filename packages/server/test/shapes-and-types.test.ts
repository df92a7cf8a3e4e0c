// A raw shape of Standard Schemas is accepted like the object it stands for; handler arguments and template variables
// are typed from what was written (type-level assertions are checked by `tsc`, runtime ones by vitest).
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { type ArgsOf, McpServer, ResourceTemplate, type TemplateVariables } from '../src/index';
import { closeHarnesses, connect, type Loose, modern } from './harness';

afterEach(closeHarnesses);

const text = (value: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(value) }] });

describe('a raw shape ({ city: z.string() })', () => {
  it('is advertised as an object schema, validated per property, and the handler gets the declared keys only', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    const calls: unknown[] = [];
    server.registerTool(
      'forecast',
      { inputSchema: { city: z.string(), days: z.number().int().default(1), note: z.string().optional() } },
      (args) => {
        expectTypeOf(args).toEqualTypeOf<{ city: string; days: number; note?: string | undefined }>();
        calls.push(args);
        return text(args);
      },
    );
    const harness = await connect(server);
    const list = await harness.client.request<Loose>('tools/list', modern());
    expect(list.tools[0].inputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        city: { type: 'string' },
        days: { type: 'integer', default: 1, minimum: expect.any(Number), maximum: expect.any(Number) },
        note: { type: 'string' },
      },
      required: ['city'],
    });
    const good = await harness.client.request<Loose>(
      'tools/call',
      modern({ name: 'forecast', arguments: { city: 'Paris', extra: true } }),
    );
    expect(good.isError).toBeUndefined();
    expect(calls).toEqual([{ city: 'Paris', days: 1 }]);
    const bad = await harness.client.request<Loose>(
      'tools/call',
      modern({ name: 'forecast', arguments: { city: 3, days: 'x' } }),
    );
    expect(bad.isError).toBe(true);
    expect(bad.content[0].text).toMatch(/^Invalid arguments for tool forecast:\n\/city: .+\n\/days: .+$/);
  });

  it('works as an outputSchema and a prompt argsSchema', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('out', { outputSchema: { n: z.number() } }, () => ({
      content: [],
      structuredContent: { n: 'x' },
    }));
    server.registerPrompt('p', { argsSchema: { topic: z.string(), tone: z.string().optional() } }, ({ topic }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: topic } }],
    }));
    const harness = await connect(server);
    const prompts = await harness.client.request<Loose>('prompts/list', modern());
    expect(prompts.prompts[0].arguments).toEqual([
      { name: 'topic', required: true },
      { name: 'tone', required: false },
    ]);
    const out = await harness.client.request<Loose>('tools/call', modern({ name: 'out' })).catch((error) => error);
    expect(out.code).toBe(-32603);
    expect(out.message).toContain('/n:');
  });

  it('a property that cannot describe itself is named', () => {
    const server = new McpServer({ name: 's', version: '1' });
    const opaque = { '~standard': { version: 1, vendor: 'acme', validate: (value: unknown) => ({ value }) } } as const;
    expect(() => server.registerTool('t', { inputSchema: { city: opaque } }, () => text(1))).toThrow(
      /^Tool "t" inputSchema: property "city": This acme schema cannot describe itself as JSON Schema/,
    );
  });

  it('an empty object is not a shape: a tool input must still be an object schema, and the error says what to write', () => {
    const server = new McpServer({ name: 's', version: '1' });
    expect(() => server.registerTool('t', { inputSchema: { type: 'string' } }, () => text(1))).toThrow(
      /Tool "t": inputSchema must describe an object \(root "type": "object"; got "string"\)\. Write \{ type: 'object', properties: \{ … \} \}, z\.object\(\{ … \}\), or a shape of schemas such as \{ city: z\.string\(\) \}\./,
    );
  });
});

describe('handler argument types', () => {
  it('an inline JSON Schema is read without `as const`', () => {
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool(
      'add',
      {
        inputSchema: {
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' }, unit: { enum: ['m', 'km'] } },
          required: ['a', 'b'],
        },
      },
      (args) => {
        expectTypeOf(args).toEqualTypeOf<{ a: number; b: number; unit?: 'm' | 'km' }>();
        return text(args.a + args.b);
      },
    );
  });

  it('a JSON Schema held in a widened variable falls back to a usable object', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    expectTypeOf<ArgsOf<typeof schema>>().toEqualTypeOf<{ city?: unknown }>();
    const opaque: Record<string, unknown> = schema;
    expectTypeOf<ArgsOf<typeof opaque>>().toEqualTypeOf<Record<string, unknown>>();
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('w', { inputSchema: opaque }, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
      return text(String(args.city));
    });
    expectTypeOf<ArgsOf<undefined>>().toEqualTypeOf<Record<string, never>>();
  });

  it('z.object and a zod shape give the same arguments', () => {
    expectTypeOf<ArgsOf<ReturnType<typeof z.object<{ city: z.ZodString }>>>>().toEqualTypeOf<{ city: string }>();
    expectTypeOf<ArgsOf<{ city: z.ZodString }>>().toEqualTypeOf<{ city: string }>();
  });
});

describe('template variables are typed from the URI template', () => {
  it('{name} → string, exploded → string[], operator expressions optional', () => {
    expectTypeOf<TemplateVariables<'users://{id}/posts{?limit,tag*}'>>().toEqualTypeOf<{
      id: string;
      limit?: string;
      tag?: string[];
    }>();
    expectTypeOf<TemplateVariables<'files://{+path}{#frag}{/seg*}{x:3}'>>().toEqualTypeOf<{
      path: string;
      x: string;
      frag?: string;
      seg?: string[];
    }>();
    expectTypeOf<TemplateVariables<string>>().toEqualTypeOf<Record<string, string | string[]>>();
  });

  it('reaches the handler and the completers, and an empty {name} segment is ""', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    const seen: unknown[] = [];
    server.registerResource(
      'user',
      new ResourceTemplate('users://{id}/profile{?fields*}', {
        complete: { id: (value) => ['ada', 'alan'].filter((id) => id.startsWith(value)) },
      }),
      {},
      (uri, variables) => {
        expectTypeOf(variables).toEqualTypeOf<{ id: string; fields?: string[] }>();
        seen.push(variables);
        return { contents: [{ uri, text: variables.id.toUpperCase() }] };
      },
    );
    // @ts-expect-error: `name` is not a variable of the template
    new ResourceTemplate('users://{id}', { complete: { name: () => [] } });
    const harness = await connect(server);
    const read = await harness.client.request<Loose>(
      'resources/read',
      modern({ uri: 'users://ada/profile?fields=a&fields=b' }),
    );
    expect(read.contents[0].text).toBe('ADA');
    await harness.client.request<Loose>('resources/read', modern({ uri: 'users:///profile' }));
    expect(seen).toEqual([{ id: 'ada', fields: ['a', 'b'] }, { id: '' }]);
  });
});
