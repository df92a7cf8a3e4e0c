// Keeps the gateway hop bench from rotting: `bench:gateway --quick` must produce finite positive figures for both
// upstream transports, direct, through the gateway and through the hand-written floor proxy, in the documented JSON
// shape. No target is asserted (CI noise); the figures and the target (≤ 1.3× the direct latency) live in the README.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

it('bench:gateway --quick measures one hop over stdio and HTTP, through the gateway and the floor proxy', () => {
  const out = join(tmpdir(), `mcpkit-bench-gateway-${process.pid}.tmp.json`);
  const run = spawnSync(
    process.execPath,
    ['--conditions=@mcpkit/source', '--import', 'tsx', join(APP_DIR, 'src', 'gateway-hop.ts'), '--quick', '--out', out],
    { cwd: APP_DIR, encoding: 'utf8', timeout: 120_000, killSignal: 'SIGKILL' },
  );
  expect(run.status, run.stderr).toBe(0);
  const report = JSON.parse(readFileSync(out, 'utf8'));
  expect(report).toMatchObject({
    schema: 'mcpkit-bench-gateway/3',
    mode: 'quick',
    clients: 16,
    routes: ['direct', 'gateway-stdio', 'gateway-http', 'floor-stdio', 'floor-http'],
  });
  for (const upstream of ['stdio', 'http']) {
    const figures = report.results[upstream];
    for (const key of [
      'directCallsPerSecond',
      'gatewayCallsPerSecond',
      'directP50Ms',
      'gatewayP50Ms',
      'directP99Ms',
      'gatewayP99Ms',
      'p50Ratio',
      'p99Ratio',
      'floorCallsPerSecond',
      'floorP50Ms',
      'floorP99Ms',
      'floorP50Ratio',
      'floorP99Ratio',
      'floorSequentialP50Ms',
      'gatewayOverFloorP50Ratio',
    ]) {
      expect(Number.isFinite(figures[key]) && figures[key] > 0, `${upstream} ${key}`).toBe(true);
    }
    // The CPU per call of the proxies and their upstreams, where /proc tells it (Linux, as in CI).
    if (process.platform === 'linux') {
      for (const key of [
        'gatewayCpuUsPerCall',
        'gatewayUpstreamCpuUsPerCall',
        'floorCpuUsPerCall',
        'floorUpstreamCpuUsPerCall',
      ]) {
        expect(Number.isFinite(figures[key]) && figures[key] >= 0, `${upstream} ${key}`).toBe(true);
      }
      expect(Number.isFinite(figures.gatewayOverFloorCpuUsPerCall), `${upstream} gatewayOverFloorCpuUsPerCall`).toBe(
        true,
      );
    }
  }
}, 130_000);
