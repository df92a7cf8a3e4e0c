import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { fastCheck } from '../src/json-schema/json-schema-fast';

const SCHEMAS: Record<string, unknown>[] = [
  { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  { type: 'object', properties: { bytes: { type: 'integer', minimum: 0, maximum: 10 } }, required: ['bytes'] },
  {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'who' },
      tags: { type: 'array', items: { type: 'string' } },
      mode: { enum: ['a', 'b', 1, null] },
      flag: { type: 'boolean' },
      n: { type: 'number', minimum: -1.5 },
      any: true,
      never: false,
      nested: { type: 'object', properties: { x: { type: 'null' } }, additionalProperties: false },
    },
    additionalProperties: false,
  },
  { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } },
  { $schema: 'https://json-schema.org/draft/2020-12/schema', title: 't', type: 'object', properties: {} },
];

const VALUES: unknown[] = [
  {},
  { text: 'hi' },
  { text: 5 },
  { text: 'hi', extra: 1 },
  { bytes: 0 },
  { bytes: 10 },
  { bytes: 11 },
  { bytes: -1 },
  { bytes: 1.5 },
  { bytes: 2.0 },
  { bytes: '3' },
  { name: 'n', tags: ['a', 'b'], mode: 'a', flag: true, n: -1.5 },
  { tags: ['a', 1] },
  { mode: 'c' },
  { mode: null },
  { mode: 1 },
  { n: -2 },
  { any: { deep: [1] } },
  { never: 0 },
  { nested: { x: null } },
  { nested: { x: null, y: 1 } },
  { nested: { x: 0 } },
  { other: 1 },
  [],
  [{ id: 1 }, { id: 2 }],
  [{ id: 1.5 }],
  [{}],
  [1],
  null,
  'text',
  42,
  true,
];

describe('fastCheck', () => {
  it('agrees with @cfworker/json-schema on every value, for the schemas it takes', () => {
    for (const schema of SCHEMAS) {
      const check = fastCheck(schema);
      expect(check, JSON.stringify(schema)).toBeDefined();
      const validator = new Validator(structuredClone(schema) as never, '2020-12', true);
      for (const value of VALUES) {
        expect(check!(value), `${JSON.stringify(schema)} on ${JSON.stringify(value)}`).toBe(
          validator.validate(value).valid,
        );
      }
    }
  });

  it('declines every schema with a keyword it does not check', () => {
    for (const schema of [
      { type: ['string', 'null'] },
      { type: 'string', minLength: 1 },
      { type: 'string', format: 'email' },
      { type: 'object', properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: {} } },
      { anyOf: [{ type: 'string' }] },
      { type: 'object', additionalProperties: { type: 'string' } },
      { enum: [{ a: 1 }] },
      { type: 'number', exclusiveMinimum: 0 },
      { type: 'object', properties: { a: { type: 'string', pattern: '^a' } } },
    ]) {
      expect(fastCheck(schema), JSON.stringify(schema)).toBeUndefined();
    }
  });
});
