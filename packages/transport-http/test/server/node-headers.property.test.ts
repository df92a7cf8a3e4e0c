import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NodeHeaders } from '../../src/node/node-headers';

// Property-based, differential: the node adapter's header view (it scans node's `rawHeaders` instead of building a
// `Headers`) answers `get` and `has` exactly as a web `Headers` built from the same fields, for any names (any case,
// repeated) and values, including after a mutation switches it to the real `Headers`.

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

const TOKEN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-!#$%&'*+.^_`|~";
const name = fc.oneof(
  fc.constantFrom('Content-Type', 'accept', 'MCP-Session-Id', 'mcp-protocol-version', 'Last-Event-ID', 'Host'),
  fc.string({ unit: fc.constantFrom(...TOKEN), minLength: 1, maxLength: 12 }),
);
// What node hands over: no CR/LF/NUL, no surrounding whitespace (the parser strips it).
const value = fc
  .string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 20 })
  .map((text) => text.trim());

describe('NodeHeaders (property-based)', () => {
  it('answers get/has like a web Headers built from the same raw fields', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(name, value), { maxLength: 12 }),
        fc.array(name, { maxLength: 6 }),
        (fields, asked) => {
          const raw = fields.flat();
          const view = new NodeHeaders(raw);
          const real = new Headers();
          for (const [field, text] of fields) real.append(field, text);
          for (const query of [...asked, ...fields.map(([field]) => field.toUpperCase())]) {
            expect(view.get(query)).toBe(real.get(query));
            expect(view.has(query)).toBe(real.has(query));
          }
          view.set('x-after', '1');
          real.set('x-after', '1');
          expect([...view]).toEqual([...real]);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
