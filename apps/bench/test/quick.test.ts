// Keeps the bench from rotting: runs `bench --quick` (bounded) and checks that it produced a finite positive figure
// for every implementation and metric it claims, in the documented JSON shape. No performance target is asserted:
// CI noise would make that flaky; targets live in the README and the closing notes.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { METRICS } from '../src/metrics';

const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
const IMPLEMENTATIONS = ['mcpkit', 'official-v2', 'official-v1', 'tmcp', 'raw'];

describe('bench --quick', () => {
  it('measures every metric for every implementation and writes the documented JSON', () => {
    const out = join(tmpdir(), `mcpkit-bench-quick-${process.pid}.tmp.json`);
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', join(APP_DIR, 'src', 'bench.ts'), '--quick', '--out', out],
      { cwd: APP_DIR, encoding: 'utf8', timeout: 280_000, killSignal: 'SIGKILL' },
    );
    expect(run.status, run.stderr).toBe(0);
    const results = JSON.parse(readFileSync(out, 'utf8'));
    expect(results).toMatchObject({ schema: 'mcpkit-bench/2', mode: 'quick', rounds: 1 });
    expect(Number.isNaN(Date.parse(results.date))).toBe(false);
    expect(results.versions['@modelcontextprotocol/server']).toMatch(/^2\./);
    expect(results.versions['@modelcontextprotocol/sdk']).toMatch(/^1\./);
    expect(results.failures).toEqual([]);
    for (const metric of METRICS) {
      const report = results.metrics[metric.id];
      expect(report, metric.id).toBeDefined();
      expect(report).toMatchObject({ unit: metric.unit, better: metric.better, issueMetric: metric.issueMetric });
      const expected = IMPLEMENTATIONS.filter(
        (impl) => !metric.skip?.includes(impl as never) && (metric.only?.includes(impl as never) ?? true),
      );
      expect(Object.keys(report.figures).sort(), metric.id).toEqual([...expected].sort());
      for (const name of expected) {
        const figure = report.figures[name];
        for (const value of [figure.median, figure.min, figure.max]) {
          // A figure less the floor's (cold start minus node's boot), or an RSS difference (the process may hand pages
          // back between the readings), may come out at or below zero in one quick run.
          const ok =
            Number.isFinite(value) &&
            (metric.minusFloorOf !== undefined || metric.mayDropBelowZero === true || value > 0);
          expect(ok, `${metric.id} ${name}: ${value}`).toBe(true);
        }
        expect(figure.min).toBeLessThanOrEqual(figure.median);
        expect(figure.median).toBeLessThanOrEqual(figure.max);
        if (name !== 'mcpkit') {
          expect(report.ratios[name]).toBeCloseTo(report.figures.mcpkit.median / figure.median, 9);
        }
      }
      if (metric.target !== undefined) {
        expect(report.target).toMatchObject({ peer: 'official-v2', ratio: metric.target });
        expect(typeof report.target.holds).toBe('boolean');
      }
      if (metric.goal !== undefined) {
        expect(report.goal, metric.id).toMatchObject({ ...metric.goal, holds: expect.any(Boolean) });
        expect(Number.isFinite(report.goal.measured), metric.id).toBe(true);
      }
    }
    // Where the minimal server bundle's bytes come from: inputs and packages, largest first, summing to the bundle.
    expect(results.versions.tmcp).toMatch(/^1\./);
    const breakdown = results.sizeBreakdown.mcpkit.json;
    expect(results.sizeBreakdown.mcpkit.zod.packages.map((entry: { name: string }) => entry.name)).toContain('zod');
    expect(breakdown.packages.map((entry: { name: string }) => entry.name)).toContain('@mcpkit/server');
    const packageBytes = breakdown.packages.reduce((sum: number, entry: { bytes: number }) => sum + entry.bytes, 0);
    expect(packageBytes).toBeGreaterThan(0);
    expect(packageBytes).toBeLessThanOrEqual(results.metrics['size-server-raw-bytes'].figures.mcpkit.median);
    const inputBytes = breakdown.inputs.map((entry: { bytes: number }) => entry.bytes);
    expect(inputBytes).toEqual([...inputBytes].sort((a: number, b: number) => b - a));
  }, 300_000);
});
