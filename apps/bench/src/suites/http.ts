// Issue 7 metric 3 (and 7 over HTTP): per implementation and mode, one server process; its own SDK client at 1, 16
// and 64 sessions (the floor: the raw client on the raw server), the 10 MB `big` result in stateful JSON mode, then
// "server alone": the SDK-free raw client at 16 sessions with the server's CPU per call.
import type { NetworkImplementation as Implementation } from '../build';
import type { ConcurrentConfig, HttpMode } from '../drivers/concurrent';
import { ALONE_TARGETS, HTTP_LEVELS, HTTP_MODES } from '../metrics';
import { addSample } from '../report';
import { runConcurrentProcess, startNetworkServer } from '../run';
import { recorded, type SuiteContext } from './context';

const ALONE_SESSIONS = 16;

/** The modes `name` runs (the official v1 SDK does not speak 2026-07-28). */
export function modesOf(name: Implementation): HttpMode[] {
  return HTTP_MODES.filter((mode) => !(name === 'official-v1' && mode === 'modern'));
}

/** Runs the HTTP metrics of `name` for one round. */
export async function httpRound(context: SuiteContext, name: Implementation, round: number): Promise<void> {
  const { groups } = context;
  for (const mode of modesOf(name)) {
    const throughput = groups.includes('http');
    const big = groups.includes('large') && mode === 'stateful-json';
    const alone = groups.includes('http-alone') && ALONE_TARGETS[mode] !== undefined;
    if (!throughput && !big && !alone) continue;
    await recorded(context, `http-${mode}`, name, round, () =>
      httpModeRun(context, name, mode, round, { throughput, big, alone }),
    );
  }
}

async function httpModeRun(
  context: SuiteContext,
  name: Implementation,
  mode: HttpMode,
  round: number,
  what: { throughput: boolean; big: boolean; alone: boolean },
): Promise<void> {
  const { runnables, counts, samples, log } = context;
  const pair = runnables.http[name];
  const server = await startNetworkServer(pair.server, ['--mode', mode]);
  try {
    const base: ConcurrentConfig = {
      url: server.url,
      mode,
      serverPid: server.pid,
      cpuFile: server.cpuFile,
      levels: [],
      warmupCalls: counts.networkWarmupCalls,
      durationMs: counts.networkDurationMs,
      deadlineMs: counts.deadlineMs,
    };
    const parts: string[] = [];
    if (what.throughput || what.big) {
      const result = await runConcurrentProcess(pair.driver, {
        ...base,
        levels: what.throughput ? [...HTTP_LEVELS] : [],
        ...(what.big
          ? { big: { bytes: counts.largeBytes, calls: counts.largeCalls, timeoutMs: counts.largeTimeoutMs } }
          : {}),
      });
      for (const level of result.levels) {
        addSample(samples, `http-${mode}-${level.sessions}-calls-per-s`, name, level.callsPerSec);
        addSample(samples, `http-${mode}-${level.sessions}-p99-us`, name, level.p99Us);
        if (level.sessions === 16) {
          addSample(samples, `http-${mode}-16-server-cpu-us`, name, level.serverCpuUsPerCall);
          addSample(samples, `http-${mode}-16-client-cpu-us`, name, level.clientCpuUsPerCall);
        }
        parts.push(`${level.sessions}: ${Math.round(level.callsPerSec)}/s`);
        // The floor's own client is the raw client: its 16-session run is its "server alone" figure.
        if (name === 'raw' && what.alone && level.sessions === ALONE_SESSIONS) {
          addSample(samples, `http-alone-${mode}-server-cpu-us`, name, level.serverCpuUsPerCall);
          addSample(samples, `http-alone-${mode}-calls-per-s`, name, level.callsPerSec);
        }
      }
      if (result.big?.error !== undefined)
        context.failures.push({ metric: 'http-big-ms', implementation: name, round, error: result.big.error });
      else if (result.big) {
        addSample(samples, 'http-big-ms', name, result.big.ms);
        parts.push(`big ${Math.round(result.big.ms)} ms`);
      }
      if (result.truncated.length > 0)
        log(`  ${name} ${mode}: stopped at the deadline in ${result.truncated.join(', ')}`);
    }
    if (what.alone && !(name === 'raw' && what.throughput)) {
      const result = await runConcurrentProcess(runnables.http.raw.driver, { ...base, levels: [ALONE_SESSIONS] });
      const level = result.levels[0];
      if (level === undefined) throw new Error('server alone: the raw client measured nothing');
      addSample(samples, `http-alone-${mode}-server-cpu-us`, name, level.serverCpuUsPerCall);
      addSample(samples, `http-alone-${mode}-calls-per-s`, name, level.callsPerSec);
      parts.push(`alone ${Math.round(level.serverCpuUsPerCall)} µs/call`);
    }
    log(`  round ${round} ${name} http ${mode}: ${parts.join(', ')}`);
  } finally {
    await server.stop();
  }
}
