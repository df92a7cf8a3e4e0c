import { JsonRpcError } from '@mcpkit/jsonrpc-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invalidEnvelopeError } from './errors';
import { buildRequestMeta, MetaKeys, readRequestEnvelope } from './meta';

// Property-based tests of the 2026-07-28 `_meta` envelope reader (issue 12): params of any shape never make it throw;
// a refusal always becomes a valid JSON-RPC -32602 error that names what is wrong; and an envelope it accepts has the
// shape the server relies on.

const metaValue = fc.oneof(
  fc.anything(),
  fc.string({ maxLength: 12 }),
  fc.constant(''),
  fc.constantFrom('2026-07-28', 'debug', 'info', 'emergency'),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.anything()),
  fc.record({ name: fc.anything(), version: fc.anything() }, { requiredKeys: [] }),
);
const metaKey = fc.oneof(
  fc.constantFrom(
    MetaKeys.ProtocolVersion,
    MetaKeys.ClientCapabilities,
    MetaKeys.ClientInfo,
    MetaKeys.LogLevel,
    'progressToken',
    '__proto__',
    'constructor',
  ),
  fc.string({ maxLength: 20 }),
);
const meta = fc.oneof(fc.anything(), fc.dictionary(metaKey, metaValue, { maxKeys: 8 }));
const params = fc.oneof(fc.anything(), fc.record({ _meta: meta, name: fc.anything() }, { requiredKeys: [] }));

describe('readRequestEnvelope (property-based)', () => {
  it('never throws; a refusal is a valid -32602 error naming the keys, an acceptance has the right shape', () => {
    fc.assert(
      fc.property(params, (value) => {
        const read = readRequestEnvelope(value);
        if (!read.ok) {
          expect(read.missing.length + read.invalid.length).toBeGreaterThan(0);
          const error = invalidEnvelopeError(read.missing, read.invalid);
          expect(error).toBeInstanceOf(JsonRpcError);
          const wire = { jsonrpc: '2.0', id: 1, error: { code: error.code, message: error.message, data: error.data } };
          const text = JSON.stringify(wire);
          expect(JSON.parse(text).error.code).toBe(-32602);
          for (const key of [...read.missing, ...read.invalid]) expect(error.message).toContain(key);
          return;
        }
        const { envelope } = read;
        expect(typeof envelope.protocolVersion).toBe('string');
        expect(envelope.protocolVersion.length).toBeGreaterThan(0);
        expect(envelope.clientCapabilities !== null && typeof envelope.clientCapabilities).toBe('object');
        expect(Array.isArray(envelope.clientCapabilities)).toBe(false);
        if (envelope.progressToken !== undefined) {
          expect(typeof envelope.progressToken === 'string' || Number.isInteger(envelope.progressToken)).toBe(true);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it('accepts every envelope buildRequestMeta makes, whatever else params carry', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 12 }),
        fc.dictionary(fc.string({ maxLength: 8 }), fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue())),
        fc.option(fc.oneof(fc.string(), fc.integer()), { nil: undefined }),
        fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue()),
        (protocolVersion, clientCapabilities, progressToken, rest) => {
          const built = buildRequestMeta({ protocolVersion, clientCapabilities, progressToken });
          const read = readRequestEnvelope({ ...rest, _meta: built });
          expect(read.ok).toBe(true);
          if (read.ok) expect(read.envelope.protocolVersion).toBe(protocolVersion);
        },
      ),
      { numRuns: 500 },
    );
  });
});
