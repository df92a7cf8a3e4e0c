// Every template scaffolded into a temporary folder, installed with plain npm from the packed tarballs, and its own test
// and type check run there, as a user outside this repository would. The four projects are installed side by side
// from npm's cache (`--prefer-offline`); `npm test` packs once and hands the tarballs over in MCPKIT_PACKS (run alone,
// this file packs them itself).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { TEMPLATES } from '../src/init/templates';
import { REPO, runCli } from './run-cli';

const execFileAsync = promisify(execFile);

/** Runs a command; a failure carries what it printed (tsc and vitest print their errors on stdout). */
async function run(
  command: string,
  args: string[],
  options: { cwd: string; timeout: number; env?: NodeJS.ProcessEnv },
) {
  try {
    return await execFileAsync(command, args, options);
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${options.cwd}:\n${stdout}${stderr}`);
  }
}
const scratch = mkdtempSync(join(tmpdir(), 'mcpkit-init-install-'));
// Four node_modules folders: removing them takes a while on a busy machine.
afterAll(() => rmSync(scratch, { recursive: true, force: true }), 120_000);

/**
 * The tasks template depends on better-sqlite3, whose install script downloads a prebuilt binary from GitHub and,
 * when it cannot (this machine reaches only the npm registry), compiles SQLite: five minutes on two cores. The
 * workspace's own copy of the same version was built for this Node when the repository was installed; offered as a
 * local prebuild (prebuild-install's `local-prebuilds`, named as the GitHub release names it), the install script
 * unpacks it instead, as it would unpack the download. When npm picks a newer 12.x than the workspace holds, the name
 * does not match and the install compiles: slow, still correct.
 */
async function localPrebuilds(): Promise<string> {
  const folder = join(scratch, 'prebuilds');
  mkdirSync(folder);
  const requireFromApp = createRequire(join(REPO, 'apps', 'tasks-demo', 'package.json'));
  const pkg = dirname(requireFromApp.resolve('better-sqlite3/package.json'));
  const binary = join('build', 'Release', 'better_sqlite3.node');
  if (!existsSync(join(pkg, binary))) return folder;
  const { version } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string };
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await run('tar', ['-czf', join(folder, name), '-C', pkg, binary], { cwd: scratch, timeout: 30_000 });
  return folder;
}

let packs = process.env.MCPKIT_PACKS ?? '';
let installEnv: NodeJS.ProcessEnv = {};

beforeAll(async () => {
  const prebuilds = localPrebuilds();
  if (!packs) {
    packs = join(scratch, 'packs');
    await run(process.execPath, [join(REPO, 'scripts', 'pack.mjs'), '--out', packs], { cwd: REPO, timeout: 600_000 });
  }
  // Plain output from the projects' vitest (this run's vitest sets FORCE_COLOR for its children).
  installEnv = {
    ...process.env,
    // prebuild-install's setting for one package (its rc form, `prebuild-install_local-prebuilds`, is not a valid shell
    // name and the shell running the install script drops it). npm warns that it does not know the setting.
    npm_config_better_sqlite3_local_prebuilds: await prebuilds,
    FORCE_COLOR: '0',
    NO_COLOR: '1',
  };
}, 600_000);

describe('mcpkit init, installed from the tarballs', () => {
  it.concurrent.for(TEMPLATES.map((template) => template.name))(
    '%s: npm install, npm test, npm run typecheck',
    { timeout: 300_000 },
    async (name, { expect }) => {
      const folder = join(scratch, name);
      const created = await runCli(['init', name, folder, '--from', packs, '--json']);
      expect(created.code, created.stderr).toBe(0);
      const options = { cwd: folder, env: installEnv };
      // The registry's packages from npm's cache when it has them (an empty cache downloads them, as a user's does).
      await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
        ...options,
        timeout: 240_000,
      });
      const test = await run('npm', ['test'], { ...options, timeout: 120_000 });
      expect(test.stdout).toMatch(/Tests\s+1 passed/);
      await run('npm', ['run', 'typecheck'], { ...options, timeout: 120_000 });
    },
  );
});
