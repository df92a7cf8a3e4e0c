import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');

// The demo is what a newcomer runs first: it must keep working. It checks itself and exits non-zero on a mismatch.
it('npm run demo: every step behaves as it says', async () => {
  const tsx = join(root, '../../node_modules/.bin/tsx');
  const { stdout } = await run(tsx, ['--conditions=@mcpkit/source', 'src/demo.ts'], { cwd: root, timeout: 30_000 });
  expect(stdout).toContain('Done: every step behaved as described.');
  expect(stdout).toMatch(/RequestTimeoutError/);
  expect(stdout).toMatch(/ConnectionClosedError/);
});
