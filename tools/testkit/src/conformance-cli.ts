import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readScenarioOutcome, runToCompletion, type ScenarioOutcome } from './conformance';

const require = createRequire(fileURLToPath(import.meta.url));

// The official conformance suite's CLI as the fixtures' runners drive it: which installed copy (0.1.16, or the newest
// under the `-next` alias), what it lists, and where it leaves each scenario's checks.

/** One installed copy of the suite's CLI. */
export interface ConformanceCli {
  /** The key of this suite in expected-failures.json: its version for a pinned one, `next` for the newest. */
  readonly label: string;
  /** The installed version (from its package.json). */
  readonly version: string;
  /** The CLI's entry script. */
  readonly script: string;
}

/**
 * Resolves an installed copy of the CLI. Both are dependencies of this package, so every runner uses the same ones:
 * `@modelcontextprotocol/conformance` (pinned, labelled by its version) and its `-next` alias, the newest suite
 * (labelled `next`; moving it to a newer version is the one line in tools/testkit/package.json).
 */
export function conformanceCli(
  packageName: '@modelcontextprotocol/conformance' | '@modelcontextprotocol/conformance-next',
): ConformanceCli {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string; bin?: Record<string, string> };
  const script = join(dirname(manifestPath), manifest.bin?.conformance ?? 'dist/index.js');
  if (!existsSync(script)) throw new Error(`${packageName}: no CLI at ${script}; run npx pnpm install`);
  return {
    label: packageName.endsWith('-next') ? 'next' : manifest.version,
    version: manifest.version,
    script,
  };
}

/** Runs the CLI on `node` (>= 22) with `args`; `preload` modules are `--import`ed first. */
export function runConformanceCli(
  node: string,
  cli: ConformanceCli,
  args: readonly string[],
  options: { cwd: string; timeoutMs: number; preload?: readonly string[] },
): Promise<{ code: number | null; output: string }> {
  const preload = (options.preload ?? []).flatMap((module) => ['--import', module]);
  return runToCompletion(node, [...preload, cli.script, ...args], {
    cwd: options.cwd,
    env: { ...process.env, NODE_OPTIONS: '' },
    timeoutMs: options.timeoutMs,
  });
}

/** A scenario of `conformance list`, with its applicability tags (`2025-11-25`, `2026-07-28`, `extension`, …). */
export interface ListedScenario {
  name: string;
  tags: string[];
}

/**
 * The scenarios under one heading of `conformance list` (`Server scenarios`, `Client scenarios`,
 * `Authorization server scenarios`): lines `  - name [tags]`, up to the next blank line.
 */
export function parseScenarioListing(output: string, heading: string): ListedScenario[] {
  const start = output.indexOf(heading);
  if (start < 0) return [];
  const section = output.slice(start + heading.length).split(/\n\s*\n/)[0] ?? '';
  return [...section.matchAll(/^\s+- (\S+)(?: \[([^\]]*)\])?/gm)].map((match) => ({
    name: match[1]!,
    tags: match[2] === undefined ? [] : match[2].split(','),
  }));
}

/** The scenario names under one heading of `conformance list`. */
export function parseScenarioList(output: string, heading: string): string[] {
  return parseScenarioListing(output, heading).map((scenario) => scenario.name);
}

/**
 * The wires a scenario outside every requirement set runs at: the revisions among `wires` its tags name (run with
 * `--spec-version`), every wire for an extension (run with `--force`: extensions are not on the spec timeline), and
 * for a scenario of older revisions only, the suite's own default (no `--spec-version`, labelled `fallbackWire`).
 */
export function wiresOf(
  scenario: ListedScenario,
  wires: readonly string[],
  fallbackWire: string,
): Array<{ wire: string; args: string[] }> {
  if (scenario.tags.includes('extension')) {
    return wires.map((wire) => ({ wire, args: ['--spec-version', wire, '--force'] }));
  }
  const matching = wires.filter((wire) => scenario.tags.includes(wire));
  if (matching.length > 0) return matching.map((wire) => ({ wire, args: ['--spec-version', wire] }));
  return [{ wire: fallbackWire, args: [] }];
}

/** One scenario a requirement set runs without scoring it, and why (`extension`, `added-after-release`, `pending`). */
export interface NotScored {
  scenario: string;
  side: 'server' | 'client';
  reason: string;
}

/** What `conformance list --requirements <revision>` says a revision requires. */
export interface RequirementSet {
  revision: string;
  server: string[];
  client: string[];
  notScored: NotScored[];
}

/** Parses `conformance list --requirements <revision>`. */
export function parseRequirements(revision: string, output: string): RequirementSet {
  const notScoredAt = output.indexOf('Run and reported, but never scored');
  const scored = notScoredAt < 0 ? output : output.slice(0, notScoredAt);
  const notScored: NotScored[] = [];
  if (notScoredAt >= 0) {
    let reason = '';
    for (const line of output.slice(notScoredAt).split('\n')) {
      const heading = /^ {2}(\S[^(]*) \(\d+\):$/.exec(line);
      if (heading !== null) reason = heading[1]!.trim();
      const item = /^ {4}- (\S+) \[(server|client)\]$/.exec(line);
      if (item !== null) notScored.push({ scenario: item[1]!, side: item[2] as 'server' | 'client', reason });
    }
  }
  return {
    revision,
    server: parseScenarioList(scored, 'Server scenarios'),
    client: parseScenarioList(scored, 'Client scenarios'),
    notScored,
  };
}

/** Every scenario a requirement set runs on one side, scored or not. */
export function requirementScenarios(set: RequirementSet, side: 'server' | 'client'): string[] {
  return [...set[side], ...set.notScored.filter((item) => item.side === side).map((item) => item.scenario)];
}

// A result folder: `<name>-<ISO timestamp with - for : and .>`.
const TIMESTAMP = /-\d{4}-\d{2}-\d{2}T[\d-]+Z$/;

/**
 * The outcome of every scenario the CLI left in `outputDir`: server results are `server-<scenario>-<timestamp>/`,
 * client results `<scenario>-<timestamp>/` (an `auth/x` scenario under `auth/`). Each holds a `checks.json`.
 */
export async function collectOutcomes(outputDir: string, side: 'server' | 'client'): Promise<ScenarioOutcome[]> {
  const outcomes: ScenarioOutcome[] = [];
  if (!existsSync(outputDir)) return outcomes;
  const entries = await readdir(outputDir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || entry.name !== 'checks.json') continue;
    const folder = entry.parentPath;
    const name = relative(outputDir, folder).split(sep).join('/').replace(TIMESTAMP, '');
    const scenario = side === 'server' ? name.replace(/^server-/, '') : name;
    outcomes.push(await readScenarioOutcome(scenario, folder));
  }
  return outcomes.sort((a, b) => a.scenario.localeCompare(b.scenario));
}
