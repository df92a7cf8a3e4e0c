import { createServer, type Server as NodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerSession } from '@mcpkit/server';
import { z } from 'zod';
import {
  createStreamableHttpHandler,
  type EventStore,
  InMemoryEventStore,
  type StreamableHttpHandlerOptions,
  withCors,
} from '../../src/index';
import { toNodeHandler } from '../../src/node/node-handler';
import { type CutPlan, type CutProxy, exchange, type ReceivedEvent, startCutProxy } from './cut-proxy';
import { ACCEPT, LEGACY, type Loose, makeServer, request } from './harness';
import type { Random } from './random';

// Randomised cut-point trials: a legacy-era client whose connection is cut at a random byte of an SSE stream resumes
// with GET + Last-Event-ID (cut again, at random, on some of the resumptions) until it holds the whole stream, and
// then must hold every message exactly once, in order. Each lane is one server behind its own cutting proxy; lanes
// run side by side.

/** One server behind one proxy. */
export interface Lane {
  readonly serverPort: number;
  readonly proxy: CutProxy;
  readonly sessions: () => ReadonlySet<ServerSession>;
  close(): Promise<void>;
}

/** What one trial saw. */
export interface TrialOutcome {
  readonly lost: number;
  readonly duplicated: number;
  /** Resumptions it took. */
  readonly resumes: number;
  /** Why it failed, for the assertion message. */
  readonly problem: string | undefined;
}

const NO_CUT: CutPlan = { bytes: undefined, afterFirstEvent: false };
const MAX_RESUMES = 12;

/**
 * Starts a server with a `burst` tool (`count` progress notifications, optionally one per event-loop turn, then the
 * result) behind a cutting proxy. `web` routes answers through the web `Response` path of the node adapter (a CORS
 * wrapper hides the fast path), otherwise the fast path writes them.
 */
export async function startLane(web: boolean, options: StreamableHttpHandlerOptions = {}): Promise<Lane> {
  const made = makeServer();
  made.server.registerTool(
    'burst',
    { inputSchema: z.object({ count: z.number().int().min(1).max(100), paced: z.boolean() }) },
    async ({ count, paced }, ctx) => {
      for (let step = 1; step <= count; step++) {
        await ctx.progress(step, count);
        if (paced) await new Promise((resolve) => setImmediate(resolve));
      }
      return { content: [{ type: 'text', text: `burst ${count}` }] };
    },
  );
  const handler = createStreamableHttpHandler(made.server, { keepAliveMs: 0, retryMs: 10, ...options });
  const listener = toNodeHandler(web ? withCors(handler, { origin: '*' }) : handler);
  const server: NodeServer = createServer((req, res) => void listener(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const serverPort = (server.address() as AddressInfo).port;
  const proxy = await startCutProxy(serverPort);
  return {
    serverPort,
    proxy,
    sessions: () => made.server.sessions,
    async close() {
      await proxy.close();
      await handler.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The in-memory store behind promises that settle a few turns later, as a remote store's would: the handler must keep
 * events in order and lose none when every store call is asynchronous.
 */
export function asyncEventStore(): EventStore {
  const inner = new InMemoryEventStore();
  const later = <T>(value: () => T): Promise<T> =>
    new Promise((resolve) => setTimeout(() => resolve(value()), Math.random() < 0.5 ? 0 : 1));
  return {
    append: (sessionId, streamId, event) => later(() => inner.append(sessionId, streamId, event)),
    replayAfter: (sessionId, streamId, afterSeq) => later(() => inner.replayAfter(sessionId, streamId, afterSeq)),
    deleteSession: (sessionId) => later(() => inner.deleteSession(sessionId)),
  };
}

const POST_HEADERS = { 'content-type': 'application/json', accept: ACCEPT };

/** A legacy session opened directly on the server (not through the proxy). */
export async function openSession(port: number): Promise<string> {
  const init = await exchange(port, 'POST', POST_HEADERS, {
    body: JSON.stringify(
      request('initialize', { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'cut', version: '1' } }),
    ),
  });
  const sessionId = init.headers['mcp-session-id'];
  if (init.status !== 200 || typeof sessionId !== 'string') throw new Error(`initialize answered ${init.status}`);
  const headers = { ...POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY };
  const initialized = await exchange(port, 'POST', headers, {
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
  return sessionId;
}

function sessionHeaders(sessionId: string): Record<string, string> {
  return { 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY };
}

function lastEventId(events: readonly ReceivedEvent[]): string | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const id = events[index]!.id;
    if (id !== undefined) return id;
  }
  return undefined;
}

function messagesOf(events: readonly ReceivedEvent[]): Loose[] {
  return events.filter((event) => event.data !== '').map((event) => JSON.parse(event.data));
}

/**
 * Counts losses and duplicates of a numbered sequence `1..count` (`numbers`, in arrival order) plus, for a POST
 * stream, its one response.
 */
function tally(numbers: number[], count: number, responses: number | undefined, resumes: number): TrialOutcome {
  const seen = new Map<number, number>();
  for (const number of numbers) seen.set(number, (seen.get(number) ?? 0) + 1);
  let lost = 0;
  let duplicated = 0;
  for (let step = 1; step <= count; step++) {
    const times = seen.get(step) ?? 0;
    if (times === 0) lost++;
    else duplicated += times - 1;
  }
  if (responses !== undefined) {
    if (responses === 0) lost++;
    else duplicated += responses - 1;
  }
  const ordered = numbers.every((number, index) => index === 0 || number > numbers[index - 1]!);
  const problem =
    lost > 0 || duplicated > 0 || !ordered || seen.size !== new Set(numbers).size
      ? `expected 1..${count}${responses === undefined ? '' : ' and the response'}, got [${numbers.join(',')}]${responses === undefined ? '' : ` and ${responses} response(s)`} after ${resumes} resumption(s)`
      : undefined;
  return { lost, duplicated, resumes, problem };
}

/** Resumes from the last event id until `done`, cutting the first resumptions at random too. */
async function resumeUntil(
  lane: Lane,
  random: Random,
  sessionId: string,
  events: ReceivedEvent[],
  done: (events: readonly ReceivedEvent[]) => boolean,
  bytesHint: number,
): Promise<{ resumes: number; problem: string | undefined }> {
  let resumes = 0;
  while (!done(events)) {
    if (resumes === MAX_RESUMES) return { resumes, problem: `still incomplete after ${MAX_RESUMES} resumptions` };
    const from = lastEventId(events);
    if (from === undefined) return { resumes, problem: 'no event id to resume from' };
    lane.proxy.next =
      resumes < MAX_RESUMES / 2 && random.next() < 0.5
        ? { bytes: random.int(0, bytesHint), afterFirstEvent: false }
        : NO_CUT;
    resumes++;
    const resumed = await exchange(
      lane.proxy.port,
      'GET',
      { accept: 'text/event-stream', ...sessionHeaders(sessionId), 'last-event-id': from },
      { until: done, timeoutMs: 2_000 },
    );
    if (resumed.status !== 200 && resumed.status !== 0) {
      return { resumes, problem: `resuming after ${from} answered ${resumed.status}` };
    }
    events.push(...resumed.events);
  }
  return { resumes, problem: undefined };
}

/** One trial on a POST response stream: a `burst` call cut after a random number of bytes past its priming event. */
export async function postStreamTrial(
  lane: Lane,
  random: Random,
  sessionId: string,
  tag: string,
): Promise<TrialOutcome> {
  const count = random.int(1, 30);
  const paced = random.next() < 0.5;
  // ~150 bytes per progress event, ~200 for the response: cut points cover the whole stream and a little past it.
  const bytesHint = count * 150 + 250;
  lane.proxy.next = { bytes: random.int(0, bytesHint), afterFirstEvent: true };
  const call = request(
    'tools/call',
    { name: 'burst', arguments: { count, paced }, _meta: { progressToken: tag } },
    tag,
  );
  const first = await exchange(
    lane.proxy.port,
    'POST',
    { ...POST_HEADERS, ...sessionHeaders(sessionId) },
    {
      body: JSON.stringify(call),
    },
  );
  if (first.status !== 200) return { lost: 0, duplicated: 0, resumes: 0, problem: `POST answered ${first.status}` };
  const events = [...first.events];
  const answered = (all: readonly ReceivedEvent[]) => messagesOf(all).some((message) => message.id === tag);
  const resumed = await resumeUntil(lane, random, sessionId, events, answered, bytesHint);
  const messages = messagesOf(events);
  const progress = messages
    .filter((message) => message.method === 'notifications/progress' && message.params.progressToken === tag)
    .map((message) => message.params.progress as number);
  const outcome = tally(progress, count, messages.filter((message) => message.id === tag).length, resumed.resumes);
  return resumed.problem === undefined || outcome.problem !== undefined
    ? outcome
    : { ...outcome, problem: resumed.problem };
}

/**
 * One trial on the standalone GET stream of a new session: once its priming event arrived, the server sends `count`
 * notifications on it, and the connection is cut after a random number of bytes past the priming event.
 */
export async function getStreamTrial(lane: Lane, random: Random, tag: string): Promise<TrialOutcome> {
  const sessionId = await openSession(lane.serverPort);
  const session = [...lane.sessions()].find(
    (candidate) => (candidate.transport as { sessionId?: string } | undefined)?.sessionId === sessionId,
  );
  if (session === undefined) throw new Error(`no server session ${sessionId}`);
  const count = random.int(1, 30);
  const paced = random.next() < 0.5;
  const bytesHint = count * 120 + 100;
  let sending: Promise<void> | undefined;
  const send = async () => {
    for (let step = 1; step <= count; step++) {
      await session.notify('notifications/message', { level: 'info', data: { tag, step } });
      if (paced) await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const steps = (all: readonly ReceivedEvent[]) =>
    messagesOf(all)
      .filter((message) => message.method === 'notifications/message' && message.params.data.tag === tag)
      .map((message) => message.params.data.step as number);
  const done = (all: readonly ReceivedEvent[]) => steps(all).includes(count);
  lane.proxy.next = { bytes: random.int(0, bytesHint), afterFirstEvent: true };
  const first = await exchange(
    lane.proxy.port,
    'GET',
    { accept: 'text/event-stream', ...sessionHeaders(sessionId) },
    {
      onEvent: () => {
        sending ??= send();
      },
      until: done,
      timeoutMs: 2_000,
    },
  );
  if (first.status !== 200 || sending === undefined) {
    return { lost: 0, duplicated: 0, resumes: 0, problem: `GET answered ${first.status} without a priming event` };
  }
  const events = [...first.events];
  // Resumed while the server may still be sending: live events then race the replay.
  const resumed = await resumeUntil(lane, random, sessionId, events, done, bytesHint);
  await sending;
  await exchange(lane.serverPort, 'DELETE', sessionHeaders(sessionId));
  const outcome = tally(steps(events), count, undefined, resumed.resumes);
  return resumed.problem === undefined || outcome.problem !== undefined
    ? outcome
    : { ...outcome, problem: resumed.problem };
}

/** Runs `trials` trials over `lanes` lanes side by side and sums them up. */
export async function runTrials(
  lanes: readonly Lane[],
  trials: number,
  trial: (lane: Lane, index: number) => Promise<TrialOutcome>,
): Promise<{ lost: number; duplicated: number; resumes: number; problems: string[] }> {
  const totals = { lost: 0, duplicated: 0, resumes: 0, problems: [] as string[] };
  let next = 0;
  await Promise.all(
    lanes.map(async (lane) => {
      while (next < trials) {
        const index = next++;
        const outcome = await trial(lane, index);
        totals.lost += outcome.lost;
        totals.duplicated += outcome.duplicated;
        totals.resumes += outcome.resumes;
        if (outcome.problem !== undefined) totals.problems.push(`trial ${index}: ${outcome.problem}`);
      }
    }),
  );
  return totals;
}
