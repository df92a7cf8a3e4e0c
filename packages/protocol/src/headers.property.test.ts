import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headerMismatchError } from './errors';
import {
  compareRequestHeaders,
  decodeHeaderValue,
  encodeHeaderValue,
  type McpHeaderParam,
  McpHeaders,
} from './headers';

// Property-based tests of the `Mcp-*` header encoding (issue 12): any string round-trips through the Base64 sentinel
// and travels as a valid header value; any header value or body shape never makes the comparison throw, and a
// mismatch always becomes a valid JSON-RPC -32020 error.

/** What an HTTP header value may hold (RFC 9110 field-value, as Fetch `Headers` accepts it). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

describe('Mcp-* header values (property-based)', () => {
  it('every well-formed string round-trips, and its encoding is a valid, unpadded header value', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (value) => {
        const encoded = encodeHeaderValue(value);
        expect(HEADER_VALUE.test(encoded)).toBe(true);
        expect(encoded).toBe(encoded.trim());
        expect(decodeHeaderValue(encoded)).toEqual({ ok: true, value });
        expect(() => new Headers({ 'mcp-name': encoded })).not.toThrow();
      }),
      { numRuns: 1_000 },
    );
  });

  it('decoding any text never throws, and what it accepts re-encodes to a value that decodes the same', () => {
    const raw = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ maxLength: 40 }).map((inner) => `=?base64?${inner}?=`),
      fc.base64String({ maxLength: 40 }).map((inner) => `=?base64?${inner}?=`),
    );
    fc.assert(
      fc.property(raw, (value) => {
        const decoded = decodeHeaderValue(value);
        if (!decoded.ok) {
          expect(decoded.reason).toMatch(/^invalid characters/);
          return;
        }
        expect(decodeHeaderValue(encodeHeaderValue(decoded.value))).toEqual(decoded);
      }),
      { numRuns: 1_000 },
    );
  });

  it('comparing any headers with any body never throws; a mismatch is a valid -32020 error', () => {
    const headerName = fc.constantFrom(
      McpHeaders.Method,
      McpHeaders.Name,
      McpHeaders.ProtocolVersion,
      `${McpHeaders.ParamPrefix}Region`,
      `${McpHeaders.ParamPrefix}Days`,
      'x-other',
    );
    const headerValue = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom('tools/call', '2026-07-28', 'us-west1', '7', 'true', '=?base64?dXM=?='),
      fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
    );
    const headers = fc.dictionary(headerName, headerValue, { maxKeys: 6 });
    const body = fc.record(
      {
        jsonrpc: fc.constant('2.0'),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 5 })),
        method: fc.constantFrom('tools/call', 'resources/read', 'prompts/get', 'ping'),
        params: fc.oneof(
          fc.anything(),
          fc.record(
            {
              name: fc.anything(),
              uri: fc.anything(),
              arguments: fc.oneof(fc.anything(), fc.record({ region: fc.anything(), days: fc.anything() })),
              _meta: fc.anything(),
            },
            { requiredKeys: [] },
          ),
        ),
      },
      { requiredKeys: ['jsonrpc', 'method'] },
    );
    const declarations: McpHeaderParam[] = [
      { name: 'Region', path: ['region'], type: 'string' },
      { name: 'Days', path: ['days'], type: 'integer' },
    ];
    fc.assert(
      fc.property(headers, body, fc.boolean(), (sent, message, declared) => {
        const check = compareRequestHeaders(sent, message as never, declared ? declarations : undefined);
        if (check.ok) return;
        const error = headerMismatchError(check.detail);
        expect(error.code).toBe(-32020);
        expect(error.message.startsWith('Header mismatch: ')).toBe(true);
        expect(typeof check.header).toBe('string');
        expect(() =>
          JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: error.code, message: error.message } }),
        ).not.toThrow();
      }),
      { numRuns: 2_000 },
    );
  });
});
