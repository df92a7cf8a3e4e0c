// A stand-in for tools/testkit's `runConformance` (being extracted there for issue 28): the same options and report,
// written on the primitives @mcpkit/testkit already exports. Once `runConformance` is on main, the Worker's test
// imports it from '@mcpkit/testkit' instead (one line) and this file goes.

import { join } from 'node:path';
import {
  type ConformanceCli,
  collectOutcomes,
  duplicateRuns,
  type ExpectedFailures,
  formatRuns,
  inPool,
  judgeRuns,
  parseRequirements,
  parseScenarioListing,
  type RequirementSet,
  type RunOutcome,
  requirementScenarios,
  wiresOf,
} from '@mcpkit/testkit';

/** The options the Worker's test passes (server side only). */
export interface ConformanceOptions {
  side: 'server';
  pinned: ConformanceCli;
  next: ConformanceCli;
  wires: readonly string[];
  legacyWire: string;
  cli(suite: ConformanceCli, args: string[], timeoutMs?: number): Promise<{ output: string }>;
  target(): string[] | Promise<string[]>;
  pinnedRuns: ReadonlyArray<{ args: string[] }>;
  expected: ExpectedFailures;
  outputRoot: string;
  parallel: number;
  title: string;
}

/** What the plan found; every `problems` list is empty when the run is green. */
export interface ConformanceReport {
  outcomes: RunOutcome[];
  requirements: RequirementSet[];
  listed: { pinned: number; next: number };
  outputs: string[];
  table: string;
  problems: { missing: string[]; duplicates: string[]; unexpected: string[]; stale: string[]; unknown: string[] };
}

/** The pinned suite's runs, one run per requirement set at its wire, and each unnamed scenario at its wires. */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const { pinned, next, wires, legacyWire, cli } = options;
  const [pinnedList, nextList, ...requirementLists] = await Promise.all([
    cli(pinned, ['list', '--server'], 30_000),
    cli(next, ['list', '--server'], 30_000),
    ...wires.map((wire) => cli(next, ['list', '--requirements', wire], 30_000)),
  ]);
  const pinnedScenarios = parseScenarioListing(pinnedList!.output, 'Server scenarios').map((s) => s.name);
  const nextScenarios = parseScenarioListing(nextList!.output, 'Server scenarios');
  const requirements = wires.map((wire, index) => parseRequirements(wire, requirementLists[index]!.output));
  const required = new Set(requirements.flatMap((set) => requirementScenarios(set, 'server')));
  const runs = [
    ...options.pinnedRuns.map((run) => ({ suite: pinned, wire: legacyWire, args: run.args })),
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
  const outputs: string[] = [];
  const outcomes = (
    await inPool(runs, options.parallel, async (run, index) => {
      const dir = join(options.outputRoot, `${index}`);
      const { output } = await cli(run.suite, [...(await options.target()), ...run.args, '-o', dir]);
      outputs[index] = output;
      const found = await collectOutcomes(dir, 'server');
      return found.map((outcome): RunOutcome => ({ ...outcome, suite: run.suite.label, wire: run.wire }));
    })
  ).flat();
  const ran = new Set(outcomes.map((o) => `${o.suite} ${o.wire} ${o.scenario}`));
  const missing = [
    ...pinnedScenarios.map((name) => `${pinned.label} ${legacyWire} ${name}`).filter((key) => !ran.has(key)),
    ...nextScenarios
      .filter((s) => !outcomes.some((o) => o.suite === next.label && o.scenario === s.name))
      .map((s) => `${next.label} * ${s.name}`),
    ...requirements.flatMap((set) =>
      requirementScenarios(set, 'server')
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
