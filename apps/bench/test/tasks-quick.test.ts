// Keeps the tasks bench from rotting: `bench:tasks --quick` must produce finite positive figures for both stores, in
// the documented JSON shape. No target is asserted (CI noise); the figures live in the README.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

it('bench:tasks --quick measures both stores', () => {
  const out = join(tmpdir(), `mcpkit-bench-tasks-${process.pid}.tmp.json`);
  const run = spawnSync(
    process.execPath,
    ['--conditions=@mcpkit/source', '--import', 'tsx', join(APP_DIR, 'src', 'tasks.ts'), '--quick', '--out', out],
    { cwd: APP_DIR, encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL' },
  );
  expect(run.status, run.stderr).toBe(0);
  const report = JSON.parse(readFileSync(out, 'utf8'));
  expect(report).toMatchObject({ schema: 'mcpkit-bench-tasks/1', mode: 'quick' });
  for (const store of ['memory', 'sqlite']) {
    const { tasksPerSecond, heapBytesPerLiveTask } = report.results[store];
    expect(Number.isFinite(tasksPerSecond) && tasksPerSecond > 0, `${store} tasks/s`).toBe(true);
    expect(Number.isFinite(heapBytesPerLiveTask) && heapBytesPerLiveTask > 0, `${store} heap`).toBe(true);
  }
}, 130_000);
