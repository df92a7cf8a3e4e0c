// Issue 7 metrics 1, 2, 5 and 7 over stdio: one driver process per setup (implementation × schema style) and round
// (sequential, pipelined, the `big` result), then the cold starts. The zod style's figures go to the metrics of the
// same id with `-zod`; the floor's one run counts for both styles.
import type { Implementation, Schemas, StdioSetup } from '../build';
import type { Phase } from '../drivers/drive';
import { addSample } from '../report';
import { coldStart, runDriverProcess } from '../run';
import { recorded, type SuiteContext } from './context';

const IN_FLIGHT = 64;

/** The metric id of `base` in a schema style. */
export function styled(base: string, schemas: Schemas): string {
  return schemas === 'zod' ? `${base}-zod` : base;
}

/** Runs the stdio metrics of every setup of `name` for one round. */
export async function stdioRound(context: SuiteContext, name: Implementation, round: number): Promise<void> {
  for (const setup of context.runnables.stdio[name]) await setupRound(context, setup, round);
}

async function setupRound(context: SuiteContext, setup: StdioSetup & { both: boolean }, round: number) {
  const { counts, groups, samples, log } = context;
  const { implementation: name, server, driver, schemas } = setup;
  const styles: Schemas[] = setup.both ? ['json', 'zod'] : [schemas];
  const add = (base: string, value: number) => {
    for (const style of styles) addSample(samples, styled(base, style), name, value);
  };
  const label = `${name}${schemas === 'zod' && !setup.both ? ' (zod)' : ''}`;
  const phases: Phase[] = [];
  if (groups.includes('stdio-seq')) phases.push('seq');
  if (groups.includes('stdio-pipe')) phases.push('pipe');
  // The 10 MB result is measured once per implementation, in the plain style (the schema plays no part in it).
  if (groups.includes('large') && schemas === 'json') phases.push('large');
  if (phases.length > 0) {
    await recorded(context, styled('stdio', schemas), name, round, async () => {
      const result = await runDriverProcess(
        driver,
        { phases, inFlight: IN_FLIGHT, ...counts, zodResults: setup.zodResults },
        server,
      );
      if (result.truncated.length > 0) log(`  ${label}: stopped at the deadline in ${result.truncated.join(', ')}`);
      if (result.seq) {
        add('stdio-seq-calls-per-s', result.seq.callsPerSec);
        add('stdio-seq-p50-us', result.seq.p50Us);
        add('stdio-seq-p99-us', result.seq.p99Us);
        add('stdio-seq-server-cpu-us', result.seq.serverCpuUsPerCall);
        add('stdio-seq-client-cpu-us', result.seq.clientCpuUsPerCall);
      }
      if (result.pipe) add('stdio-pipelined-calls-per-s', result.pipe.callsPerSec);
      if (result.large?.error !== undefined)
        context.failures.push({ metric: 'stdio-big-ms', implementation: name, round, error: result.large.error });
      else if (result.large) addSample(samples, 'stdio-big-ms', name, result.large.ms);
      const parts = [
        result.seq && `${Math.round(result.seq.callsPerSec)} seq calls/s`,
        result.pipe &&
          `${Math.round(result.pipe.callsPerSec)} pipelined calls/s (CPU per call: client ${result.pipe.clientCpuUsPerCall.toFixed(1)} µs, server ${result.pipe.serverCpuUsPerCall.toFixed(1)} µs)`,
        result.large && !result.large.error && `big ${Math.round(result.large.ms)} ms`,
      ];
      log(`  round ${round} ${label} stdio: ${parts.filter(Boolean).join(', ') || 'done'}`);
    });
  }
  // One server per implementation and style; v1's zod setup is its plain one again, so its cold start is not rerun.
  const sameServerAgain = name === 'official-v1' && schemas === 'zod';
  if (groups.includes('cold-start') && !sameServerAgain) {
    await recorded(context, styled('cold-start-ms', schemas), name, round, async () => {
      // The median of this round's starts is the round's sample.
      const starts: number[] = [];
      for (let i = 0; i < counts.coldStarts; i++) starts.push(await coldStart(server));
      starts.sort((a, b) => a - b);
      const median = starts[starts.length >> 1] as number;
      if (name === 'official-v1')
        for (const style of ['json', 'zod'] as const) addSample(samples, styled('cold-start-ms', style), name, median);
      else add('cold-start-ms', median);
    });
  }
}
