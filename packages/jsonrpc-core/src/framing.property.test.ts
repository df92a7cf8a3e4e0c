import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameTooLargeError } from './errors';
import { encodeLine, LineDecoder } from './framing';

/** The suite's run count, or `FUZZ_RUNS` for a long run. */
const runs = (count: number) => Number(process.env.FUZZ_RUNS ?? count);

// Property-based tests of the NDJSON framer (issue 12): whatever bytes arrive, cut wherever, the decoder never throws,
// never holds more than its limit, and gives back exactly the lines that were sent.

const encoder = new TextEncoder();

/** Splits `bytes` at the given offsets (any numbers: taken modulo the length, sorted, deduplicated). */
function split(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => (bytes.length === 0 ? 0 : cut % bytes.length)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const point of points) {
    if (point > start) pieces.push(bytes.subarray(start, point));
    start = Math.max(start, point);
  }
  pieces.push(bytes.subarray(start));
  return pieces;
}

function decode(pieces: readonly (Uint8Array | string)[], maxLineBytes?: number) {
  const lines: string[] = [];
  const errors: Error[] = [];
  let maxPending = 0;
  const decoder = new LineDecoder({ onLine: (line) => lines.push(line), onError: (e) => errors.push(e), maxLineBytes });
  for (const piece of pieces) {
    decoder.push(piece);
    maxPending = Math.max(maxPending, decoder.pendingSize);
  }
  decoder.end();
  return { lines, errors, maxPending };
}

describe('LineDecoder (property-based)', () => {
  it('gives back every JSON message, in order, however the bytes are cut', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        (values, cuts) => {
          const text = values.map((value) => encodeLine({ jsonrpc: '2.0', method: 'm', params: { value } })).join('');
          const { lines, errors } = decode(split(encoder.encode(text), cuts));
          expect(errors).toEqual([]);
          expect(lines).toEqual(text.split('\n').slice(0, -1));
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it('never throws nor holds more than its limit on arbitrary bytes, and reports only oversized lines', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 2_000 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.integer({ min: 1, max: 300 }),
        (bytes, cuts, limit) => {
          const { lines, errors, maxPending } = decode(split(bytes, cuts), limit);
          expect(maxPending).toBeLessThanOrEqual(limit);
          for (const line of lines) {
            expect(line.includes('\n')).toBe(false);
            // Blank lines (JSON whitespace only) are skipped; anything else is for the parser to judge.
            expect(/^[ \t\r]*$/.test(line)).toBe(false);
          }
          for (const error of errors) {
            expect(FrameTooLargeError.is(error)).toBe(true);
            const { head, maxLineBytes, receivedBytes } = (error as FrameTooLargeError).data;
            expect(maxLineBytes).toBe(limit);
            expect(receivedBytes).toBeGreaterThan(limit);
            expect(head.id === undefined || typeof head.id === 'string' || Number.isFinite(head.id)).toBe(true);
            expect([undefined, 'request', 'response']).toContain(head.kind);
          }
        },
      ),
      { numRuns: runs(500) },
    );
  });

  it('reads the id of any oversized request or response from its first bytes', () => {
    const id = fc.oneof(
      fc.string({ maxLength: 40, unit: 'binary' }),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
    );
    fc.assert(
      fc.property(
        id,
        fc.constantFrom('request', 'response'),
        fc.array(fc.nat(), { maxLength: 10 }),
        (value, kind, cuts) => {
          const big = 'x'.repeat(500);
          const message =
            kind === 'request'
              ? { jsonrpc: '2.0' as const, id: value, method: 'tools/call', params: { big } }
              : { jsonrpc: '2.0' as const, id: value, result: { big } };
          const { errors } = decode(split(encoder.encode(encodeLine(message)), cuts), 200);
          expect(errors).toHaveLength(1);
          // What JSON gives back for the id (-0 comes back as 0).
          expect((errors[0] as FrameTooLargeError).data.head).toEqual({ id: JSON.parse(JSON.stringify(value)), kind });
        },
      ),
      { numRuns: runs(300) },
    );
  });
});
