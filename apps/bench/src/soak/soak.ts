// The soak (issue 12; not part of the test suite): many sessions calling for a while with random disconnects and
// resumptions, over Streamable HTTP and WebSocket, against one server in a child process. Reports, per transport,
// errors (expected 0), messages lost or duplicated (expected 0), and the server's heap after a full collection every
// 10 s and once the sessions are gone (expected flat).
//
//   pnpm --filter @mcpkit/app-bench soak                      1,000 sessions per transport, 60 s each
//   pnpm --filter @mcpkit/app-bench soak --sessions 100 --seconds 10 --only http
//   pnpm --filter @mcpkit/app-bench soak --help
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { CutStats } from './cutting-fetch';
import { newTally, type Tally } from './tally';

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '60' },
    only: { type: 'string' },
    'cut-rate': { type: 'string', default: '0.15' },
    'mean-drop-ms': { type: 'string', default: '15000' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(
    [
      'Usage: soak [options]',
      '',
      'Many sessions calling a tool for a while, with random disconnects and resumptions, over Streamable HTTP and',
      'WebSocket against one server in a child process. Exits 1 on any error, lost or duplicated message; reports',
      'the HTTP sessions left on the server after their clients closed.',
      '',
      'Options:',
      '  --sessions <n>        sessions per transport (default 1000)',
      '  --seconds <n>         how long each transport runs (default 60)',
      '  --only <http|ws>      run one transport only',
      '  --cut-rate <0..1>     share of HTTP SSE responses cut mid-stream (default 0.15)',
      '  --mean-drop-ms <ms>   mean time between WebSocket drops per session (default 15000)',
      '  -h, --help            this text',
      '',
    ].join('\n'),
  );
  process.exit(0);
}
// Loaded after the options are read, so `--help` works before the workspace is built.
const { httpSession, wsSession } = await import('./sessions');
const SESSIONS = Number(values.sessions);
const SECONDS = Number(values.seconds);
const MiB = 1024 * 1024;
const started = Date.now();
const log = (line: string) =>
  process.stderr.write(`${((Date.now() - started) / 1000).toFixed(1).padStart(6)}s ${line}\n`);

interface HeapReply {
  heapUsed: number;
  rss: number;
  httpSessions: number;
  wsConnections: number;
  problems: string[];
}

function startServer(): Promise<{ child: ChildProcess; http: string; ws: string }> {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'soak-server.ts');
  const child = spawn(process.execPath, ['--conditions=@mcpkit/source', '--import', 'tsx', '--expose-gc', script], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the soak server did not start within 30 s')), 30_000);
    child.stdout!.once('data', (chunk: Buffer) => {
      clearTimeout(timer);
      resolve({ child, ...JSON.parse(chunk.toString()) });
    });
    child.once('exit', (code) => reject(new Error(`the soak server exited with ${code}`)));
  });
}

function heapOf(child: ChildProcess): Promise<HeapReply> {
  return new Promise((resolve) => {
    const onMessage = (message: HeapReply & { type?: string }) => {
      if (message.type !== 'heap') return;
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
    child.send({ type: 'heap' });
  });
}

interface PhaseReport {
  transport: string;
  sessions: number;
  seconds: number;
  calls: number;
  ok: number;
  interrupted: number;
  errors: number;
  lost: number;
  duplicated: number;
  disconnects: number;
  /**
   * HTTP sessions still on the server once every client closed. Each close sends a DELETE and waits up to 5 s for it;
   * on a server too loaded to take it in time the session stays until its idle timeout.
   */
  sessionsLeft: number;
  errorSamples: string[];
  serverProblems: string[];
  /** Server heap after a full collection (MiB): before the sessions, every 10 s, and once they are gone. */
  heapMiB: { before: number; during: number[]; after: number };
  rssMiB: { before: number; peak: number; after: number };
}

async function phase(
  transport: 'http' | 'ws',
  child: ChildProcess,
  url: string,
  run: (plan: { url: string; deadline: number; tally: Tally }, index: number, stats: CutStats) => Promise<void>,
): Promise<PhaseReport> {
  const tally = newTally();
  const stats: CutStats = { cuts: 0 };
  const problems: string[] = [];
  const before = await heapOf(child);
  const start = Date.now();
  log(`${transport}: ${SESSIONS} sessions for ${SECONDS} s (server heap ${(before.heapUsed / MiB).toFixed(1)} MiB)`);
  // Sessions start over the first 5 s, so the handshakes do not all land at once, and each runs for SECONDS from its
  // own start, so they end (and close: one DELETE each) spread the same way. Clients do not all leave at one instant;
  // 1,000 DELETEs at once on this two-core machine met a full listen backlog, and the connections of a few hundred
  // did not open within close()'s 5 s.
  const sessions = Array.from({ length: SESSIONS }, (_, index) => {
    const offset = (index / SESSIONS) * 5_000;
    return new Promise((resolve) => setTimeout(resolve, offset)).then(() =>
      run({ url, deadline: start + offset + SECONDS * 1000, tally }, index, stats),
    );
  });
  const during: number[] = [];
  let peakRss = before.rss;
  const sampler = setInterval(() => {
    void heapOf(child).then((heap) => {
      during.push(heap.heapUsed);
      peakRss = Math.max(peakRss, heap.rss);
      problems.push(...heap.problems);
      log(
        `${transport}: ${tally.calls} calls, ${tally.ok} ok, ${tally.interrupted} interrupted, ${tally.errors} errors, ${tally.lost} lost, ${stats.cuts} disconnects; server heap ${(heap.heapUsed / MiB).toFixed(1)} MiB, ${heap.httpSessions} HTTP sessions, ${heap.wsConnections} WebSocket connections`,
      );
    });
  }, 10_000);
  await Promise.all(sessions);
  clearInterval(sampler);
  // Closing a client ends its session (DELETE) before `close()` resolves; the wait only lets the last writes land.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = await heapOf(child);
  problems.push(...after.problems);
  const mib = (bytes: number) => Math.round((bytes / MiB) * 10) / 10;
  return {
    transport,
    sessions: SESSIONS,
    seconds: SECONDS,
    calls: tally.calls,
    ok: tally.ok,
    interrupted: tally.interrupted,
    errors: tally.errors,
    lost: tally.lost,
    duplicated: tally.duplicated,
    disconnects: stats.cuts,
    sessionsLeft: transport === 'http' ? after.httpSessions : 0,
    errorSamples: tally.samples,
    serverProblems: problems.slice(0, 8),
    heapMiB: { before: mib(before.heapUsed), during: during.map(mib), after: mib(after.heapUsed) },
    rssMiB: { before: mib(before.rss), peak: mib(peakRss), after: mib(after.rss) },
  };
}

const server = await startServer();
const reports: PhaseReport[] = [];
try {
  if (values.only === undefined || values.only === 'http') {
    const rate = Number(values['cut-rate']);
    reports.push(
      await phase('http', server.child, server.http, (plan, _index, stats) => httpSession(plan, rate, stats)),
    );
  }
  if (values.only === undefined || values.only === 'ws') {
    const meanDropMs = Number(values['mean-drop-ms']);
    reports.push(
      await phase('ws', server.child, server.ws, (plan, index, stats) =>
        wsSession(plan, index % 2 === 0, meanDropMs, stats),
      ),
    );
  }
} finally {
  server.child.disconnect();
}
for (const report of reports) {
  log(
    `${report.transport}: ${report.calls} calls (${report.ok} ok, ${report.interrupted} interrupted by a drop, the session reconnected and went on), ${report.errors} errors, ${report.lost} lost, ${report.duplicated} duplicated, ${report.disconnects} disconnects, ${report.sessionsLeft} sessions left; server heap ${report.heapMiB.before} → [${report.heapMiB.during.join(', ')}] → ${report.heapMiB.after} MiB`,
  );
}
process.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
// Sessions left are reported, not failed on: a client's close() gives its DELETE 5 s, and on a machine too loaded to
// answer within that the session stays until its idle timeout (see the transport-http README, "Closing a client").
const failed = reports.some((report) => report.errors > 0 || report.lost > 0 || report.duplicated > 0);
process.exitCode = failed ? 1 : 0;
