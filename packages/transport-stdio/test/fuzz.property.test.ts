import { PassThrough } from 'node:stream';
import { JsonRpcPeer, Router } from '@mcpkit/jsonrpc-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StdioServerTransport } from '../src/index';

// Property-based test of a stdio server (issue 12): arbitrary bytes on stdin, cut anywhere, with lines of any shape
// and some over the limit, never crash it; everything it writes is a valid JSON-RPC response; every line that is not
// JSON gets a -32700 answer and every oversized line a -32600 answer naming the limit.

const LIMIT = 256;
/** Small by default so the suite stays fast; `FUZZ_RUNS=20000` runs a long one. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

function lineArbitrary(): fc.Arbitrary<string> {
  const request = fc
    .record({ id: fc.oneof(fc.integer(), fc.string({ maxLength: 6 })), method: fc.constantFrom('echo', 'nope', 'x') })
    .map(({ id, method }) => JSON.stringify({ jsonrpc: '2.0', id, method, params: { id } }));
  return fc.oneof(
    fc.string({ unit: 'binary', maxLength: 60 }).map((text) => text.replaceAll('\n', ' ')),
    fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.stringify(value)),
    request,
    request.map((text) => `${text.slice(0, -1)},"pad":"${'p'.repeat(LIMIT)}"}`), // oversized request
    fc.constant(''),
  );
}

describe('StdioServerTransport (property-based)', () => {
  it('answers arbitrary input with valid JSON-RPC responses only, and never crashes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(lineArbitrary(), { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (lines, cuts) => {
          const stdin = new PassThrough();
          const stdout = new PassThrough();
          const router = new Router();
          router.setRequestHandler('echo', (params) => params);
          const peer = new JsonRpcPeer({ router, onError: () => {} });
          await peer.connect(new StdioServerTransport({ stdin, stdout, stderr: null, maxMessageBytes: LIMIT }));
          let written = '';
          stdout.on('data', (chunk: Buffer) => {
            written += chunk.toString('utf8');
          });
          const bytes = Buffer.from(lines.map((line) => `${line}\n`).join(''), 'utf8');
          const points = [...new Set(cuts.map((cut) => cut % Math.max(bytes.length, 1)))].sort((a, b) => a - b);
          let start = 0;
          for (const point of [...points, bytes.length]) {
            if (point > start) stdin.write(bytes.subarray(start, point));
            start = Math.max(start, point);
          }
          for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
          await peer.close();

          const answers = written
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => JSON.parse(line));
          for (const answer of answers) {
            expect(answer.jsonrpc).toBe('2.0');
            expect(answer.id === null || typeof answer.id === 'string' || Number.isFinite(answer.id)).toBe(true);
            if ('error' in answer) {
              expect(Number.isInteger(answer.error.code)).toBe(true);
              expect(typeof answer.error.message).toBe('string');
            } else {
              expect('result' in answer).toBe(true);
            }
          }
          const sentLines = bytes.toString('utf8').split('\n').slice(0, -1);
          const notJson = sentLines.filter((line) => {
            if (Buffer.byteLength(line) > LIMIT || /^[ \t\r]*$/.test(line)) return false;
            try {
              JSON.parse(line);
              return false;
            } catch {
              return true;
            }
          });
          const oversized = sentLines.filter((line) => Buffer.byteLength(line) > LIMIT);
          expect(answers.filter((answer) => answer.error?.code === -32700)).toHaveLength(notJson.length);
          const tooLarge = answers.filter((answer) =>
            /limit of 256 bytes \(maxMessageBytes\)/.test(answer.error?.message),
          );
          expect(tooLarge).toHaveLength(oversized.length);
        },
      ),
      { numRuns: RUNS },
    );
  }, 60_000);
});
