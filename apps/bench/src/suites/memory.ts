// Issue 7 metric 4: heap and RSS growth per idle HTTP session. One fresh server per implementation and round (run
// with --expose-gc, stateful SSE mode: each SDK's default stateful setup), the raw client opens the sessions
// (`initialize` + `notifications/initialized`, kept open, no GET stream), and the server reports memory after a GC.
import type { NetworkImplementation as Implementation } from '../build';
import { addSample } from '../report';
import { runConcurrentProcess, startNetworkServer } from '../run';
import { recorded, type SuiteContext } from './context';

/** Runs the memory metric of `name` for one round. */
export async function memoryRound(context: SuiteContext, name: Implementation, round: number): Promise<void> {
  const { runnables, counts, samples, log } = context;
  await recorded(context, 'memory-idle-session', name, round, async () => {
    const server = await startNetworkServer(runnables.http[name].server, ['--mode', 'stateful-sse'], true);
    try {
      const result = await runConcurrentProcess(runnables.http.raw.driver, {
        url: server.url,
        mode: 'stateful-sse',
        serverPid: server.pid,
        cpuFile: server.cpuFile,
        levels: [],
        warmupCalls: 0,
        durationMs: 0,
        memorySessions: counts.memorySessions,
        deadlineMs: counts.deadlineMs,
      });
      if (result.memory === undefined) throw new Error('the memory run reported nothing');
      if (result.memory.sessions < counts.memorySessions)
        log(
          `  ${name}: opened only ${result.memory.sessions} of ${counts.memorySessions} sessions before the deadline`,
        );
      addSample(samples, 'memory-idle-session-heap-bytes', name, result.memory.heapBytesPerSession);
      addSample(samples, 'memory-idle-session-rss-bytes', name, result.memory.rssBytesPerSession);
      log(
        `  round ${round} ${name} memory: ${Math.round(result.memory.heapBytesPerSession)} B heap, ` +
          `${Math.round(result.memory.rssBytesPerSession)} B RSS per session`,
      );
    } finally {
      await server.stop();
    }
  });
}
