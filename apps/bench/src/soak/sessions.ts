// One soak session per transport: connect, then call `count` over and over with a random pause until the deadline.
// HTTP sessions (legacy era: the one with resumption) lose connections through `cuttingFetch` and must resume without
// losing anything. WebSocket sessions (half legacy, half 2026-07-28) have their socket dropped at random (`terminate`:
// no close frame, as a network failure); the interrupted call fails with a connection error and is made again on a new
// connection, and every call that completes must have lost nothing.
import { Client } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { WebSocketClientTransport, type WebSocketConstructor } from '@mcpkit/transport-websocket';
import { WebSocket } from 'ws';
import { type CutStats, cuttingFetch } from './cutting-fetch';
import { checkCall, noteError, type Tally } from './tally';

export interface SessionPlan {
  readonly url: string;
  readonly deadline: number;
  readonly tally: Tally;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The share of WebSocket calls whose socket is dropped while they run. */
const MID_CALL_DROP_RATE = 0.03;
const pause = () => sleep(100 + Math.random() * 900);
let nextTag = 0;

async function callCount(client: Client, tally: Tally): Promise<void> {
  const n = 1 + Math.floor(Math.random() * 8);
  const tag = `c${nextTag++}`;
  const progress: number[] = [];
  tally.calls++;
  const result = await client.callTool(
    { name: 'count', arguments: { n, tag } },
    { onProgress: ({ progress: step }) => progress.push(step) },
  );
  const first = result.content[0];
  checkCall(tally, n, tag, progress, first?.type === 'text' ? first.text : undefined);
}

/** An HTTP session whose SSE streams are cut at random (`rate` of them). */
export async function httpSession(plan: SessionPlan, cutRate: number, cuts: CutStats): Promise<void> {
  const client = new Client({ name: 'soak-http', version: '1.0.0' }, { requestTimeoutMs: 30_000 });
  const transport = new StreamableHttpClientTransport(new URL(plan.url), {
    fetch: cuttingFetch(cutRate, 1_500, cuts),
    reconnect: { maxAttempts: 10, initialDelayMs: 50 },
  });
  try {
    await client.connect(transport, { protocolVersion: '2025-11-25' });
  } catch (error) {
    noteError(plan.tally, error);
    return;
  }
  while (Date.now() < plan.deadline) {
    try {
      await callCount(client, plan.tally);
    } catch (error) {
      noteError(plan.tally, error);
    }
    await pause();
  }
  await client.close().catch((error: unknown) => noteError(plan.tally, error));
}

/** A `ws` WebSocket class whose instances a session can drop. */
function droppableWebSocket(sockets: Set<WebSocket>): WebSocketConstructor {
  class Droppable extends WebSocket {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      sockets.add(this);
      this.once('close', () => sockets.delete(this));
    }
  }
  return Droppable as unknown as WebSocketConstructor;
}

/** A failure caused by the connection going away (what a dropped socket does to the calls on it). */
function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  // ERR_WS_CONNECT: the socket was dropped while it was still opening.
  return code === 'ERR_CONNECTION_CLOSED' || code === 'ERR_NOT_CONNECTED' || code === 'ERR_WS_CONNECT';
}

/** A WebSocket session whose socket is dropped at random: about once every `meanDropMs`, and during 3 % of its calls. */
export async function wsSession(
  plan: SessionPlan,
  modern: boolean,
  meanDropMs: number,
  drops: CutStats,
): Promise<void> {
  const sockets = new Set<WebSocket>();
  const WebSocketClass = droppableWebSocket(sockets);
  let dropped = 0;
  const connect = async (): Promise<Client> => {
    const client = new Client({ name: 'soak-ws', version: '1.0.0' }, { requestTimeoutMs: 30_000 });
    await client.connect(new WebSocketClientTransport(plan.url, { WebSocket: WebSocketClass }), {
      protocolVersion: modern ? '2026-07-28' : '2025-11-25',
    });
    return client;
  };
  const drop = () => {
    for (const socket of sockets) {
      dropped++;
      drops.cuts++;
      socket.terminate();
    }
  };
  const dropper = setInterval(() => {
    if (Math.random() < 1_000 / meanDropMs) drop();
  }, 1_000);
  let client: Client | undefined;
  // Drops since the last call that went through: a failure after one of them is ours (even when the socket had not
  // reported its close yet when the call started), any other failure is an error.
  let seen = dropped;
  try {
    while (Date.now() < plan.deadline) {
      if (client !== undefined && !client.connected) {
        // Dropped between calls: nothing was in flight.
        await client.close().catch(() => undefined);
        client = undefined;
      }
      try {
        client ??= await connect();
        // Some calls lose their socket while they run, a few milliseconds in (the call takes up to ~80 ms).
        const midCall = Math.random() < MID_CALL_DROP_RATE ? setTimeout(drop, Math.random() * 40) : undefined;
        await callCount(client, plan.tally).finally(() => clearTimeout(midCall));
        seen = dropped;
      } catch (error) {
        if (dropped !== seen && isConnectionLoss(error)) {
          seen = dropped;
          // Our own drop: the call failed with a connection error, as it must. Connect again and go on.
          plan.tally.interrupted++;
        } else {
          noteError(plan.tally, error);
        }
        await client?.close().catch(() => undefined);
        client = undefined;
      }
      await pause();
    }
  } finally {
    clearInterval(dropper);
    await client?.close().catch(() => undefined);
  }
}
