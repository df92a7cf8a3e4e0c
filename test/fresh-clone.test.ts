// What a newcomer does first, on a fresh clone with only Node and npm: `npm install` (npm's own install, then the
// postinstall hands the workspace over to pnpm), `npm run pack` (every package built and packed), `npm run demo` and
// the other apps' demos as their READMEs give them. (Every other shell line of every README is checked statically by
// tools/readme-check: scripts that exist, no bare pnpm, no registry install of @mcpkit packages.)
// Issue 31 found `npm run pack` failing there with `turbo ENOENT` and `npm install` leaving the packages unlinked.
//
// The clone is of HEAD (in CI, the checkout under test; locally, uncommitted changes are not in it). Its build reads
// turbo's cache of this checkout, which `npm test` filled a minute earlier, so the packages are restored, not rebuilt:
// what this test proves is that the scripts install what they need, not that tsup works (the build stage proves that).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const scratch = mkdtempSync(join(tmpdir(), 'mcpkit-fresh-clone-'));
const clone = join(scratch, 'mcpkit');
// A clone with its node_modules is tens of thousands of files: removing it takes a while on a busy machine.
afterAll(() => rmSync(scratch, { recursive: true, force: true }), 180_000);

// The environment of a terminal, not of the npm/pnpm script this suite runs under: no npm_* or pnpm variables that
// would make the clone's scripts believe they run inside another install.
const terminal: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !/^(npm_|PNPM_|pnpm_)/i.test(name) && name !== 'INIT_CWD'),
);
terminal.TURBO_CACHE_DIR = join(root, '.turbo', 'cache');

const inClone = (command: string, args: string[], timeout: number) =>
  run(command, args, { cwd: clone, env: terminal, timeout, maxBuffer: 64 * 1024 * 1024 });

it('npm install, npm run pack and the demos work on a fresh clone', { timeout: 900_000 }, async () => {
  await run('git', ['clone', '--quiet', '--no-hardlinks', root, clone], { timeout: 60_000 });

  await inClone('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], 300_000);
  // The postinstall replaced npm's layout with pnpm's: workspace packages are linked, the workspace's pnpm is there.
  expect(existsSync(join(clone, 'node_modules', '.pnpm')), 'pnpm laid out node_modules').toBe(true);
  expect(existsSync(join(clone, 'node_modules', '.bin', 'pnpm'))).toBe(true);
  expect(existsSync(join(clone, 'apps', 'quickstart', 'node_modules', '@mcpkit', 'server', 'package.json'))).toBe(true);

  const pack = await inClone('npm', ['run', 'pack'], 480_000);
  const packages = readdirSync(join(clone, 'packages')).filter(
    (name) => !JSON.parse(readFileSync(join(clone, 'packages', name, 'package.json'), 'utf8')).private,
  );
  const tarballs = readdirSync(join(clone, 'packs')).filter((file) => file.endsWith('.tgz'));
  expect(tarballs, pack.stdout).toHaveLength(packages.length);

  const demo = await inClone('npm', ['run', 'demo'], 180_000);
  expect(demo.stdout).toContain('What next');

  // The other demos, as their READMEs say to run them from the root (tasks-demo once failed here: it loaded dist/).
  // Each exits non-zero when a step does not behave as it describes.
  await inClone('npx', ['pnpm', '--filter', '@mcpkit/app-tasks-demo', 'demo', '--', '--quick'], 180_000);
  await inClone('npx', ['pnpm', '--filter', '@mcpkit/app-middleware-stack', 'demo'], 180_000);
});
