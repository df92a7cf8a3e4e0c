import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from './messages';
import { parseMessage, serializeMessage, validateMessage } from './parse';

/** The suite's run count, or `FUZZ_RUNS` for a long run. */
const runs = (count: number) => Number(process.env.FUZZ_RUNS ?? count);

// Property-based tests of the JSON-RPC parser (issue 12): any text or value gives either a valid message or a valid
// JSON-RPC error response (never a throw), and every valid message survives a round trip.

const STANDARD_CODES = [-32700, -32600, -32601, -32602, -32603];

/** Checks, independently of the code under test, that `value` is a JSON-RPC 2.0 error response. */
function expectErrorResponse(value: unknown): void {
  const response = value as { jsonrpc: unknown; id: unknown; error: { code: unknown; message: unknown } };
  expect(response.jsonrpc).toBe('2.0');
  expect(response.id === null || typeof response.id === 'string' || Number.isFinite(response.id)).toBe(true);
  expect(Number.isInteger(response.error.code)).toBe(true);
  expect(STANDARD_CODES).toContain(response.error.code);
  expect(typeof response.error.message).toBe('string');
  expect((response.error.message as string).length).toBeGreaterThan(0);
  // It can be sent as is: JSON text that reads back the same.
  const text = JSON.stringify(response);
  expect(JSON.stringify(JSON.parse(text))).toBe(text);
}

/** A valid message, judged on what it says as JSON (a member set to `undefined` is no member). */
function expectMessage(value: unknown): void {
  const message = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  expect(message.jsonrpc).toBe('2.0');
  if ('method' in message) expect(typeof message.method).toBe('string');
  else expect('result' in message || 'error' in message).toBe(true);
}

const requestId = fc.oneof(fc.string({ maxLength: 20 }), fc.integer());
const params = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 })),
  fc.array(fc.jsonValue({ maxDepth: 3 })),
);
const message: fc.Arbitrary<JsonRpcMessage> = fc.oneof(
  fc.record(
    { jsonrpc: fc.constant('2.0' as const), id: requestId, method: fc.string({ maxLength: 30 }), params },
    { requiredKeys: ['jsonrpc', 'id', 'method'] },
  ),
  fc.record(
    { jsonrpc: fc.constant('2.0' as const), method: fc.string({ maxLength: 30 }), params },
    { requiredKeys: ['jsonrpc', 'method'] },
  ),
  fc.record({ jsonrpc: fc.constant('2.0' as const), id: requestId, result: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({
    jsonrpc: fc.constant('2.0' as const),
    id: fc.oneof(requestId, fc.constant(null)),
    error: fc.record({ code: fc.integer(), message: fc.string({ maxLength: 30 }) }),
  }),
) as fc.Arbitrary<JsonRpcMessage>;

describe('parseMessage and validateMessage (property-based)', () => {
  it('any text gives a valid message or a valid error response, never a throw', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 200, unit: 'binary' }),
      fc.jsonValue().map((value) => JSON.stringify(value)),
      fc.anything().map((value) => JSON.stringify(value) ?? 'undefined'),
      message.map((m) => serializeMessage(m).slice(0, -1)), // cut short: bad JSON
    );
    fc.assert(
      fc.property(text, fc.boolean(), (input, allowBatch) => {
        const result = parseMessage(input, { allowBatch });
        if (result.batch !== undefined) {
          for (const item of result.batch) {
            if (item.ok) expectMessage(item.message);
            else expectErrorResponse(item.error);
          }
        } else if (result.ok) expectMessage(result.message);
        else expectErrorResponse(result.error);
      }),
      { numRuns: runs(1_000) },
    );
  });

  it('any value (objects of any shape included) gives a valid message or a valid error response', () => {
    const shaped = fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), fc.anything()),
        id: fc.anything(),
        method: fc.anything(),
        params: fc.anything(),
        result: fc.anything(),
        error: fc.anything(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.anything(), shaped), (value) => {
        const result = validateMessage(value);
        if (result.ok) expectMessage(result.message);
        else expectErrorResponse(result.error);
      }),
      { numRuns: runs(1_000) },
    );
  });

  it('every valid message survives serialise → parse', () => {
    fc.assert(
      fc.property(message, (original) => {
        const result = parseMessage(serializeMessage(original));
        expect(result.ok && result.message).toEqual(JSON.parse(JSON.stringify(original)));
      }),
      { numRuns: runs(500) },
    );
  });
});
