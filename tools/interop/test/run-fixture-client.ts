import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** One step of a fixture client's report (see fixtures/client-cli.mjs). */
export interface FixtureStep {
  name: string;
  ok: boolean;
  detail: string;
  skipped?: boolean;
}

/** The JSON report a fixture client prints on stdout. */
export interface FixtureReport {
  client: string;
  protocolVersion: string | null;
  era: 'legacy' | 'modern' | null;
  server: { name: string; version: string } | null;
  steps: FixtureStep[];
}

/** What a run produced: the exit code, the parsed report and stderr (for failure messages). */
export interface FixtureRun {
  exitCode: number | null;
  report: FixtureReport;
  stderr: string;
}

/** Absolute path of a file in tools/interop/fixtures. */
/** Every step a fixture client reports, in order (fixtures/client-steps.mjs plus `connect`). */
export const STEP_NAMES = [
  'connect',
  'ping',
  'tools/list',
  'tools/call echo',
  'tools/call add (structured)',
  'tools/call slow (progress)',
  'tools/call slow (cancel)',
  'elicitation (ask-name)',
  'sampling (summarise)',
  'roots (list-roots)',
  'logging',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'resources/read (template)',
  'completion (template variable)',
  'prompts/list',
  'completion (prompt argument)',
  'prompts/get',
  'resource subscription',
];

export const fixturePath = (file: string): string => fileURLToPath(new URL(`../fixtures/${file}`, import.meta.url));

/**
 * Node flags that run a TypeScript fixture from mcpkit's source, no build: the `@mcpkit/source` export condition
 * (workspace packages resolve to `src/index.ts`) and tsx's loader, imported in-process (`--import`) rather than through
 * the `tsx` CLI, which would add a second node process per fixture.
 */
export const TS_NODE_ARGS: readonly string[] = [
  '--conditions=@mcpkit/source',
  '--import',
  pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href,
];

/** The command that runs a fixture: `node <file>` for `.mjs`, `node <TS_NODE_ARGS> <file>` for `.ts`. */
export const fixtureCommand = (file: string): string[] => [
  process.execPath,
  ...(file.endsWith('.ts') ? TS_NODE_ARGS : []),
  fixturePath(file),
];

/**
 * Runs `node <client> [clientArgs] -- <server...>` and parses its one-line JSON report.
 *
 * Bounded: the child (and with it the server it spawned, whose stdin closes) is killed after `timeoutMs`, and the
 * promise rejects with everything the run printed so a hang reads as a failure with context.
 *
 * @example
 * const run = await runFixtureClient('official-v2-client.mjs', ['--version', 'auto'], ['node', fixturePath('official-v2-server.mjs')]);
 * expect(run.report.protocolVersion).toBe('2026-07-28');
 */
export function runFixtureClient(
  client: string,
  clientArgs: readonly string[],
  server: readonly string[],
  timeoutMs = 30_000,
): Promise<FixtureRun> {
  return new Promise((resolve, reject) => {
    const [node, ...nodeArgs] = fixtureCommand(client) as [string, ...string[]];
    const child = spawn(node, [...nodeArgs, ...clientArgs, '--', ...server], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${client} did not finish within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      try {
        resolve({ exitCode, report: JSON.parse(stdout) as FixtureReport, stderr });
      } catch {
        reject(new Error(`${client} printed no JSON report (exit ${exitCode})\nstdout: ${stdout}\nstderr: ${stderr}`));
      }
    });
  });
}
