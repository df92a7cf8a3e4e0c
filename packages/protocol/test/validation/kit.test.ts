import { describe, expect, it } from 'vitest';
import { VALID, type ValidationIssue } from '../../src/validation/issues.js';
import {
  array,
  boolean,
  enumOf,
  extend,
  integer,
  literal,
  number,
  object,
  omit,
  optional,
  record,
  string,
  unknown,
  type Validator,
} from '../../src/validation/kit.js';
import { allOf, choose, nullable, refine, reject, union, validate } from '../../src/validation/kit-combinators.js';

function issuesOf(validator: Validator, value: unknown): ValidationIssue[] {
  const result = validate(validator, value);
  return result.ok ? [] : [...result.issues];
}

const Text = object({ type: literal('text'), text: string() }, { name: 'TextContent' });
const Image = object({ type: literal('image'), data: string(), mimeType: string() }, { name: 'ImageContent' });
const Content = union([Text, Image], { name: 'ContentBlock' });
const Message = object({
  jsonrpc: literal('2.0'),
  id: union([string(), integer()], { name: 'string | integer' }),
  params: object({
    _meta: optional(record(unknown())),
    content: array(Content),
    'io.example/level': optional(enumOf(['low', 'high'])),
  }),
});

describe('validate', () => {
  it('returns the shared frozen success object for a valid value', () => {
    const value = { jsonrpc: '2.0', id: 1, params: { content: [{ type: 'text', text: 'hi' }] } };
    const result = validate(Message, value);
    expect(result).toBe(VALID);
    expect(Object.isFrozen(result)).toBe(true);
  });

  it('reports a missing key at the path of the key', () => {
    expect(issuesOf(Message, { jsonrpc: '2.0', params: { content: [] } })).toEqual([
      { path: '$.id', code: 'missing_key', message: 'missing required key "id" (string | integer)' },
    ]);
  });

  it('reports a wrong item type inside an array with its index', () => {
    expect(issuesOf(Message, { jsonrpc: '2.0', id: 'a', params: { content: [{ type: 'text', text: 1 }] } })).toEqual([
      { path: '$.params.content[0].text', code: 'invalid_type', message: 'expected string, got integer' },
    ]);
  });

  it('dispatches a discriminated union on its tag and reports an unknown tag at the tag', () => {
    const issues = issuesOf(Message, {
      jsonrpc: '2.0',
      id: 'a',
      params: {
        content: [
          { type: 'text', text: 'ok' },
          { type: 'video', url: 'x' },
        ],
      },
    });
    expect(issues).toEqual([
      {
        path: '$.params.content[1].type',
        code: 'invalid_value',
        message: 'expected one of "text" | "image", got "video"',
      },
    ]);
  });

  it('explains the branch selected by the tag', () => {
    expect(issuesOf(Content, { type: 'image', data: 'AAA=' })).toEqual([
      { path: '$.mimeType', code: 'missing_key', message: 'missing required key "mimeType" (string)' },
    ]);
  });

  it('uses bracket notation for keys that are not identifiers', () => {
    expect(issuesOf(Message, { jsonrpc: '2.0', id: 1, params: { content: [], 'io.example/level': 'max' } })).toEqual([
      {
        path: '$.params["io.example/level"]',
        code: 'invalid_value',
        message: 'expected one of "low" | "high", got "max"',
      },
    ]);
  });

  it('reports every issue of a value, not only the first', () => {
    const issues = issuesOf(Message, { jsonrpc: '1.0', id: 1.5, params: { content: 'none' } });
    expect(issues.map((issue) => [issue.path, issue.code])).toEqual([
      ['$.jsonrpc', 'invalid_value'],
      ['$.id', 'invalid_type'],
      ['$.params.content', 'invalid_type'],
    ]);
    expect(issues[1]!.message).toBe('expected integer, got number');
  });

  it('tells a const of the wrong type from a wrong const value', () => {
    expect(issuesOf(literal('2.0'), 2)).toEqual([
      { path: '$', code: 'invalid_type', message: 'expected "2.0" (string), got integer' },
    ]);
    expect(issuesOf(literal(-32020), -32001)).toEqual([
      { path: '$', code: 'invalid_value', message: 'expected -32020, got -32001' },
    ]);
  });
});

describe('primitives', () => {
  it('tells integers from numbers', () => {
    expect(integer().check(3)).toBe(true);
    expect(integer().check(3.5)).toBe(false);
    expect(integer().check('3')).toBe(false);
    expect(number().check(3.5)).toBe(true);
    expect(number().check(Number.NaN)).toBe(false);
    expect(number().check(Number.POSITIVE_INFINITY)).toBe(false);
  });

  it('checks inclusive bounds and says which one failed', () => {
    const priority = number({ minimum: 0, maximum: 1 });
    expect(priority.check(0)).toBe(true);
    expect(priority.check(1)).toBe(true);
    expect(issuesOf(priority, -0.1)).toEqual([{ path: '$', code: 'invalid_value', message: 'expected ≥ 0, got -0.1' }]);
    expect(issuesOf(priority, 1.5)).toEqual([{ path: '$', code: 'invalid_value', message: 'expected ≤ 1, got 1.5' }]);
    expect(integer({ minimum: 0 }).check(-1)).toBe(false);
  });

  it('accepts null only where nullable', () => {
    const ttl = nullable(integer());
    expect(ttl.check(null)).toBe(true);
    expect(ttl.check(5)).toBe(true);
    expect(integer().check(null)).toBe(false);
    expect(issuesOf(ttl, 'x')).toEqual([
      { path: '$', code: 'invalid_type', message: 'expected integer | null, got string' },
    ]);
  });

  it('does not check string formats', () => {
    expect(string().check('not a uri')).toBe(true);
  });

  it('checks array length bounds', () => {
    const values = array(string(), { maxItems: 2 });
    expect(values.check(['a', 'b'])).toBe(true);
    expect(issuesOf(values, ['a', 'b', 'c'])).toEqual([
      { path: '$', code: 'invalid_value', message: 'expected at most 2 items, got 3' },
    ]);
  });
});

describe('objects', () => {
  it('treats a key holding undefined as absent, like JSON Schema validators do', () => {
    const shape = object({ name: string(), title: optional(string()) });
    expect(shape.check({ name: 'a', title: undefined })).toBe(true);
    expect(shape.check({ name: undefined })).toBe(false);
  });

  it('allows unknown keys unless closed', () => {
    const open = object({ name: string() });
    const closed = object({ name: string() }, { name: 'Strict', extra: 'closed' });
    expect(open.check({ name: 'a', other: 1 })).toBe(true);
    expect(closed.check({ name: 'a' })).toBe(true);
    expect(issuesOf(closed, { name: 'a', other: 1 })).toEqual([
      { path: '$.other', code: 'unknown_key', message: 'unknown key "other" in Strict' },
    ]);
  });

  it('validates extra keys against an additionalProperties validator', () => {
    const headers = record(string());
    expect(headers.check({ a: 'x', b: 'y' })).toBe(true);
    expect(issuesOf(headers, { a: 'x', 'b-c': 2 })).toEqual([
      { path: '$["b-c"]', code: 'invalid_type', message: 'expected string, got integer' },
    ]);
  });

  it('rejects arrays and null where an object is expected', () => {
    expect(issuesOf(Text, [])).toEqual([
      { path: '$', code: 'invalid_type', message: 'expected TextContent, got array' },
    ]);
    expect(Text.check(null)).toBe(false);
  });

  it('derives new shapes with extend and omit', () => {
    const Titled = extend(Text, { title: optional(string()) });
    expect(Titled.check({ type: 'text', text: 'a', title: 'T' })).toBe(true);
    expect(Titled.check({ type: 'text', text: 'a', title: 3 })).toBe(false);
    expect(Titled.expected).toBe('TextContent');
    const Untyped = omit(Text, ['type']);
    expect(Untyped.check({ text: 'a' })).toBe(true);
  });
});

describe('unions', () => {
  it('runs only the branch named by the tag', () => {
    const calls: string[] = [];
    const spy = (name: string): Validator => ({
      ...string(),
      check: (value) => {
        calls.push(name);
        return typeof value === 'string';
      },
    });
    const tagged = union([
      object({ kind: literal('a'), value: spy('a') }),
      object({ kind: literal('b'), value: spy('b') }),
      object({ kind: literal('c'), value: spy('c') }),
    ]);
    expect(tagged.check({ kind: 'c', value: 'x' })).toBe(true);
    expect(calls).toEqual(['c']);
  });

  it('falls back to trying each branch when no shared tag exists, and explains the closest one', () => {
    const contents = union(
      [
        object({ uri: string(), text: string() }, { name: 'TextResourceContents' }),
        object({ uri: string(), blob: string() }, { name: 'BlobResourceContents' }),
      ],
      { name: 'ResourceContents' },
    );
    expect(contents.check({ uri: 'x', blob: 'AA' })).toBe(true);
    expect(issuesOf(contents, { uri: 'x', blob: 5 })).toEqual([
      {
        path: '$',
        code: 'no_match',
        message: 'expected ResourceContents; closest match failed as follows',
      },
      { path: '$.blob', code: 'invalid_type', message: 'expected string, got integer' },
    ]);
  });

  it('reports a JSON type no branch accepts once, at the union', () => {
    const id = union([string(), integer()], { name: 'string | integer' });
    expect(issuesOf(id, null)).toEqual([
      { path: '$', code: 'invalid_type', message: 'expected string | integer, got null' },
    ]);
    expect(issuesOf(id, 1.5)).toEqual([{ path: '$', code: 'invalid_type', message: 'expected integer, got number' }]);
  });

  it('mixes a tagged object union with non-object branches', () => {
    const content = union([Text, Image, array(Content)]);
    expect(content.check([{ type: 'text', text: 'a' }])).toBe(true);
    expect(content.check({ type: 'image', data: 'a', mimeType: 'image/png' })).toBe(true);
    expect(content.check('text')).toBe(false);
  });
});

describe('composition', () => {
  it('allOf needs every part', () => {
    const both = allOf([object({ a: string() }), object({ b: boolean() })]);
    expect(both.check({ a: 'x', b: true })).toBe(true);
    expect(issuesOf(both, { a: 1 }).map((issue) => issue.path)).toEqual(['$.a', '$.b']);
    expect(issuesOf(both, 'x')).toHaveLength(1);
  });

  it('refine adds a rule that only runs on otherwise valid values', () => {
    const oneOfTwo = refine<{ a?: string; b?: string }>(
      object({ a: optional(string()), b: optional(string()) }),
      (value) => value.a !== undefined || value.b !== undefined,
      'needs a or b',
    );
    expect(oneOfTwo.check({ a: 'x' })).toBe(true);
    expect(issuesOf(oneOfTwo, {})).toEqual([{ path: '$', code: 'invalid_value', message: 'needs a or b' }]);
    expect(issuesOf(oneOfTwo, { a: 1 })).toEqual([
      { path: '$.a', code: 'invalid_type', message: 'expected string, got integer' },
    ]);
  });

  it('choose picks the validator from the value, reject refuses with its message', () => {
    const picked = choose('thing', (value) =>
      typeof value === 'object' && value !== null && 'forbidden' in value ? reject('forbidden here') : Text,
    );
    expect(picked.check({ type: 'text', text: 'a' })).toBe(true);
    expect(issuesOf(picked, { forbidden: true })).toEqual([
      { path: '$', code: 'invalid_value', message: 'forbidden here' },
    ]);
  });
});
