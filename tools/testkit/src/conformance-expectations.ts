import { readFile } from 'node:fs/promises';
import type { ScenarioOutcome } from './conformance';

// Judging a fixture's conformance runs against its conformance/expected-failures.json: every suite, every wire.

/** A scenario's outcome on one suite and one wire (protocol revision). */
export interface RunOutcome extends ScenarioOutcome {
  /** The suite's label: a pinned version (`0.1.16`) or `next`. */
  suite: string;
  /** The protocol revision the scenario ran at (`2025-11-25`, `2026-07-28`). */
  wire: string;
}

/** `{ "<suite>": { "<wire>": { "<scenario>": "<reason>" } } }`; keys starting with `$` are comments. */
export type ExpectedFailures = Record<string, Record<string, Record<string, string>>>;

/** Reads an expected-failures file, dropping `$comment` keys at every level. */
export async function readExpectedFailures(path: string): Promise<ExpectedFailures> {
  const raw = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
  const result: ExpectedFailures = {};
  for (const [suite, wires] of Object.entries(raw)) {
    if (suite.startsWith('$')) continue;
    result[suite] = {};
    for (const [wire, scenarios] of Object.entries(wires as Record<string, unknown>)) {
      if (wire.startsWith('$')) continue;
      result[suite]![wire] = scenarios as Record<string, string>;
    }
  }
  return result;
}

const reasonOf = (expected: ExpectedFailures, outcome: RunOutcome): string | undefined =>
  expected[outcome.suite]?.[outcome.wire]?.[outcome.scenario];

/**
 * Splits outcomes against the expected failures: failures not listed (`unexpected`), listed scenarios that pass now
 * (`stale`, so the list never hides a fix), and entries naming a suite, wire or scenario no run produced (`unknown`).
 */
export function judgeRuns(outcomes: readonly RunOutcome[], expected: ExpectedFailures) {
  const ran = new Set(outcomes.map((outcome) => `${outcome.suite} ${outcome.wire} ${outcome.scenario}`));
  const unknown: string[] = [];
  for (const [suite, wires] of Object.entries(expected)) {
    for (const [wire, scenarios] of Object.entries(wires)) {
      for (const scenario of Object.keys(scenarios)) {
        if (!ran.has(`${suite} ${wire} ${scenario}`)) unknown.push(`${suite} ${wire} ${scenario}`);
      }
    }
  }
  return {
    unexpected: outcomes.filter((outcome) => !outcome.passed && reasonOf(expected, outcome) === undefined),
    stale: outcomes.filter((outcome) => outcome.passed && reasonOf(expected, outcome) !== undefined),
    unknown,
  };
}

/** `suite wire scenario` keys that ran more than once (each must be judged once). */
export function duplicateRuns(outcomes: readonly RunOutcome[]): string[] {
  const seen = new Map<string, number>();
  for (const outcome of outcomes) {
    const key = `${outcome.suite} ${outcome.wire} ${outcome.scenario}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].filter(([, count]) => count > 1).map(([key]) => key);
}

/**
 * A report: one line per suite and wire with the counts (`next 2026-07-28: 55 passed, 13 expected failures`), then
 * a PASS / XFAIL / FAIL line per scenario, the problems of failing ones indented below.
 */
export function formatRuns(title: string, outcomes: readonly RunOutcome[], expected: ExpectedFailures): string {
  const groups = new Map<string, RunOutcome[]>();
  for (const outcome of outcomes) {
    const key = `${outcome.suite} ${outcome.wire}`;
    groups.set(key, [...(groups.get(key) ?? []), outcome]);
  }
  const lines = [title];
  for (const [key, group] of groups) {
    const passed = group.filter((outcome) => outcome.passed).length;
    const xfail = group.filter((outcome) => !outcome.passed && reasonOf(expected, outcome) !== undefined).length;
    lines.push(`  ${key}: ${group.length} scenarios, ${passed} passed, ${xfail} expected failures`);
  }
  for (const outcome of outcomes) {
    const listed = reasonOf(expected, outcome) !== undefined;
    const verdict = outcome.passed ? (listed ? 'STALE' : 'PASS') : listed ? 'XFAIL' : 'FAIL';
    const counts = Object.entries(outcome.counts)
      .map(([status, count]) => `${count} ${status.toLowerCase()}`)
      .join(', ');
    lines.push(`${verdict} [${outcome.suite} ${outcome.wire}] ${outcome.scenario}: ${counts}`);
    if (verdict === 'FAIL') for (const problem of outcome.problems) lines.push(`    ${problem}`);
  }
  return lines.join('\n');
}

/** Runs `task` over `items`, `limit` at a time; results in the order of `items`. */
export async function inPool<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
