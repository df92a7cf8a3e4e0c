// The measuring half of the HTTP and WebSocket bench clients: N sessions, each making sequential `echo` calls for a
// bounded time (issue 7 metrics 3 and 8), optionally a window of calls pipelined on one session, a large `big` result
// (metric 7), and memory per idle session (metric 4). Each client file only says how to open one session; this module
// runs the phases the same way for all of them, in a process of its own, and prints one JSON line. Every loop is
// bounded by a count or a time, and the whole run by a deadline.
import type { ServerReport } from '../servers/cpu-report';
import { boundedBig, quantile, window } from './drive';
import { readServerReport } from './server-report';

/** One client session on the server under test. */
export interface Session {
  /** Calls `echo` with `text` and resolves with the text content the server returned. */
  call(text: string): Promise<string>;
  /** Calls `big` with `bytes` and resolves with the text content the server returned. */
  big(bytes: number): Promise<string>;
  close(): Promise<void>;
}

/** The HTTP modes of issue 7 metric 3 (`modern`: 2026-07-28, stateless by design). */
export type HttpMode = 'stateful-json' | 'stateful-sse' | 'stateless' | 'modern';

/** The run, passed by the bench as one JSON argument. */
export interface ConcurrentConfig {
  /** Where the server listens (`http://…/mcp` or `ws://…/mcp`). */
  url: string;
  mode: HttpMode;
  /** The server process, to read its CPU (and memory) through its SIGUSR2 reporter. */
  serverPid: number;
  cpuFile: string;
  /** Session counts to measure, ascending; each level adds sessions to those of the level before. */
  levels: number[];
  /** Sequential calls per session of the first level before measuring (sessions joining later make 2). */
  warmupCalls: number;
  /** How long each level measures. */
  durationMs: number;
  /**
   * `inFlight` calls at a time on the first session of the levels (WebSocket): `warmupCalls` unmeasured, then `calls`
   * measured. The bench passes the stdio pipelined phase's counts, so that the two transports are measured alike.
   */
  pipelined?: { inFlight: number; warmupCalls: number; calls: number };
  /** `big` calls on one session: one unmeasured, then `calls` measured. */
  big?: { bytes: number; calls: number; timeoutMs: number };
  /** Open this many sessions, keep them, and report the server's heap and RSS growth per session. */
  memorySessions?: number;
  /** The ws module's path (the WebSocket client loads its `WebSocket` class from it; see workspace-fallback.ts). */
  wsModule?: string;
  /** The whole run stops its loops at this many ms. */
  deadlineMs: number;
}

export interface LevelResult {
  sessions: number;
  calls: number;
  callsPerSec: number;
  p50Us: number;
  p99Us: number;
  serverCpuUsPerCall: number;
  clientCpuUsPerCall: number;
}

export interface ConcurrentResult {
  levels: LevelResult[];
  pipelined?: {
    inFlight: number;
    calls: number;
    callsPerSec: number;
    /** Not in the report: what an A/B of a hot-path change reads (steadier than calls/s on a loaded machine). */
    clientCpuUsPerCall: number;
    serverCpuUsPerCall: number;
  };
  big?: { calls: number; ms: number; error?: string };
  memory?: { sessions: number; heapBytesPerSession: number; rssBytesPerSession: number };
  /** A phase that stopped at the deadline. */
  truncated: string[];
}

const SMALL_TEXT = 'hello, bench';

/** Runs the phases in `process.argv[2]`'s config with sessions from `open` and writes the result to stdout. */
export async function runConcurrentDriver(open: (config: ConcurrentConfig) => Promise<Session>): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as ConcurrentConfig;
  const deadline = performance.now() + config.deadlineMs;
  const result: ConcurrentResult = { levels: [], truncated: [] };
  const report = () => readServerReport(config.serverPid, config.cpuFile);
  if (config.memorySessions !== undefined) {
    result.memory = await memoryPerSession(open, config, report, deadline, result);
  }
  // Levels grow one pool of sessions (1, then 16, then 64 share their first sessions): fewer handshakes, and each
  // session is warmed up once when it joins.
  const pool: Session[] = [];
  try {
    for (const level of config.levels) {
      if (performance.now() > deadline) {
        result.truncated.push(`level ${level}`);
        break;
      }
      const joined = await openMany(open, config, level - pool.length);
      // The first sessions warm the code up; later ones only need their own first calls done.
      const warmup = pool.length === 0 ? config.warmupCalls : Math.min(2, config.warmupCalls);
      pool.push(...joined);
      await Promise.all(
        joined.map(async (session) => {
          for (let i = 0; i < warmup && performance.now() < deadline; i++) await checkedCall(session, SMALL_TEXT);
        }),
      );
      // The same load, unmeasured, first: what is measured is the steady state of this level, not the engine still
      // compiling the code the level newly runs hot (a large client pays that for longer than a small one).
      await settle(pool.slice(0, level), Math.min(config.durationMs / 2, LEVEL_SETTLE_MS), deadline);
      result.levels.push(await measureLevel(pool.slice(0, level), config, report, deadline));
    }
    if (config.pipelined !== undefined) {
      // On the session that ran the warm-up and every level, as stdio pipelines on the connection of its sequential
      // phase: a fresh connection would add its own first calls to what the window measures.
      if (pool.length === 0) pool.push(await open(config));
      result.pipelined = await pipelined(pool[0] as Session, config.pipelined, report, deadline, result);
    }
  } finally {
    await closeAll(pool);
  }
  if (config.big !== undefined) {
    const session = await open(config);
    try {
      result.big = await big(session, config.big, deadline, result);
    } finally {
      await closeAll([session]);
    }
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
  // Some SDK clients leave timers, sockets or streams behind after close; the figures are out, so leave now.
  process.exit(0);
}

/** Closes sessions, waiting at most 5 s: a client that hangs on close must not lose the figures. */
async function closeAll(sessions: Session[]): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, 5_000);
  });
  await Promise.race([Promise.allSettled(sessions.map((session) => session.close())), bound]);
  clearTimeout(timer);
}

async function checkedCall(session: Session, text: string): Promise<void> {
  const echoed = await session.call(text);
  if (echoed !== text) throw new Error(`echo returned ${echoed.length} chars, expected ${text.length}`);
}

/** The longest unmeasured run before each level (half the level's duration when that is shorter). */
const LEVEL_SETTLE_MS = 500;

/** Every session makes sequential calls for `ms`, unmeasured. */
async function settle(sessions: Session[], ms: number, deadline: number): Promise<void> {
  const stopAt = Math.min(performance.now() + ms, deadline);
  await Promise.all(
    sessions.map(async (session) => {
      while (performance.now() < stopAt) await checkedCall(session, SMALL_TEXT);
    }),
  );
}

async function measureLevel(
  sessions: Session[],
  config: ConcurrentConfig,
  report: () => Promise<ServerReport>,
  deadline: number,
): Promise<LevelResult> {
  // Latencies of every session, in one growing buffer (no per-call allocation while measuring).
  let latencies = new Float64Array(4096);
  let calls = 0;
  const serverBefore = await report();
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  const stopAt = Math.min(started + config.durationMs, deadline);
  await Promise.all(
    sessions.map(async (session) => {
      while (true) {
        const t0 = performance.now();
        if (t0 >= stopAt) return;
        await checkedCall(session, SMALL_TEXT);
        if (calls === latencies.length) {
          const grown = new Float64Array(latencies.length * 2);
          grown.set(latencies);
          latencies = grown;
        }
        latencies[calls++] = performance.now() - t0;
      }
    }),
  );
  const elapsed = performance.now() - started;
  const client = process.cpuUsage(clientBefore);
  const serverAfter = await report();
  const sorted = latencies.subarray(0, calls).sort();
  return {
    sessions: sessions.length,
    calls,
    callsPerSec: (calls / elapsed) * 1000,
    p50Us: quantile(sorted, 0.5) * 1000,
    p99Us: quantile(sorted, 0.99) * 1000,
    serverCpuUsPerCall: (serverAfter.user + serverAfter.system - serverBefore.user - serverBefore.system) / calls,
    clientCpuUsPerCall: (client.user + client.system) / calls,
  };
}

/** Opens `count` sessions, at most 8 handshakes at a time (64 at once would measure connection storms). */
async function openMany(
  open: (config: ConcurrentConfig) => Promise<Session>,
  config: ConcurrentConfig,
  count: number,
): Promise<Session[]> {
  const sessions: Session[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      next++;
      sessions.push(await open(config));
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, count) }, worker));
  return sessions;
}

/**
 * The stdio pipelined phase (drive.ts) on a WebSocket session, with the same counts and the same `window`: the window
 * unmeasured first (the levels before made sequential calls only, so the code of many calls in flight on one
 * connection is not compiled yet), then a count of calls rather than a time, so both transports are measured over as
 * many calls after as long a warm-up, on a connection that has already run sequential calls.
 */
async function pipelined(
  session: Session,
  options: NonNullable<ConcurrentConfig['pipelined']>,
  report: () => Promise<ServerReport>,
  deadline: number,
  result: ConcurrentResult,
): Promise<NonNullable<ConcurrentResult['pipelined']>> {
  await window(session, options.inFlight, options.warmupCalls, deadline);
  const serverBefore = await report();
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  const calls = await window(session, options.inFlight, options.calls, deadline);
  const elapsed = performance.now() - started;
  const client = process.cpuUsage(clientBefore);
  const serverAfter = await report();
  if (calls < options.calls) result.truncated.push('pipelined');
  return {
    inFlight: options.inFlight,
    calls,
    callsPerSec: (calls / elapsed) * 1000,
    clientCpuUsPerCall: (client.user + client.system) / calls,
    serverCpuUsPerCall: (serverAfter.user + serverAfter.system - serverBefore.user - serverBefore.system) / calls,
  };
}

async function big(
  session: Session,
  options: NonNullable<ConcurrentConfig['big']>,
  deadline: number,
  result: ConcurrentResult,
): Promise<NonNullable<ConcurrentResult['big']>> {
  const times: number[] = [];
  try {
    // One unmeasured call first: the first large message grows buffers that every later one reuses.
    await boundedBig(session, options.bytes, options.timeoutMs);
    for (let i = 0; i < options.calls && performance.now() < deadline; i++) {
      const t0 = performance.now();
      await boundedBig(session, options.bytes, options.timeoutMs);
      times.push(performance.now() - t0);
    }
  } catch (error) {
    return { calls: 0, ms: Number.NaN, error: error instanceof Error ? error.message : String(error) };
  }
  if (times.length < options.calls) result.truncated.push('big');
  times.sort((a, b) => a - b);
  return { calls: times.length, ms: quantile(times, 0.5) };
}

/** Sessions opened and closed before measuring (see memoryPerSession). */
const MEMORY_WARMUP_SESSIONS = 50;
/** How long {@link settledReport} waits for a closed session's heap to be released: reads, and the time between them. */
const MEMORY_SETTLE_READS = 10;
const MEMORY_SETTLE_INTERVAL_MS = 50;

/**
 * A server report once its heap has stopped shrinking: a closed session's sockets and streams are released a little
 * after `close` resolves, later still on a loaded machine, and a `before` taken while they were still held made a
 * short run's heap per session read below zero (a CI run of the quick mode read -1,640 B with 50 sessions). At most
 * 10 reads, 50 ms apart; a read that is not at least 1 KiB below the one before ends the wait.
 */
async function settledReport(report: () => Promise<ServerReport>): Promise<ServerReport> {
  let last = await report();
  for (let read = 1; read < MEMORY_SETTLE_READS; read++) {
    await new Promise((resolve) => setTimeout(resolve, MEMORY_SETTLE_INTERVAL_MS));
    const next = await report();
    if (next.heapUsed > last.heapUsed - 1024) return next;
    last = next;
  }
  return last;
}

async function memoryPerSession(
  open: (config: ConcurrentConfig) => Promise<Session>,
  config: ConcurrentConfig,
  report: () => Promise<ServerReport>,
  deadline: number,
  result: ConcurrentResult,
): Promise<NonNullable<ConcurrentResult['memory']>> {
  const count = config.memorySessions ?? 0;
  // Sessions opened and closed first, so lazily built server state (compiled validators, caches) and the code the
  // engine optimises while sessions are opened are not counted as session heap; every implementation gets the same.
  const warmup: Session[] = [];
  for (let i = 0; i < MEMORY_WARMUP_SESSIONS && performance.now() < deadline; i++) warmup.push(await open(config));
  await closeAll(warmup);
  const before = await settledReport(report);
  const sessions: Session[] = [];
  while (sessions.length < count && performance.now() < deadline) sessions.push(await open(config));
  if (sessions.length < count) result.truncated.push('memory');
  const after = await report();
  const opened = sessions.length;
  await closeAll(sessions);
  return {
    sessions: opened,
    heapBytesPerSession: (after.heapUsed - before.heapUsed) / opened,
    rssBytesPerSession: (after.rss - before.rss) / opened,
  };
}
