/**
 * Micro benchmark: sequential request/response round trips between two peers in one process.
 *
 * Run from the repository root (Node 20 cannot strip types, so bundle first):
 *   npx esbuild packages/jsonrpc-core/bench/roundtrip.ts --bundle --platform=neutral --format=esm \
 *     --outfile=/tmp/jsonrpc-roundtrip.mjs && node /tmp/jsonrpc-roundtrip.mjs
 *
 * Scenarios:
 * - memory: the linked in-memory pair (messages passed by reference): the engine's own cost.
 * - ndjson: every message serialised with encodeLine, split by LineDecoder and checked by parseMessage, as a stdio
 *   transport would: engine plus framing.
 */
import {
  createLinkedTransports,
  encodeLine,
  type JsonRpcMessage,
  JsonRpcPeer,
  LineDecoder,
  type MessageInfo,
  parseMessage,
  type Transport,
} from '../src/index';

const ROUNDS = 100_000;
const WARMUP = 10_000;

/** Two transports joined by NDJSON text, delivered one microtask later like the in-memory pair. */
function framedPair(): [Transport, Transport] {
  const encoder = new TextEncoder();
  const make = (): Transport & { decoder?: LineDecoder; other?: Transport & { decoder?: LineDecoder } } => ({
    async start() {},
    send(message: JsonRpcMessage) {
      const bytes = encoder.encode(encodeLine(message));
      const other = this.other!;
      queueMicrotask(() => other.decoder!.push(bytes));
    },
    async close() {},
  });
  const first = make();
  const second = make();
  first.other = second;
  second.other = first;
  for (const side of [first, second]) {
    side.decoder = new LineDecoder({
      onLine: (line) => {
        const result = parseMessage(line);
        if (result.ok) side.onmessage?.(result.message, undefined as MessageInfo | undefined);
      },
    });
  }
  return [first, second];
}

async function run(name: string, [left, right]: [Transport, Transport]): Promise<void> {
  const server = new JsonRpcPeer();
  server.setRequestHandler('echo', (params) => params);
  const client = new JsonRpcPeer();
  await server.connect(right);
  await client.connect(left);
  const params = { text: 'hello', n: 1 };
  for (let index = 0; index < WARMUP; index++) await client.request('echo', params);
  const started = performance.now();
  for (let index = 0; index < ROUNDS; index++) await client.request('echo', params);
  const elapsedMs = performance.now() - started;
  await client.close();
  await server.close();
  const callsPerSecond = Math.round(ROUNDS / (elapsedMs / 1000));
  console.log(`${name}: ${ROUNDS} sequential round trips in ${elapsedMs.toFixed(0)} ms = ${callsPerSecond} calls/s`);
}

await run('memory', createLinkedTransports());
await run('ndjson', framedPair());
