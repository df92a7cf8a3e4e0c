// Keeps `bench:floors` from rotting: a small run must print its table and write finite positive figures in the
// documented JSON shape. As in quick.test.ts, no figure is compared with a target: CI noise would make that flaky.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('bench:floors', () => {
  it('measures the pipe and TCP echo floors and the 10 MB result steps', () => {
    const out = join(tmpdir(), `mcpkit-bench-floors-${process.pid}.tmp.json`);
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(APP_DIR, 'src', 'floors.ts'), '--calls', '2000', '--rounds', '1', '--out', out],
      { cwd: APP_DIR, encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('| NDJSON echo over loopback TCP, 64 in flight |');
    const results = JSON.parse(readFileSync(out, 'utf8'));
    rmSync(out);
    expect(results).toMatchObject({ schema: 'mcpkit-bench-floors/1', node: process.version, calls: 2000, rounds: 1 });
    const figures = [results.echo.pipe, results.echo.tcp, ...Object.values(results.bigResultMs)];
    expect(figures).toHaveLength(7);
    for (const figure of figures) {
      expect(Number.isFinite(figure)).toBe(true);
      expect(figure).toBeGreaterThan(0);
    }
  });

  it('refuses a count that is not a whole number above 0', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(APP_DIR, 'src', 'floors.ts'), '--calls', '0'], {
      cwd: APP_DIR,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('--calls takes a whole number above 0, not 0');
  });
});
