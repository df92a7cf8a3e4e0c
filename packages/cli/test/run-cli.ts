// Runs `mcpkit` in process with captured streams, as a script would see it.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CliIo } from '../src/io';
import { run } from '../src/main';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
/** tsx as a loader of this Node (one process; the tsx binary would start a second). */
export const TSX_LOADER = pathToFileURL(`${REPO}node_modules/tsx/dist/loader.mjs`).href;

/** The command line that starts a TypeScript server of the repo over stdio. */
export function tsServer(path: string): string[] {
  return ['--', process.execPath, '--import', TSX_LOADER, '--conditions=@mcpkit/source', `${REPO}${path}`];
}

/** A config folder of the tests' own: OAuth tokens never touch the user's. */
export const CONFIG_DIR = mkdtempSync(join(tmpdir(), 'mcpkit-cli-test-'));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  json(): unknown;
}

export async function runCli(argv: string[], extra: Partial<CliIo> = {}): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => (out += chunk));
  stderr.on('data', (chunk) => (err += chunk));
  const code = await run(argv, {
    stdin: new PassThrough(),
    stdout,
    stderr,
    env: { ...process.env, MCPKIT_NO_BROWSER: '1', MCPKIT_CONFIG_DIR: CONFIG_DIR },
    interactive: false,
    stderrIsTerminal: false,
    ...extra,
  });
  return { code, stdout: out, stderr: err, json: () => JSON.parse(out) };
}
