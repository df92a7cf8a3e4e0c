// What every suite of the bench shares: the built runnables, the counts of this mode, where samples and failures go.
import type { Implementation, Runnables } from '../build';
import type { MetricGroup } from '../metrics';
import type { Samples } from '../report';

/** Counts and time bounds of one bench mode (full or quick). */
export interface Counts {
  warmup: number;
  calls: number;
  /** Pipelined calls made unmeasured before the pipelined window (stdio and WebSocket alike). */
  pipelinedWarmup: number;
  pipelinedCalls: number;
  largeBytes: number;
  largeCalls: number;
  largeTimeoutMs: number;
  coldStarts: number;
  /** Per driver process: its loops stop here. */
  deadlineMs: number;
  /** HTTP and WebSocket: sequential warm-up calls per session, and how long each concurrency level measures. */
  networkWarmupCalls: number;
  networkDurationMs: number;
  /** Idle sessions opened for the memory metric. */
  memorySessions: number;
}

/** One run failure: no sample recorded, listed in the JSON and printed. */
export interface Failure {
  metric: string;
  implementation: Implementation;
  round: number;
  error: string;
}

export interface SuiteContext {
  runnables: Runnables;
  counts: Counts;
  groups: readonly MetricGroup[];
  samples: Samples;
  failures: Failure[];
  log: (line: string) => void;
}

/** Runs `body`; a failure is recorded against `metric` instead of ending the bench. */
export async function recorded(
  context: SuiteContext,
  metric: string,
  implementation: Implementation,
  round: number,
  body: () => Promise<void>,
): Promise<void> {
  try {
    await body();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    context.failures.push({ metric, implementation, round, error: message.slice(0, 1_000) });
    context.log(`  round ${round} ${implementation}: ${metric} FAILED: ${message.slice(0, 300)}`);
  }
}
