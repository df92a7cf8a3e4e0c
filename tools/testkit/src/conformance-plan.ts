// One run plan for the official conformance suite, shared by the everything-server, the everything-client and the
// gateway's conformance tests: list the scenarios, run the pinned suite, each requirement set of the newest suite at
// its wire, and every scenario no requirement set names at the wires its tags allow, a few CLI runs at a time; collect
// and judge the outcomes. The caller asserts on the report (this kit stays free of a test framework).
import { join } from 'node:path';
import {
  type ConformanceCli,
  collectOutcomes,
  parseRequirements,
  parseScenarioListing,
  type RequirementSet,
  requirementScenarios,
  wiresOf,
} from './conformance-cli';
import {
  duplicateRuns,
  type ExpectedFailures,
  formatRuns,
  inPool,
  judgeRuns,
  type RunOutcome,
} from './conformance-expectations';

/** One CLI run: which suite, at which wire, with which arguments (after the target; `-o <dir>` is appended). */
export interface ConformanceRun {
  suite: ConformanceCli;
  wire: string;
  args: string[];
  /** Timing-sensitive: runs before the others, one at a time. */
  alone?: boolean;
}

/** Options of `runConformance`. */
export interface ConformanceOptions {
  side: 'server' | 'client';
  /** The pinned suite (0.1.16) and the newest. */
  pinned: ConformanceCli;
  next: ConformanceCli;
  /** The revisions the newest suite has requirement sets for: each its own wire. */
  wires: readonly string[];
  /** The wire of the pinned suite, and the newest suite's default for scenarios of older revisions only. */
  legacyWire: string;
  /** Runs the CLI once (listings and runs); `timeoutMs` is given for listings. */
  cli(suite: ConformanceCli, args: string[], timeoutMs?: number): Promise<{ output: string }>;
  /**
   * What every run starts with: `['server', '--url', url]` or `['client']`. Called once per run, so a run can get a
   * target of its own (the gateway's: one gateway per run).
   */
  target(): string[] | Promise<string[]>;
  /** Appended to every run's arguments (the client's `--command`). */
  extraArgs?(): string[] | Promise<string[]>;
  /** The pinned suite's runs (arguments after the target), and the scenarios they cover. */
  pinnedRuns: ReadonlyArray<{ args: string[]; alone?: boolean }>;
  /** The scenarios the pinned runs must cover. Default: what `list --<side>` of the pinned suite lists. */
  pinnedScenarios?: readonly string[];
  expected: ExpectedFailures;
  outputRoot: string;
  /** CLI runs at a time. */
  parallel: number;
  /** Longest runs first (requirement sets, then named suites, then single scenarios). Default: in plan order. */
  longestFirst?: boolean;
  /** The title of the printed table. */
  title: string;
}

/** What `runConformance` found: the outcomes, and each kind of problem as readable lines (all empty when green). */
export interface ConformanceReport {
  outcomes: RunOutcome[];
  requirements: RequirementSet[];
  /** What the suites listed: counts checked by the caller (a listing that could not be read is empty). */
  listed: { pinned: number; next: number };
  /** The runs' console output, for failure messages. */
  outputs: string[];
  /** How long each run took (its arguments after the target), slowest first: where the time of the plan goes. */
  timings: Array<{ run: string; ms: number }>;
  table: string;
  problems: {
    /** Scenarios of a suite or requirement set that have no result. */
    missing: string[];
    /** Scenarios judged twice on one wire. */
    duplicates: string[];
    unexpected: string[];
    /** Expected failures that now pass. */
    stale: string[];
    /** expected-failures.json entries naming runs that did not happen. */
    unknown: string[];
  };
}

/** How long a run takes, roughly: requirement sets, then the suites of the pinned version, then single scenarios. */
function runWeight(run: ConformanceRun): number {
  if (run.args.includes('--requirements')) return 2;
  return run.args.includes('--suite') ? 1 : 0;
}

/**
 * Runs the plan and judges it against `expected`.
 *
 * @example
 * const report = await runConformance({ side: 'server', target: () => ['server', '--url', url], … });
 * expect(report.problems).toEqual({ missing: [], duplicates: [], unexpected: [], stale: [], unknown: [] });
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const { side, pinned, next, wires, legacyWire, cli } = options;
  const heading = side === 'server' ? 'Server scenarios' : 'Client scenarios';
  const [pinnedList, nextList, ...requirementLists] = await Promise.all([
    options.pinnedScenarios === undefined ? cli(pinned, ['list', `--${side}`], 30_000) : undefined,
    cli(next, ['list', `--${side}`], 30_000),
    ...wires.map((wire) => cli(next, ['list', '--requirements', wire], 30_000)),
  ]);
  const pinnedScenarios =
    options.pinnedScenarios ?? parseScenarioListing(pinnedList!.output, heading).map((scenario) => scenario.name);
  const nextScenarios = parseScenarioListing(nextList!.output, heading);
  const requirements = wires.map((wire, index) => parseRequirements(wire, requirementLists[index]!.output));

  const required = new Set(requirements.flatMap((set) => requirementScenarios(set, side)));
  let runs: ConformanceRun[] = [
    ...options.pinnedRuns.map((run) => ({ suite: pinned, wire: legacyWire, args: run.args, alone: run.alone })),
    ...wires.map((wire) => ({ suite: next, wire, args: ['--requirements', wire] })),
    ...nextScenarios
      .filter((scenario) => !required.has(scenario.name))
      .flatMap((scenario) =>
        wiresOf(scenario, wires, legacyWire).map(({ wire, args }) => ({
          suite: next,
          wire,
          args: ['--scenario', scenario.name, ...args],
        })),
      ),
  ];
  if (options.longestFirst === true) {
    runs = runs.sort((a, b) => Number(b.alone === true) - Number(a.alone === true) || runWeight(b) - runWeight(a));
  }
  const outputs: string[] = [];
  const timings: Array<{ run: string; ms: number }> = [];
  const runOne = async (run: ConformanceRun, index: number): Promise<RunOutcome[]> => {
    const started = performance.now();
    const dir = join(options.outputRoot, `${index}`);
    const target = await options.target();
    const extra = (await options.extraArgs?.()) ?? [];
    const { output } = await cli(run.suite, [...target, ...run.args, ...extra, '-o', dir]);
    outputs[index] = output;
    timings.push({ run: `${run.suite.label} ${run.args.join(' ')}`, ms: Math.round(performance.now() - started) });
    const found = await collectOutcomes(dir, side);
    return found.map((outcome) => ({ ...outcome, suite: run.suite.label, wire: run.wire }));
  };
  const alone = runs.filter((run) => run.alone === true);
  const others = runs.filter((run) => run.alone !== true);
  const first = await inPool(alone, 1, runOne);
  const rest = await inPool(others, options.parallel, (run, index) => runOne(run, alone.length + index));
  const outcomes = [...first, ...rest].flat();

  const ran = new Set(outcomes.map((outcome) => `${outcome.suite} ${outcome.wire} ${outcome.scenario}`));
  const missing = [
    ...pinnedScenarios.map((name) => `${pinned.label} ${legacyWire} ${name}`).filter((key) => !ran.has(key)),
    ...nextScenarios
      .filter((s) => !outcomes.some((o) => o.suite === next.label && o.scenario === s.name))
      .map((s) => `${next.label} * ${s.name}`),
    ...requirements.flatMap((set) =>
      requirementScenarios(set, side)
        .map((name) => `${next.label} ${set.revision} ${name}`)
        .filter((key) => !ran.has(key)),
    ),
  ];
  const { unexpected, stale, unknown } = judgeRuns(outcomes, options.expected);
  return {
    outcomes,
    requirements,
    listed: { pinned: pinnedScenarios.length, next: nextScenarios.length },
    outputs,
    timings: timings.sort((a, b) => b.ms - a.ms),
    table: formatRuns(options.title, outcomes, options.expected),
    problems: {
      missing,
      duplicates: duplicateRuns(outcomes),
      unexpected: unexpected.map((o) => `[${o.suite} ${o.wire}] ${o.scenario}: ${o.problems.join('; ')}`),
      stale: stale.map((o) => `[${o.suite} ${o.wire}] ${o.scenario}`),
      unknown,
    },
  };
}

/** What `expectClean` needs of a test framework's `expect` (vitest's is one): this kit imports none. */
export type ExpectEqual = (actual: unknown, message?: string) => { toEqual(expected: unknown): void };

/** The failure message of each kind of problem, where a caller says it its own way. */
export type ProblemMessages = Partial<Record<keyof ConformanceReport['problems'], string>>;

/**
 * The assertions every conformance test makes of its report, one per kind of problem (each must be empty), with the
 * caller's `expect`: every scenario listed ran, once per wire, and nothing failed, passed or was expected other than
 * `expected-failures.json` says. `messages` replace the default failure messages (the Worker's test compares with
 * Node's expectations, and says so).
 *
 * @example
 * expectClean(report, expect, { unexpected: 'fail on the Worker, pass on Node' });
 */
export function expectClean(report: ConformanceReport, expect: ExpectEqual, messages: ProblemMessages = {}): void {
  const { problems } = report;
  const missing = `scenarios with no result:\n${report.outputs.join('\n---\n').slice(-6000)}`;
  expect(problems.missing, messages.missing ?? missing).toEqual([]);
  expect(problems.duplicates, messages.duplicates ?? 'scenarios judged twice on one wire').toEqual([]);
  expect(problems.unexpected, messages.unexpected ?? 'unexpected failures').toEqual([]);
  expect(
    problems.stale,
    messages.stale ?? 'expected failures that now pass: remove them from expected-failures.json',
  ).toEqual([]);
  expect(problems.unknown, messages.unknown ?? 'expected-failures.json names runs that did not happen').toEqual([]);
}
