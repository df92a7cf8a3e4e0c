// Issue 7 metrics 1, 2, 5 and 7 over stdio: one driver process per implementation and round (sequential, pipelined,
// the `big` result), then the cold starts.
import type { Implementation } from '../build';
import type { Phase } from '../drivers/drive';
import { addSample } from '../report';
import { coldStart, runDriverProcess } from '../run';
import { recorded, type SuiteContext } from './context';

const IN_FLIGHT = 64;

/** Runs the stdio metrics of `name` for one round. */
export async function stdioRound(context: SuiteContext, name: Implementation, round: number): Promise<void> {
  const { runnables, counts, groups, samples, log } = context;
  const { server, driver } = runnables.stdio[name];
  const phases: Phase[] = [];
  if (groups.includes('stdio-seq')) phases.push('seq');
  if (groups.includes('stdio-pipe')) phases.push('pipe');
  if (groups.includes('large')) phases.push('large');
  if (phases.length > 0) {
    await recorded(context, 'stdio', name, round, async () => {
      const result = await runDriverProcess(driver, { phases, inFlight: IN_FLIGHT, ...counts }, server);
      if (result.truncated.length > 0) log(`  ${name}: stopped at the deadline in ${result.truncated.join(', ')}`);
      if (result.seq) {
        addSample(samples, 'stdio-seq-calls-per-s', name, result.seq.callsPerSec);
        addSample(samples, 'stdio-seq-p50-us', name, result.seq.p50Us);
        addSample(samples, 'stdio-seq-p99-us', name, result.seq.p99Us);
        addSample(samples, 'stdio-seq-server-cpu-us', name, result.seq.serverCpuUsPerCall);
        addSample(samples, 'stdio-seq-client-cpu-us', name, result.seq.clientCpuUsPerCall);
      }
      if (result.pipe) addSample(samples, 'stdio-pipelined-calls-per-s', name, result.pipe.callsPerSec);
      if (result.large?.error !== undefined)
        context.failures.push({ metric: 'stdio-big-ms', implementation: name, round, error: result.large.error });
      else if (result.large) addSample(samples, 'stdio-big-ms', name, result.large.ms);
      const parts = [
        result.seq && `${Math.round(result.seq.callsPerSec)} seq calls/s`,
        result.pipe && `${Math.round(result.pipe.callsPerSec)} pipelined calls/s`,
        result.large && !result.large.error && `big ${Math.round(result.large.ms)} ms`,
      ];
      log(`  round ${round} ${name} stdio: ${parts.filter(Boolean).join(', ') || 'done'}`);
    });
  }
  if (groups.includes('cold-start')) {
    await recorded(context, 'cold-start-ms', name, round, async () => {
      // The median of this round's starts is the round's sample.
      const starts: number[] = [];
      for (let i = 0; i < counts.coldStarts; i++) starts.push(await coldStart(server));
      starts.sort((a, b) => a - b);
      addSample(samples, 'cold-start-ms', name, starts[starts.length >> 1] as number);
    });
  }
}
