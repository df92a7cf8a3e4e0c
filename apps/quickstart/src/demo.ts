// The mcpkit demo, step one: two JSON-RPC peers in one process, linked in memory, doing what every MCP connection
// does underneath — requests with progress, concurrent handlers, a timeout, a cancellation and a clean shutdown.
// Each step prints what happens. Run it with `npm run demo` at the repository root.
import {
  createLinkedTransports,
  JsonRpcError,
  JsonRpcPeer,
  type PeerHooks,
  RequestAbortedError,
  RequestTimeoutError,
} from '@mcpkit/jsonrpc-core';

const step = (title: string) => console.log(`\n== ${title}`);
const say = (who: string, text: string) => console.log(`  ${who.padEnd(6)} ${text}`);
// The demo checks itself: a step that does not behave as described stops it with a non-zero exit.
function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`demo check failed: ${what}`);
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

// How this demo's protocol carries progress tokens and cancellations (MCP's rules live in @mcpkit/protocol).
const hooks: PeerHooks = {
  attachProgressToken: (params, token) => ({ ...(params as object), progressToken: token }),
  readProgress: (method, params) => {
    if (method !== 'progress') return undefined;
    const { token, ...progress } = params as { token: string | number; done: number; total: number };
    return { token, progress };
  },
  cancellationNotification: (request, reason) => ({
    method: 'cancel',
    params: { id: request.id, reason: String(reason) },
  }),
  readCancellation: (method, params) =>
    method === 'cancel'
      ? { requestId: (params as { id: number }).id, reason: (params as { reason: string }).reason }
      : undefined,
};

const server = new JsonRpcPeer({ hooks });
const client = new JsonRpcPeer({ hooks });

server.setRequestHandler('greet', (params) => {
  const { name } = params as { name: string };
  say('server', `greet(${name})`);
  return { greeting: `Hello, ${name}!` };
});

server.setRequestHandler('count', async (params, ctx) => {
  const { to, progressToken } = params as { to: number; progressToken?: number };
  for (let done = 1; done <= to; done++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (progressToken !== undefined) await ctx.notify('progress', { token: progressToken, done, total: to });
  }
  return { counted: to };
});

server.setRequestHandler('sleep', (params, ctx) => {
  const { ms } = params as { ms: number };
  say('server', `sleeping ${ms} ms (until done or cancelled)`);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve({ slept: ms }), ms);
    ctx.signal.addEventListener('abort', () => {
      clearTimeout(timer);
      say('server', `sleep cancelled by the client: ${String(ctx.signal.reason)}`);
      reject(ctx.signal.reason);
    });
  });
});

server.setRequestHandler('divide', (params) => {
  const { a, b } = params as { a: number; b: number };
  if (b === 0) throw new JsonRpcError(-32602, 'Cannot divide by zero', { a, b });
  return { quotient: a / b };
});

const [clientSide, serverSide] = createLinkedTransports();
await Promise.all([server.connect(serverSide), client.connect(clientSide)]);

step('1. A request and its response');
const greeting = await client.request('greet', { name: 'mcpkit' });
say('client', `got ${JSON.stringify(greeting)}`);
check((greeting as { greeting: string }).greeting === 'Hello, mcpkit!', 'the greeting came back');

step('2. Progress while a request runs');
let updates = 0;
const counted = await client.request(
  'count',
  { to: 3 },
  {
    onProgress: (progress) => {
      updates++;
      say('client', `progress ${JSON.stringify(progress)}`);
    },
  },
);
say('client', `got ${JSON.stringify(counted)}`);
check(updates === 3 && (counted as { counted: number }).counted === 3, 'three progress updates, then the result');

step('3. Handlers run concurrently');
const started = Date.now();
await Promise.all([client.request('sleep', { ms: 150 }), client.request('sleep', { ms: 150 })]);
const took = Date.now() - started;
say('client', `two 150 ms requests took ${took} ms together`);
check(took < 290, 'the two handlers overlapped');

step('4. A peer error arrives as a JsonRpcError');
const divided = await client.request('divide', { a: 1, b: 0 }).catch((error: unknown) => error);
check(JsonRpcError.is(divided) && divided.code === -32602, 'the peer error kept its code');
const peerError = divided as JsonRpcError;
say('client', `error ${peerError.code}: ${peerError.message} ${JSON.stringify(peerError.data)}`);

step('5. A timeout rejects locally and cancels the work on the other side');
const timedOut = await client.request('sleep', { ms: 5_000 }, { timeoutMs: 100 }).catch((error: unknown) => error);
check(RequestTimeoutError.is(timedOut), 'the request timed out');
say('client', `${(timedOut as Error).name}: ${(timedOut as Error).message}`);
await settle();

step('6. Cancellation with an AbortSignal');
const controller = new AbortController();
setTimeout(() => controller.abort('the user pressed stop'), 50);
const aborted = await client
  .request('sleep', { ms: 5_000 }, { signal: controller.signal })
  .catch((error: unknown) => error);
check(RequestAbortedError.is(aborted), 'the request was aborted');
say('client', `${(aborted as Error).name}: ${(aborted as Error).message}`);
await settle();

step('7. Shutdown rejects what is still pending');
const pending = client.request('sleep', { ms: 5_000 }).catch((error: Error) => error);
await new Promise((resolve) => setTimeout(resolve, 20));
await client.close();
const outcome = await pending;
await settle();
say('client', `pending request ended with ${(outcome as Error).name}: ${(outcome as Error).message}`);
check((outcome as Error).name === 'ConnectionClosedError', 'shutdown rejected the pending request');

console.log('\nDone: every step behaved as described.');
