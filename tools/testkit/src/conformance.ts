import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

// Shared by the conformance runners of apps/everything-server and apps/everything-client: running the official
// suite's CLI and judging what it recorded.

/** One check the suite recorded in a scenario's checks.json. */
interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

/**
 * What one scenario came to: passed only with no failure or warning and at least one check of the scenario itself
 * that succeeded or failed. The suite's synthetic wire-schema checks do not count for that: a scenario whose own
 * checks were all skipped (an undeclared extension, a suite harness that skips itself) proved nothing.
 */
export interface ScenarioOutcome {
  scenario: string;
  passed: boolean;
  /** Checks per status (SUCCESS, FAILURE, WARNING, INFO, SKIPPED …). */
  counts: Record<string, number>;
  problems: string[];
}

/** The checks every scenario of the newer suites adds about the messages on the wire, whatever the scenario did. */
const SYNTHETIC_CHECKS = new Set(['wire-schema-valid', 'wire-schema-harness-error']);

/** How long an incomplete or missing checks.json is read again before the scenario is judged failed. */
const CHECKS_WAIT_MS = 5_000;
const CHECKS_POLL_MS = 100;

/**
 * The checks of `<folder>/checks.json`, read again while the file is missing or not yet valid JSON (the suite may still
 * be writing it on a loaded machine), for at most `waitMs`; then the reason it could not be read.
 */
export async function readChecks(folder: string, waitMs = CHECKS_WAIT_MS): Promise<Check[] | { problem: string }> {
  const path = join(folder, 'checks.json');
  const deadline = Date.now() + waitMs;
  for (;;) {
    let text: string | undefined;
    let problem: string;
    try {
      text = await readFile(path, 'utf8');
      const checks = JSON.parse(text) as unknown;
      if (Array.isArray(checks)) return checks as Check[];
      problem = `${path} is not a list of checks`;
    } catch (error) {
      problem =
        text === undefined
          ? `${path} was not written (${(error as Error).message})`
          : `${path} is incomplete (${text.length} characters, not valid JSON: ${(error as Error).message})`;
    }
    if (Date.now() >= deadline) return { problem: `${problem}; waited ${waitMs} ms` };
    await new Promise((resolve) => setTimeout(resolve, CHECKS_POLL_MS));
  }
}

/** Reads `<folder>/checks.json` of one scenario's results and judges it (a file that never completes is a failure). */
export async function readScenarioOutcome(
  scenario: string,
  folder: string,
  waitMs = CHECKS_WAIT_MS,
): Promise<ScenarioOutcome> {
  const read = await readChecks(folder, waitMs);
  if (!Array.isArray(read)) return { scenario, passed: false, counts: {}, problems: [read.problem] };
  const checks = read;
  const counts: Record<string, number> = {};
  for (const check of checks) counts[check.status] = (counts[check.status] ?? 0) + 1;
  const problems = checks
    .filter((check) => check.status === 'FAILURE' || check.status === 'WARNING')
    .map((check) => `${check.status} ${check.id}: ${check.errorMessage ?? ''}`);
  const judged = checks.filter(
    (check) =>
      !SYNTHETIC_CHECKS.has(check.id) &&
      (check.status === 'SUCCESS' || check.status === 'FAILURE' || check.status === 'WARNING'),
  );
  if (judged.length === 0) {
    const skipped = checks.find((check) => check.status === 'SKIPPED');
    problems.push(
      `no check of the scenario itself was recorded${skipped === undefined ? '' : ` (skipped: ${skipped.errorMessage ?? skipped.id})`}`,
    );
  }
  const passed = problems.length === 0;
  if (!passed) {
    // A client scenario keeps what the client printed: the first place to look when it failed.
    const stderr = await readFile(join(folder, 'stderr.txt'), 'utf8').catch(() => '');
    if (stderr.trim() !== '') problems.push(`client stderr: ${stderr.trim().slice(-1500)}`);
  }
  return { scenario, passed, counts, problems };
}

/** One line per scenario (`PASS name: 3 success, 1 info`), problems indented below. */
export function formatOutcomes(title: string, outcomes: readonly ScenarioOutcome[], total = outcomes.length): string {
  const lines = outcomes.map(
    (outcome) =>
      `${outcome.passed ? 'PASS' : 'FAIL'} ${outcome.scenario}: ${Object.entries(outcome.counts)
        .map(([status, count]) => `${count} ${status.toLowerCase()}`)
        .join(', ')}${outcome.problems.length > 0 ? `\n    ${outcome.problems.join('\n    ')}` : ''}`,
  );
  return `${title} (${outcomes.filter((outcome) => outcome.passed).length}/${total}):\n${lines.join('\n')}`;
}

/**
 * Splits outcomes against an expected-failures map: failures not listed (`unexpected`) and listed scenarios that
 * pass now (`stale`). A runner fails on either, so the list can never go stale.
 */
export function judgeOutcomes(outcomes: readonly ScenarioOutcome[], expected: Readonly<Record<string, string>>) {
  return {
    unexpected: outcomes.filter((outcome) => !outcome.passed && expected[outcome.scenario] === undefined),
    stale: outcomes.filter((outcome) => outcome.passed && expected[outcome.scenario] !== undefined),
  };
}

/** Runs a command to completion (killed after `timeoutMs`), collecting stdout and stderr together. */
export function runToCompletion(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
