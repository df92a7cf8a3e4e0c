import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readScenarioOutcome } from '../src/conformance';
import { parseRequirements, parseScenarioListing, wiresOf } from '../src/conformance-cli';
import { judgeRuns, type RunOutcome } from '../src/conformance-expectations';
import { type ConformanceReport, expectClean } from '../src/conformance-plan';

// How the fixtures' runners read the conformance CLI: its listings, its requirement sets, its checks.

const LIST = `Server scenarios (test against a server):
  - server-initialize [2025-06-18,2025-11-25]
  - server-stateless [2026-07-28]
  - sep-2640-skills-directory [extension]
  - legacy-only [2025-03-26]

Client scenarios (test against a client):
  - initialize [2025-06-18,2025-11-25]
`;

const REQUIREMENTS = `Required for 2026-07-28 (3 scenarios, frozen; run at the 2026-07-28 wire):

Server scenarios (test against a server):
  - server-stateless
  - caching

Client scenarios (test against a client):
  - tools_call

Run and reported, but never scored:
  extension (2):
    - auth/dpop [client]
    - tasks-lifecycle [server]
  pending (1):
    - json-schema-2020-12 [server]
`;

describe('the conformance CLI as the runners read it', () => {
  it('parses a listing with the applicability tags, one heading at a time', () => {
    expect(parseScenarioListing(LIST, 'Server scenarios')).toEqual([
      { name: 'server-initialize', tags: ['2025-06-18', '2025-11-25'] },
      { name: 'server-stateless', tags: ['2026-07-28'] },
      { name: 'sep-2640-skills-directory', tags: ['extension'] },
      { name: 'legacy-only', tags: ['2025-03-26'] },
    ]);
    expect(parseScenarioListing(LIST, 'Client scenarios').map((s) => s.name)).toEqual(['initialize']);
    expect(parseScenarioListing(LIST, 'Authorization server scenarios')).toEqual([]);
  });

  it('parses a requirement set: scored per side, and what runs unscored with its reason', () => {
    expect(parseRequirements('2026-07-28', REQUIREMENTS)).toEqual({
      revision: '2026-07-28',
      server: ['server-stateless', 'caching'],
      client: ['tools_call'],
      notScored: [
        { scenario: 'auth/dpop', side: 'client', reason: 'extension' },
        { scenario: 'tasks-lifecycle', side: 'server', reason: 'extension' },
        { scenario: 'json-schema-2020-12', side: 'server', reason: 'pending' },
      ],
    });
  });

  it('runs a scenario outside the requirement sets at its wires, an extension on every wire, an old one once', () => {
    const wires = ['2025-11-25', '2026-07-28'];
    const [initialize, stateless, skills, old] = parseScenarioListing(LIST, 'Server scenarios');
    expect(wiresOf(initialize!, wires, '2025-11-25')).toEqual([
      { wire: '2025-11-25', args: ['--spec-version', '2025-11-25'] },
    ]);
    expect(wiresOf(stateless!, wires, '2025-11-25')).toEqual([
      { wire: '2026-07-28', args: ['--spec-version', '2026-07-28'] },
    ]);
    expect(wiresOf(skills!, wires, '2025-11-25')).toEqual([
      { wire: '2025-11-25', args: ['--spec-version', '2025-11-25', '--force'] },
      { wire: '2026-07-28', args: ['--spec-version', '2026-07-28', '--force'] },
    ]);
    expect(wiresOf(old!, wires, '2025-11-25')).toEqual([{ wire: '2025-11-25', args: [] }]);
  });
});

describe('judging', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  async function outcomeOf(checks: Array<{ id: string; status: string; errorMessage?: string }>) {
    dir = await mkdtemp(join(tmpdir(), 'testkit-checks-'));
    await writeFile(join(dir, 'checks.json'), JSON.stringify(checks));
    return readScenarioOutcome('s', dir);
  }

  it('a scenario passes with a check of its own and no failure or warning', async () => {
    const outcome = await outcomeOf([
      { id: 'tool-found', status: 'SUCCESS' },
      { id: 'extra', status: 'SKIPPED' },
      { id: 'wire-schema-valid', status: 'SUCCESS' },
    ]);
    expect(outcome.passed).toBe(true);
  });

  it('a warning fails it; only skipped checks beside the wire-schema check fail it too', async () => {
    expect((await outcomeOf([{ id: 'a', status: 'WARNING', errorMessage: 'should' }])).problems).toEqual([
      'WARNING a: should',
    ]);
    await rm(dir!, { recursive: true, force: true });
    const skipped = await outcomeOf([
      { id: 'a', status: 'SKIPPED', errorMessage: 'extension not declared' },
      { id: 'wire-schema-valid', status: 'SUCCESS' },
    ]);
    expect(skipped.passed).toBe(false);
    expect(skipped.problems[0]).toMatch(/no check of the scenario itself.*extension not declared/);
  });

  it('waits for a checks.json still being written, and reports one that never completes instead of throwing', async () => {
    dir = await mkdtemp(join(tmpdir(), 'testkit-checks-'));
    const path = join(dir, 'checks.json');
    const full = JSON.stringify([{ id: 'tool-found', status: 'SUCCESS' }]);
    await writeFile(path, full.slice(0, 10));
    const completed = setTimeout(() => void writeFile(path, full), 150);
    const late = await readScenarioOutcome('s', dir, 3_000);
    clearTimeout(completed);
    expect(late.passed).toBe(true);

    await writeFile(path, full.slice(0, 10));
    const truncated = await readScenarioOutcome('s', dir, 200);
    expect(truncated.passed).toBe(false);
    expect(truncated.problems[0]).toMatch(/checks\.json is incomplete \(10 characters, not valid JSON/);

    await rm(path);
    const missing = await readScenarioOutcome('s', dir, 200);
    expect(missing.problems[0]).toMatch(/checks\.json was not written/);
  });

  it('splits outcomes into unexpected failures, stale entries and entries for runs that did not happen', () => {
    const outcome = (scenario: string, wire: string, passed: boolean): RunOutcome => ({
      scenario,
      wire,
      suite: 'next',
      passed,
      counts: {},
      problems: passed ? [] : ['FAILURE x'],
    });
    const outcomes = [
      outcome('fixed', '2026-07-28', true),
      outcome('broken', '2026-07-28', false),
      outcome('known', '2026-07-28', false),
      outcome('known', '2025-11-25', false),
    ];
    const expected = {
      next: {
        '2026-07-28': { fixed: 'needs x (issue 1)', known: 'needs y (issue 2)' },
        '2025-11-25': { known: 'needs y (issue 2)', gone: 'needs z' },
      },
      '0.1.16': { '2025-11-25': { other: 'reason' } },
    };
    const { unexpected, stale, unknown } = judgeRuns(outcomes, expected);
    expect(unexpected.map((o) => `${o.wire} ${o.scenario}`)).toEqual(['2026-07-28 broken']);
    expect(stale.map((o) => `${o.wire} ${o.scenario}`)).toEqual(['2026-07-28 fixed']);
    expect(unknown).toEqual(['next 2025-11-25 gone', '0.1.16 2025-11-25 other']);
  });
});

describe('expectClean: the assertions every conformance test makes of its report', () => {
  const report = (problems: Partial<ConformanceReport['problems']> = {}): ConformanceReport => ({
    outcomes: [],
    requirements: [],
    listed: { pinned: 1, next: 1 },
    outputs: ['run output'],
    timings: [],
    table: '',
    problems: { missing: [], duplicates: [], unexpected: [], stale: [], unknown: [], ...problems },
  });

  it('passes a clean report, and fails on each kind of problem with its message (or the caller’s)', () => {
    expect(() => expectClean(report(), expect)).not.toThrow();
    expect(() => expectClean(report({ missing: ['a'] }), expect)).toThrow(/scenarios with no result:\nrun output/);
    expect(() => expectClean(report({ unexpected: ['b'] }), expect)).toThrow(/unexpected failures/);
    expect(() => expectClean(report({ stale: ['c'] }), expect, { stale: 'pass on the Worker' })).toThrow(
      /pass on the Worker/,
    );
    expect(() => expectClean(report({ unknown: ['d'] }), expect)).toThrow(/did not happen/);
    expect(() => expectClean(report({ duplicates: ['e'] }), expect)).toThrow(/judged twice/);
  });
});
