// `tsx src/compare-runs.ts --before a.json,b.json,… --after c.json,d.json,…`: compares bench results (`pnpm bench
// --out`) of two builds of mcpkit, each run several times, interleaved. Per metric: the median over the runs of
// mcpkit's figure on each side, min–max, after ÷ before, and each side's spread ((max − min) ÷ median). The raw floor
// runs the same code on both sides, so its after ÷ before is what the machine alone moved: the noise to read the
// mcpkit ratio against. Prints a Markdown table; measures nothing itself.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { MetricReport } from './report';

const { values: options } = parseArgs({
  options: { before: { type: 'string' }, after: { type: 'string' } },
});
if (options.before === undefined || options.after === undefined) {
  throw new Error('usage: compare-runs --before a.json,b.json --after c.json,d.json');
}

type Results = { metrics: Record<string, MetricReport> };
const load = (list: string): Results[] =>
  list.split(',').map((file) => JSON.parse(readFileSync(file, 'utf8')) as Results);
const before = load(options.before);
const after = load(options.after);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Each run's median figure of `implementation` for `metric` (runs without one are left out). */
function figures(runs: Results[], metric: string, implementation: 'mcpkit' | 'raw'): number[] {
  const out: number[] = [];
  for (const run of runs) {
    const figure = run.metrics[metric]?.figures[implementation];
    if (figure !== undefined) out.push(figure.median);
  }
  return out;
}

const format = (value: number): string => (value >= 100 ? Math.round(value).toLocaleString('en-US') : value.toFixed(1));
const spread = (values: number[]): string =>
  `${Math.round(((Math.max(...values) - Math.min(...values)) / median(values)) * 100)} %`;
const side = (values: number[]): string =>
  `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;

const rows = [
  `| Metric | unit | before: median (min–max) of ${before.length} | after: median (min–max) of ${after.length} | after ÷ before | spread before / after | raw floor after ÷ before (noise) |`,
  '|---|---|---|---|---|---|---|',
];
for (const [id, metric] of Object.entries(before[0]?.metrics ?? {})) {
  const old = figures(before, id, 'mcpkit');
  const now = figures(after, id, 'mcpkit');
  if (old.length === 0 || now.length === 0) continue;
  const rawOld = figures(before, id, 'raw');
  const rawNow = figures(after, id, 'raw');
  const floor = rawOld.length > 0 && rawNow.length > 0 ? (median(rawNow) / median(rawOld)).toFixed(2) : '—';
  rows.push(
    `| ${metric.title} | ${metric.unit} | ${side(old)} | ${side(now)} | ${(median(now) / median(old)).toFixed(2)} | ${spread(old)} / ${spread(now)} | ${floor} |`,
  );
}
process.stdout.write(`${rows.join('\n')}\n`);
