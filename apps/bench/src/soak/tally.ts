// What the soak counts, per transport: calls, their outcomes, and every message lost or seen twice.

export interface Tally {
  calls: number;
  ok: number;
  /** Calls that failed because the soak dropped their WebSocket (expected; the session reconnects and goes on). */
  interrupted: number;
  /** Anything else that failed: expected 0. */
  errors: number;
  /** Progress notifications or results that never arrived on a call that completed: expected 0. */
  lost: number;
  /** Messages that arrived twice: expected 0. */
  duplicated: number;
  /** The first few error messages, to read. */
  samples: string[];
}

export function newTally(): Tally {
  return { calls: 0, ok: 0, interrupted: 0, errors: 0, lost: 0, duplicated: 0, samples: [] };
}

export function noteError(tally: Tally, error: unknown): void {
  tally.errors++;
  if (tally.samples.length < 8) tally.samples.push((error as Error)?.message ?? String(error));
}

/** Checks one completed call: progress 1..n exactly once each, in order, and the result naming its tag. */
export function checkCall(tally: Tally, n: number, tag: string, progress: number[], text: string | undefined): void {
  tally.ok++;
  const seen = new Map<number, number>();
  for (const step of progress) seen.set(step, (seen.get(step) ?? 0) + 1);
  for (let step = 1; step <= n; step++) {
    const times = seen.get(step) ?? 0;
    if (times === 0) tally.lost++;
    else tally.duplicated += times - 1;
  }
  for (const step of seen.keys()) if (step < 1 || step > n) tally.duplicated += seen.get(step)!;
  if (text !== `${tag}:${n}`) {
    tally.lost++;
    if (tally.samples.length < 8) tally.samples.push(`call ${tag}: result ${JSON.stringify(text)}`);
  }
  if (!progress.every((step, index) => index === 0 || step > progress[index - 1]!)) {
    if (tally.samples.length < 8) tally.samples.push(`call ${tag}: progress out of order ${progress.join(',')}`);
    tally.duplicated++;
  }
}
