// Every template scaffolded into a temporary folder, installed with plain npm from the packed tarballs, and its own test
// run there, as a user outside this repository would. It packs every package and runs four npm installs (minutes), so
// it is opt-in: MCPKIT_TEST_INIT_INSTALL=1 (MCPKIT_PACKS=<folder> reuses tarballs already packed).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { TEMPLATES } from '../src/init/templates';
import { REPO, runCli } from './run-cli';

const execFileAsync = promisify(execFile);

/** Runs a command; a failure carries what it printed (tsc and vitest print their errors on stdout). */
async function run(command: string, args: string[], options: { cwd: string; timeout: number }) {
  try {
    return await execFileAsync(command, args, options);
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${options.cwd}:\n${stdout}${stderr}`);
  }
}
const scratch = mkdtempSync(join(tmpdir(), 'mcpkit-init-install-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.skipIf(!process.env.MCPKIT_TEST_INIT_INSTALL)(
  'mcpkit init, installed from the tarballs',
  { timeout: 900_000 },
  () => {
    let packs = process.env.MCPKIT_PACKS ?? '';

    it('packs the packages', async () => {
      if (packs) return;
      packs = join(scratch, 'packs');
      await run(process.execPath, [join(REPO, 'scripts', 'pack.mjs'), '--out', packs], { cwd: REPO, timeout: 600_000 });
    });

    it.each(TEMPLATES.map((template) => template.name))('%s: npm install, then npm test', async (name) => {
      const folder = join(scratch, name);
      const created = await runCli(['init', name, folder, '--from', packs, '--json']);
      expect(created.code, created.stderr).toBe(0);
      await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: folder, timeout: 300_000 });
      const { stdout } = await run('npm', ['test'], { cwd: folder, timeout: 120_000 });
      expect(stdout).toMatch(/1 passed/);
      await run('npm', ['run', 'typecheck'], { cwd: folder, timeout: 120_000 });
    });
  },
);
