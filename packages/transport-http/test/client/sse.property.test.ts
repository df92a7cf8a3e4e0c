import type { JsonRpcMessage } from '@mcpkit/jsonrpc-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StreamableHttpClientTransport } from '../../src/client/index';
import { scriptedFetch } from './helpers';

// Property-based test of the client's SSE path: a server's response stream made of arbitrary SSE-ish text (fields of
// every kind, CR/LF/CRLF line ends, comments, broken JSON, stray bytes), cut into arbitrary chunks, never makes the
// transport throw or hang; it delivers only valid JSON-RPC messages and reports the rest through `onerror`. The run
// count is small by default (the suite stays fast); FUZZ_RUNS=20000 runs a long one.

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);

const lineEnd = fc.constantFrom('\n', '\r\n', '\r');
const field = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((value) => `data: ${JSON.stringify(value)}`),
  fc
    .record({ id: fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), method: fc.string({ maxLength: 8 }) })
    .map((message) => `data: ${JSON.stringify({ jsonrpc: '2.0', ...message })}`),
  fc.string({ maxLength: 30 }).map((text) => `data:${text}`),
  fc.string({ maxLength: 10 }).map((text) => `id: ${text}`),
  fc.string({ maxLength: 10 }).map((text) => `event: ${text}`),
  fc.oneof(fc.nat(), fc.string({ maxLength: 5 })).map((value) => `retry: ${value}`),
  fc.string({ maxLength: 20 }).map((text) => `: ${text}`),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constant(''),
);
const body = fc.array(fc.tuple(field, lineEnd), { maxLength: 20 }).map((lines) => lines.flat().join(''));

function isJsonRpcMessage(value: JsonRpcMessage): boolean {
  const message = value as unknown as Record<string, unknown>;
  return message.jsonrpc === '2.0' && ('method' in message || 'result' in message || 'error' in message);
}

describe('StreamableHttpClientTransport SSE path (property-based)', () => {
  it('reads arbitrary SSE text cut anywhere: only valid messages delivered, never a throw or a hang', async () => {
    await fc.assert(
      fc.asyncProperty(body, fc.array(fc.nat(), { maxLength: 8 }), async (text, cuts) => {
        const bytes = new TextEncoder().encode(text);
        const points = [...new Set(cuts.map((cut) => cut % Math.max(bytes.length, 1)))].sort((a, b) => a - b);
        const fetch = scriptedFetch((call) => {
          if (call.method !== 'POST' || (call.body as { method?: string } | undefined)?.method !== 'tools/call') {
            return new Response(null, { status: 202 });
          }
          const stream = new ReadableStream<Uint8Array>({
            start(controller) {
              let start = 0;
              for (const point of [...points, bytes.length]) {
                if (point > start) controller.enqueue(bytes.subarray(start, point));
                start = Math.max(start, point);
              }
              // The real answer last, after a blank line ends whatever the garbage left open.
              controller.enqueue(
                new TextEncoder().encode(
                  `\n\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 'fuzz', result: { ok: true } })}\n\n`,
                ),
              );
              controller.close();
            },
          });
          return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } });
        });
        const transport = new StreamableHttpClientTransport('http://mcp.test/mcp', {
          fetch,
          standaloneStream: false,
          reconnect: { maxAttempts: 0 },
        });
        const messages: JsonRpcMessage[] = [];
        transport.onmessage = (message) => messages.push(message);
        transport.onerror = () => {};
        await transport.start();
        await transport.send({ jsonrpc: '2.0', id: 'fuzz', method: 'tools/call', params: { name: 'x' } });
        for (const message of messages) expect(isJsonRpcMessage(message)).toBe(true);
        // Whatever came before, the real answer still arrives once the garbage's events are closed.
        expect(messages.filter((message) => 'result' in message && message.id === 'fuzz')).toHaveLength(1);
        await transport.close();
      }),
      { numRuns: RUNS },
    );
  }, 60_000);
});
