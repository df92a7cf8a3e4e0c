import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');

// The demo checks itself (non-zero exit on a mismatch); these assertions pin what it is there to show, in both eras.
it('the demo: a task survives a killed server on SQLite, in both eras', { timeout: 60_000 }, async () => {
  const { stdout } = await run(
    process.execPath,
    ['--conditions=@mcpkit/source', '--import', 'tsx', 'src/demo.ts', '--quick'],
    { cwd: root, timeout: 50_000 },
  );
  const [modern = '', legacy = ''] = stdout.split('━━ ').slice(1);
  expect(modern).toContain('connected: 2026-07-28 (modern)');
  expect(legacy).toContain('connected: 2025-11-25 (legacy)');
  // Progress for the life of the task is a 2025-11-25 thing; 2026-07-28 shows it as the task's status message.
  expect(legacy).toMatch(/… progress 2\/6: step 2 of 6/);
  expect(modern).not.toContain('… progress');
  for (const era of [modern, legacy]) {
    expect(era).toContain('• task working: step 2 of 6');
    expect(era).toContain('✗ killing the server mid-task (SIGKILL)');
    expect(era).toContain('• task input_required');
    expect(era).toContain('? the server asks: "Halfway through (3 of 6 steps): go on?" → yes');
    expect(era).toContain('← Built in 6 steps.');
    expect(era).toContain('report: failed — The server restarted while this task was running');
  }
  expect(stdout).toMatch(/Done in \d+ ms: every step behaved as described, in both eras\.\n$/);
});
