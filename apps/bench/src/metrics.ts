// What the bench reports: the metrics, their units and direction, and issue 7's targets (ratio of mcpkit to the
// official v2 SDK, same run).
import type { Implementation } from './build';

export type MetricGroup = 'stdio-seq' | 'stdio-pipe' | 'cold-start' | 'size' | 'large';

export interface MetricDef {
  id: string;
  /** Issue 7's metric number. */
  issueMetric: number;
  group: MetricGroup;
  title: string;
  unit: string;
  better: 'higher' | 'lower';
  /** mcpkit ÷ official-v2 must be ≥ (higher is better) or ≤ (lower is better) this. */
  target?: number;
  /** Implementations this metric has no figure for (the floor has no client bundle nor install). */
  skip?: Implementation[];
}

export const METRICS: MetricDef[] = [
  {
    id: 'stdio-seq-calls-per-s',
    issueMetric: 1,
    group: 'stdio-seq',
    title: 'stdio sequential',
    unit: 'calls/s',
    better: 'higher',
    target: 2.5,
  },
  {
    id: 'stdio-seq-p50-us',
    issueMetric: 1,
    group: 'stdio-seq',
    title: 'stdio sequential p50',
    unit: 'µs',
    better: 'lower',
  },
  {
    id: 'stdio-seq-p99-us',
    issueMetric: 1,
    group: 'stdio-seq',
    title: 'stdio sequential p99',
    unit: 'µs',
    better: 'lower',
  },
  {
    id: 'stdio-seq-server-cpu-us',
    issueMetric: 1,
    group: 'stdio-seq',
    title: 'server CPU per call',
    unit: 'µs',
    better: 'lower',
    target: 0.4,
  },
  {
    id: 'stdio-seq-client-cpu-us',
    issueMetric: 1,
    group: 'stdio-seq',
    title: 'client CPU per call',
    unit: 'µs',
    better: 'lower',
    target: 0.4,
  },
  {
    id: 'stdio-pipelined-calls-per-s',
    issueMetric: 2,
    group: 'stdio-pipe',
    title: 'stdio pipelined (64 in flight)',
    unit: 'calls/s',
    better: 'higher',
    target: 3,
  },
  {
    id: 'cold-start-ms',
    issueMetric: 5,
    group: 'cold-start',
    title: 'cold start to initialize result',
    unit: 'ms',
    better: 'lower',
    target: 0.6,
  },
  {
    id: 'size-server-raw-bytes',
    issueMetric: 6,
    group: 'size',
    title: 'minimal server bundle',
    unit: 'bytes',
    better: 'lower',
    target: 0.2,
  },
  {
    id: 'size-server-gzip-bytes',
    issueMetric: 6,
    group: 'size',
    title: 'minimal server bundle, gzip',
    unit: 'bytes',
    better: 'lower',
    target: 0.2,
  },
  {
    id: 'size-client-raw-bytes',
    issueMetric: 6,
    group: 'size',
    title: 'minimal client bundle',
    unit: 'bytes',
    better: 'lower',
    skip: ['raw'],
  },
  {
    id: 'size-client-gzip-bytes',
    issueMetric: 6,
    group: 'size',
    title: 'minimal client bundle, gzip',
    unit: 'bytes',
    better: 'lower',
    skip: ['raw'],
  },
  {
    id: 'install-server-packages',
    issueMetric: 6,
    group: 'size',
    title: 'packages, server-only install',
    unit: 'packages',
    better: 'lower',
    skip: ['raw'],
  },
  {
    id: 'stdio-10mb-ms',
    issueMetric: 7,
    group: 'large',
    title: '10 MiB echo over stdio (quick: 1 MiB)',
    unit: 'ms',
    better: 'lower',
    target: 0.5,
  },
];

/** Issue 7 metrics this harness does not measure yet, with the reason printed and written to the JSON. */
export const NOT_MEASURED = [
  {
    issueMetric: 3,
    title: 'Streamable HTTP throughput and p99 (1/16/64 clients, four modes, server alone)',
    reason: 'not yet measured',
  },
  { issueMetric: 4, title: 'memory per idle HTTP session', reason: 'not yet measured' },
  { issueMetric: 7, title: '10 MB over HTTP', reason: 'not yet measured (stdio is measured)' },
  { issueMetric: 8, title: 'WebSocket calls/s', reason: 'not yet measured' },
];

/** `--only` accepts a group name or issue 7's metric number. */
export function groupsFor(only: string | undefined): MetricGroup[] {
  const all: MetricGroup[] = ['stdio-seq', 'stdio-pipe', 'cold-start', 'size', 'large'];
  if (only === undefined) return all;
  const byNumber: Record<string, MetricGroup> = {
    '1': 'stdio-seq',
    '2': 'stdio-pipe',
    '5': 'cold-start',
    '6': 'size',
    '7': 'large',
  };
  const group = byNumber[only] ?? (all.includes(only as MetricGroup) ? (only as MetricGroup) : undefined);
  if (group === undefined) throw new Error(`--only ${only}: expected one of ${all.join(', ')} or 1, 2, 5, 6, 7`);
  return [group];
}
