// Turns samples into the figures of results/*.json (median, min, max; mcpkit's ratio to each peer) and the printed
// table.
import { IMPLEMENTATIONS, type Implementation } from './build';
import { type Goal, METRICS, type MetricDef } from './metrics';

/** metric id → implementation → one sample per round (one in total for sizes). */
export type Samples = Map<string, Map<Implementation, number[]>>;

export interface Figure {
  median: number;
  min: number;
  max: number;
  samples: number;
}

export interface MetricReport {
  title: string;
  issueMetric: number;
  unit: string;
  better: 'higher' | 'lower';
  figures: Partial<Record<Implementation, Figure>>;
  /** mcpkit's median ÷ the peer's median. */
  ratios: Partial<Record<Exclude<Implementation, 'mcpkit'>, number>>;
  /** Issue 7's target: mcpkit ÷ official-v2 `≥ ratio` (better: higher) or `≤ ratio` (better: lower). */
  target?: { peer: 'official-v2'; ratio: number; holds: boolean };
  /** Issue 14's target: what was measured against it (a ratio, or mcpkit's figure for a bound) and whether it holds. */
  goal?: Goal & { measured: number; holds: boolean };
}

export function addSample(samples: Samples, metric: string, implementation: Implementation, value: number): void {
  const byImpl = samples.get(metric) ?? new Map<Implementation, number[]>();
  samples.set(metric, byImpl);
  const list = byImpl.get(implementation) ?? [];
  list.push(value);
  byImpl.set(implementation, list);
}

function figure(values: number[]): Figure {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median =
    sorted.length % 2 === 1
      ? (sorted[middle] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  return { median, min: sorted[0] as number, max: sorted.at(-1) as number, samples: sorted.length };
}

export function summarise(samples: Samples): Record<string, MetricReport> {
  const out: Record<string, MetricReport> = {};
  for (const metric of METRICS) {
    const byImpl = samples.get(metric.minusFloorOf ?? metric.id);
    if (byImpl === undefined) continue;
    const figures: MetricReport['figures'] = {};
    for (const name of IMPLEMENTATIONS) {
      const values = byImpl.get(name);
      if (values !== undefined && values.length > 0) figures[name] = figure(values);
    }
    if (metric.minusFloorOf !== undefined) {
      // Each figure less the floor's median (what the floor pays, node's own boot, is nobody's cost).
      const floor = figures.raw?.median;
      if (floor === undefined) continue;
      for (const name of IMPLEMENTATIONS) {
        const f = figures[name];
        const excluded =
          metric.skip?.includes(name) === true || (metric.only !== undefined && !metric.only.includes(name));
        if (f === undefined || excluded) delete figures[name];
        else figures[name] = { ...f, median: f.median - floor, min: f.min - floor, max: f.max - floor };
      }
    }
    const ours = figures.mcpkit?.median;
    const ratios: MetricReport['ratios'] = {};
    for (const peer of ['official-v2', 'official-v1', 'tmcp', 'raw'] as const) {
      const theirs = figures[peer]?.median;
      if (ours !== undefined && theirs !== undefined && theirs !== 0) ratios[peer] = ours / theirs;
    }
    const report: MetricReport = {
      title: metric.title,
      issueMetric: metric.issueMetric,
      unit: metric.unit,
      better: metric.better,
      figures,
      ratios,
    };
    const vsV2 = ratios['official-v2'];
    if (metric.target !== undefined && vsV2 !== undefined) {
      const holds = metric.better === 'higher' ? vsV2 >= metric.target : vsV2 <= metric.target;
      report.target = { peer: 'official-v2', ratio: metric.target, holds };
    }
    const goal = metric.goal;
    const measured = goal === undefined ? undefined : goal.vs === 'bound' ? ours : ratios[goal.vs];
    if (goal !== undefined && measured !== undefined) {
      const holds = metric.better === 'higher' ? measured >= goal.value : measured <= goal.value;
      report.goal = { ...goal, measured, holds };
    }
    out[metric.id] = report;
  }
  return out;
}

function number(value: number, unit: string): string {
  if (unit === 'bytes') return value >= 10_240 ? `${(value / 1024).toFixed(0)} KiB` : `${Math.round(value)} B`;
  if (value >= 100) return Math.round(value).toLocaleString('en');
  return value.toPrecision(3);
}

function cell(figure: Figure | undefined, unit: string): string {
  if (figure === undefined) return '—';
  if (figure.samples === 1 || figure.min === figure.max) return number(figure.median, unit);
  return `${number(figure.median, unit)} (${number(figure.min, unit)}–${number(figure.max, unit)})`;
}

function targetText(metric: MetricDef, report: MetricReport): string {
  if (report.target === undefined) return '';
  const ratio = Number(report.target.ratio.toFixed(2));
  return `${metric.better === 'higher' ? '≥' : '≤'} ${ratio}× ${report.target.holds ? 'holds' : 'MISSED'}`;
}

/** Rows of the ratio table, as Markdown (the README takes it as is; the console prints it too). */
export function markdownTable(reports: Record<string, MetricReport>): string {
  const header =
    '| Metric | unit | mcpkit | official v2 | official v1 | tmcp | raw floor | mcpkit ÷ v2 | mcpkit ÷ v1 | mcpkit ÷ tmcp | mcpkit ÷ raw | target vs v2 |';
  const rule = '|---|---|---|---|---|---|---|---|---|---|---|---|';
  const rows = METRICS.filter((metric) => reports[metric.id] !== undefined).map((metric) => {
    const report = reports[metric.id] as MetricReport;
    const f = report.figures;
    const ratio = (value: number | undefined) => (value === undefined ? '—' : `${value.toFixed(2)}×`);
    const u = metric.unit;
    return `| ${metric.issueMetric}. ${metric.title} | ${u} | ${cell(f.mcpkit, u)} | ${cell(f['official-v2'], u)} | ${cell(f['official-v1'], u)} | ${cell(f.tmcp, u)} | ${cell(f.raw, u)} | ${ratio(report.ratios['official-v2'])} | ${ratio(report.ratios['official-v1'])} | ${ratio(report.ratios.tmcp)} | ${ratio(report.ratios.raw)} | ${targetText(metric, report)} |`;
  });
  return [header, rule, ...rows].join('\n');
}

const GOAL_PEER: Record<Goal['vs'], string> = { raw: 'floor', 'official-v2': 'official v2', bound: '' };

/**
 * Issue 14's targets as Markdown: mcpkit ÷ the floor or ÷ official v2 (same run), or mcpkit's figure against a bound,
 * with the verdict; then WebSocket pipelined against stdio pipelined (mcpkit's own two figures), and the same ratio for
 * the floors, which says how far the transports themselves allow it.
 */
export function goalsTable(reports: Record<string, MetricReport>): string {
  const rows = METRICS.filter((metric) => metric.goal !== undefined).map((metric) => {
    const goal = metric.goal as Goal;
    const report = reports[metric.id];
    const sign = metric.better === 'higher' ? '≥' : '≤';
    const wanted =
      goal.vs === 'bound'
        ? `${sign} ${number(goal.value, metric.unit)}`
        : `${sign} ${goal.value}× ${GOAL_PEER[goal.vs]}`;
    if (report?.goal === undefined) return `| ${metric.title} | ${wanted} | — | not measured |`;
    const { measured, holds } = report.goal;
    const shown = goal.vs === 'bound' ? number(measured, metric.unit) : `${measured.toFixed(2)}×`;
    return `| ${metric.title} | ${wanted} | ${shown} | ${holds ? 'holds' : 'MISSED'} |`;
  });
  const ws = reports['ws-pipelined-calls-per-s']?.figures.mcpkit?.median;
  const stdio = reports['stdio-pipelined-calls-per-s']?.figures.mcpkit?.median;
  if (ws !== undefined && stdio !== undefined) {
    const measured = ws / stdio;
    rows.push(
      `| WebSocket pipelined ÷ stdio pipelined (mcpkit) | ≥ 1× | ${measured.toFixed(2)}× | ${measured >= 1 ? 'holds' : 'MISSED'} |`,
    );
  }
  const wsFloor = reports['ws-pipelined-calls-per-s']?.figures.raw?.median;
  const stdioFloor = reports['stdio-pipelined-calls-per-s']?.figures.raw?.median;
  if (wsFloor !== undefined && stdioFloor !== undefined) {
    rows.push(
      `| (context) the same for the floors: bare ws ÷ raw stdio | — | ${(wsFloor / stdioFloor).toFixed(2)}× | — |`,
    );
  }
  return ['| Target of issue 14 (same run) | wanted | measured | verdict |', '|---|---|---|---|', ...rows].join('\n');
}

/** Issue 7's targets (mcpkit ÷ official v2, same run) as Markdown: what was measured and by how much it holds or misses. */
export function targetsTable(reports: Record<string, MetricReport>): string {
  const rows = METRICS.filter((metric) => metric.target !== undefined).map((metric) => {
    const report = reports[metric.id];
    const sign = metric.better === 'higher' ? '≥' : '≤';
    const wanted = `${sign} ${Number((metric.target as number).toFixed(2))}×`;
    const measured = report?.ratios['official-v2'];
    if (report === undefined || measured === undefined)
      return `| ${metric.issueMetric}. ${metric.title} | ${wanted} | — | not measured |`;
    const holds = report.target?.holds === true;
    // How far off: the factor mcpkit must still gain (or has to spare).
    const factor =
      metric.better === 'higher' ? measured / (metric.target as number) : (metric.target as number) / measured;
    const verdict = holds
      ? `holds (${factor.toFixed(2)}× margin)`
      : `MISSED (needs ${(1 / factor).toFixed(2)}× better)`;
    return `| ${metric.issueMetric}. ${metric.title} | ${wanted} | ${measured.toFixed(2)}× | ${verdict} |`;
  });
  return ['| Target (mcpkit ÷ official v2) | wanted | measured | verdict |', '|---|---|---|---|', ...rows].join('\n');
}
