// The measuring half of every bench client. Each implementation's driver (one small file per client SDK) only says
// how to connect and how to make one `echo` call; this module runs the phases the same way for all of them, in a
// process of its own, and prints one JSON line. Every loop is bounded by a count and by the run's deadline.
import { serverCpuMicros } from './server-report';

/** What a driver's `connect` returns: one live client session on a spawned stdio server. */
export interface Connection {
  /** Calls `echo` with `text` and resolves with the text content the server returned. */
  call(text: string): Promise<string>;
  /** Calls `big` with `bytes` and resolves with the text content the server returned. */
  big(bytes: number): Promise<string>;
  /** The spawned server's process id (its CPU is read through the SIGUSR2 reporter, see servers/cpu-report.ts). */
  readonly pid: number;
  close(): Promise<void>;
}

export type Phase = 'seq' | 'pipe' | 'large';

/** The run, passed by bench.ts as one JSON argument. */
export interface DriverConfig {
  command: string;
  args: string[];
  cpuFile: string;
  phases: Phase[];
  warmup: number;
  calls: number;
  pipelinedWarmup: number;
  pipelinedCalls: number;
  inFlight: number;
  largeBytes: number;
  largeCalls: number;
  /** A `big` call not answered in this time counts as a failure of the implementation (reported, not fatal). */
  largeTimeoutMs: number;
  deadlineMs: number;
  /** Parse every `echo` result with zod before reading it, as a caller using zod does (the zod setups). */
  zodResults: boolean;
}

/** Reads the text of an `echo` result: directly, or after parsing the result with a zod schema. */
export type TextOf = (result: unknown) => string;

function firstText(result: unknown): string {
  const first = (result as { content?: { type: string; text?: string }[] }).content?.[0];
  return first?.type === 'text' ? (first.text ?? '') : '';
}

async function textReader(zodResults: boolean): Promise<TextOf> {
  if (!zodResults) return firstText;
  // Loaded only by the zod setups, so the plain ones never load zod.
  const { z } = await import('zod');
  const EchoResult = z.object({
    content: z.array(z.object({ type: z.literal('text'), text: z.string() })).min(1),
    isError: z.boolean().optional(),
  });
  return (result) => (EchoResult.parse(result).content[0] as { text: string }).text;
}

/** One driver run's figures (absent phases were not asked for). */
export interface DriverResult {
  seq?: {
    calls: number;
    callsPerSec: number;
    p50Us: number;
    p99Us: number;
    clientCpuUsPerCall: number;
    serverCpuUsPerCall: number;
  };
  pipe?: { calls: number; callsPerSec: number; clientCpuUsPerCall: number; serverCpuUsPerCall: number };
  large?: { calls: number; ms: number; error?: string };
  /** A phase that stopped at the deadline before its count. */
  truncated: Phase[];
}

const SMALL_TEXT = 'hello, bench';

/** Runs the phases in `process.argv[2]`'s config against `connect` and writes the result to stdout. */
export async function runDriver(
  connect: (command: string, args: string[], textOf: TextOf) => Promise<Connection>,
): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as DriverConfig;
  const deadline = performance.now() + config.deadlineMs;
  const result: DriverResult = { truncated: [] };
  const connection = await connect(config.command, config.args, await textReader(config.zodResults === true));
  try {
    if (config.phases.includes('seq')) result.seq = await sequential(connection, config, deadline, result);
    // Unmeasured when only the pipelined phase was asked for: it always follows the same sequential calls, so that
    // `--only stdio-pipe` reads what a full run reads (without them its window was mostly the engine compiling).
    else if (config.phases.includes('pipe')) await sequential(connection, config, deadline, { truncated: [] });
    if (config.phases.includes('pipe')) result.pipe = await pipelined(connection, config, deadline, result);
    if (config.phases.includes('large')) result.large = await large(connection, config, deadline, result);
  } finally {
    await connection.close();
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
  // Some SDK clients leave timers or handles behind after close; the figures are out, so leave now.
  process.exit(0);
}

async function checkedCall(connection: Pick<Connection, 'call'>, text: string): Promise<void> {
  const echoed = await connection.call(text);
  if (echoed !== text) throw new Error(`echo returned ${echoed.length} chars, expected ${text.length}`);
}

async function sequential(
  connection: Connection,
  config: DriverConfig,
  deadline: number,
  result: DriverResult,
): Promise<NonNullable<DriverResult['seq']>> {
  for (let i = 0; i < config.warmup && performance.now() < deadline; i++) await checkedCall(connection, SMALL_TEXT);
  const latencies = new Float64Array(config.calls);
  const serverBefore = await serverCpuMicros(connection.pid, config.cpuFile);
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  let done = 0;
  for (; done < config.calls; done++) {
    const t0 = performance.now();
    if (t0 > deadline) break;
    await checkedCall(connection, SMALL_TEXT);
    latencies[done] = performance.now() - t0;
  }
  const elapsed = performance.now() - started;
  const client = process.cpuUsage(clientBefore);
  const serverAfter = await serverCpuMicros(connection.pid, config.cpuFile);
  if (done < config.calls) result.truncated.push('seq');
  const sorted = latencies.subarray(0, done).sort();
  return {
    calls: done,
    callsPerSec: (done / elapsed) * 1000,
    p50Us: quantile(sorted, 0.5) * 1000,
    p99Us: quantile(sorted, 0.99) * 1000,
    clientCpuUsPerCall: (client.user + client.system) / done,
    serverCpuUsPerCall: (serverAfter - serverBefore) / done,
  };
}

async function pipelined(
  connection: Connection,
  config: DriverConfig,
  deadline: number,
  result: DriverResult,
): Promise<NonNullable<DriverResult['pipe']>> {
  // The same window unmeasured first: the sequential phase never ran the code paths of many calls in flight (several
  // messages per chunk, many pending requests), and compiling them would otherwise land in a window of a few hundred
  // milliseconds. The WebSocket pipelined phase (concurrent.ts) runs this same function with the same counts.
  await window(connection, config.inFlight, config.pipelinedWarmup, deadline);
  const serverBefore = await serverCpuMicros(connection.pid, config.cpuFile);
  const clientBefore = process.cpuUsage();
  const begin = performance.now();
  const done = await window(connection, config.inFlight, config.pipelinedCalls, deadline);
  const elapsed = performance.now() - begin;
  const client = process.cpuUsage(clientBefore);
  const serverAfter = await serverCpuMicros(connection.pid, config.cpuFile);
  if (done < config.pipelinedCalls) result.truncated.push('pipe');
  return {
    calls: done,
    callsPerSec: (done / elapsed) * 1000,
    // Not in the report: what an A/B of a hot-path change reads, being steadier than calls/s on a loaded machine.
    clientCpuUsPerCall: (client.user + client.system) / done,
    serverCpuUsPerCall: (serverAfter - serverBefore) / done,
  };
}

/**
 * `calls` echo calls, `inFlight` at a time (each worker starts its next when the last settles); resolves the count done.
 * The pipelined phases of stdio and WebSocket both run this, so that their figures compare.
 */
export async function window(
  connection: Pick<Connection, 'call'>,
  inFlight: number,
  calls: number,
  deadline: number,
): Promise<number> {
  let started = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (started < calls && performance.now() < deadline) {
      started++;
      await checkedCall(connection, SMALL_TEXT);
      done++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return done;
}

async function large(
  connection: Connection,
  config: DriverConfig,
  deadline: number,
  result: DriverResult,
): Promise<NonNullable<DriverResult['large']>> {
  const times: number[] = [];
  try {
    // One unmeasured call first: the first large message grows buffers that every later one reuses.
    await boundedBig(connection, config.largeBytes, config.largeTimeoutMs);
    for (let i = 0; i < config.largeCalls && performance.now() < deadline; i++) {
      const t0 = performance.now();
      await boundedBig(connection, config.largeBytes, config.largeTimeoutMs);
      times.push(performance.now() - t0);
    }
  } catch (error) {
    return { calls: 0, ms: Number.NaN, error: error instanceof Error ? error.message : String(error) };
  }
  if (times.length < config.largeCalls) result.truncated.push('large');
  times.sort((a, b) => a - b);
  return { calls: times.length, ms: quantile(times, 0.5) };
}

/** One `big` call, its length checked, failing after `timeoutMs`. */
export async function boundedBig(connection: Pick<Connection, 'big'>, bytes: number, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer to a big call of ${bytes} bytes in ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    const text = await Promise.race([connection.big(bytes), timeout]);
    if (text.length !== bytes) throw new Error(`big returned ${text.length} chars, expected ${bytes}`);
  } finally {
    clearTimeout(timer);
  }
}

export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}
