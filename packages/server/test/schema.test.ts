import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { compileSchema, type InferJsonSchema, McpServer, SchemaError } from '../src/index';
import { canonicalJson, InMemoryNonceStore } from '../src/input/request-state';
import type { SchemaCheck } from '../src/schema/schema';

describe('compileSchema', () => {
  it('validates JSON Schema and reports paths', () => {
    const compiled = compileSchema({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }, 'input');
    expect(compiled.validate({ n: 1 })).toEqual({ ok: true, value: { n: 1 } });
    const bad = compiled.validate({ n: 'x' }) as SchemaCheck;
    expect(bad.ok).toBe(false);
    expect((bad as { issues: { path: string }[] }).issues.some((issue) => issue.path === '/n')).toBe(true);
  });

  it('rejects a Standard Schema that cannot describe itself as JSON Schema', () => {
    const opaque = { '~standard': { version: 1, vendor: 'opaque', validate: (value: unknown) => ({ value }) } };
    expect(() => compileSchema(opaque as never, 'input')).toThrow(SchemaError);
  });

  it('handles asynchronous Standard Schema validation', async () => {
    const schema = z.object({ n: z.number() }).refine(async (value) => value.n > 0, 'positive');
    const compiled = compileSchema(schema, 'input');
    const result = await compiled.validate({ n: -1 });
    expect(result.ok).toBe(false);
  });
});

describe('compileSchema of a shape (an object of Standard Schemas)', () => {
  const shape = { text: z.string(), count: z.number().optional(), tags: z.array(z.string()).optional() };

  it('keeps the declared properties it was given, drops the others, and leaves absent optional ones out', () => {
    const compiled = compileSchema(shape, 'input');
    expect(compiled.validate({ text: 'a', extra: 1 })).toEqual({ ok: true, value: { text: 'a' } });
    const value = (compiled.validate({ text: 'a', count: 2 }) as { value: object }).value;
    expect(value).toEqual({ text: 'a', count: 2 });
    expect(Object.keys(value)).toEqual(['text', 'count']);
  });

  it('reports every issue of every property with its path, and a non-object at the root', () => {
    const compiled = compileSchema(shape, 'input');
    expect(compiled.validate({ text: 1, tags: ['x', 2] })).toEqual({
      ok: false,
      issues: [
        { path: '/text', message: expect.any(String) },
        { path: '/tags/1', message: expect.any(String) },
      ],
    });
    expect(compiled.validate([])).toEqual({ ok: false, issues: [{ path: '', message: 'Expected an object' }] });
  });

  it('waits for asynchronous property validators, with their values and issues', async () => {
    const compiled = compileSchema({ text: z.string(), n: z.number().refine(async (n) => n > 0, 'positive') }, 'input');
    const good = compiled.validate({ text: 'a', n: 1 });
    expect(good).toBeInstanceOf(Promise);
    expect(await good).toEqual({ ok: true, value: { text: 'a', n: 1 } });
    expect(await compiled.validate({ text: 2, n: -1 })).toEqual({
      ok: false,
      issues: [
        { path: '/text', message: expect.any(String) },
        { path: '/n', message: 'positive' },
      ],
    });
  });
});

describe('typed handler arguments', () => {
  it('infers from JSON Schema as const and from Standard Schema', () => {
    const schema = {
      type: 'object',
      properties: {
        city: { type: 'string' },
        days: { type: 'integer' },
        unit: { enum: ['c', 'f'] },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['city'],
    } as const;
    expectTypeOf<InferJsonSchema<typeof schema>>().toEqualTypeOf<{
      city: string;
      days?: number;
      unit?: 'c' | 'f';
      tags?: string[];
    }>();
    const server = new McpServer({ name: 's', version: '1' });
    server.registerTool('a', { inputSchema: schema }, (args) => {
      expectTypeOf(args.city).toEqualTypeOf<string>();
      return { content: [] };
    });
    server.registerTool('b', { inputSchema: z.object({ n: z.string().transform((text) => text.length) }) }, (args) => {
      expectTypeOf(args.n).toEqualTypeOf<number>();
      return { content: [] };
    });
  });
});

describe('request-state helpers', () => {
  it('canonicalJson sorts keys at every depth and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('InMemoryNonceStore accepts each nonce once and stays bounded', () => {
    const store = new InMemoryNonceStore({ maxEntries: 3 });
    const later = Date.now() + 60_000;
    expect(store.consume('a', later)).toBe(true);
    expect(store.consume('a', later)).toBe(false);
    store.consume('b', Date.now() - 1); // already expired: dropped first when full
    store.consume('c', later);
    store.consume('d', later);
    expect(store.size).toBeLessThanOrEqual(3);
    expect(store.consume('a', later)).toBe(false);
  });
});
