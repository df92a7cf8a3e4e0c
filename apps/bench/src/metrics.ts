// What the bench reports: the metrics, their units and direction, and issue 7's targets (ratio of mcpkit to the
// official v2 SDK, same run).
import type { Implementation } from './build';
import type { HttpMode } from './drivers/concurrent';

export type MetricGroup =
  | 'stdio-seq'
  | 'stdio-pipe'
  | 'http'
  | 'http-alone'
  | 'memory'
  | 'cold-start'
  | 'size'
  | 'large'
  | 'ws';

export const ALL_GROUPS: readonly MetricGroup[] = [
  'stdio-seq',
  'stdio-pipe',
  'http',
  'http-alone',
  'memory',
  'cold-start',
  'size',
  'large',
  'ws',
];

/** The HTTP modes in table order, and what the table calls them. */
export const HTTP_MODES: readonly HttpMode[] = ['stateful-json', 'stateful-sse', 'stateless', 'modern'];
export const HTTP_MODE_TITLES: Record<HttpMode, string> = {
  'stateful-json': 'stateful JSON',
  'stateful-sse': 'stateful SSE',
  stateless: 'legacy stateless',
  modern: '2026-07-28',
};
/** Concurrent sessions of the HTTP metric; issue 14's HTTP target (≥ 5× official v2) holds at every level. */
export const HTTP_LEVELS = [1, 16, 64] as const;
/**
 * Issue 14: Streamable HTTP with each SDK's own client, every mode and level, mcpkit ≥ 5× official v2 (and ≥ 0.4× the
 * floor: the `mcpkit ÷ raw` column).
 */
const HTTP_TARGET_VS_V2 = 5;
/** Modes of "server alone" (the raw client against each server) and issue 7's target for each (mcpkit ÷ v2 CPU). */
export const ALONE_TARGETS: Partial<Record<HttpMode, number>> = {
  'stateful-json': 1 / 3,
  stateless: 1 / 6,
  modern: 1 / 6,
};
/** WebSocket session counts, and the calls in flight of the pipelined run (server: mcpkit's, for both clients). */
export const WS_LEVELS = [1, 16] as const;
export const WS_IN_FLIGHT = 64;

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
  /** Only these implementations have a figure (WebSocket: mcpkit, v1's client and the floor). */
  only?: Implementation[];
  /** Issue 14's target for this metric (see `Goal`). */
  goal?: Goal;
  /** A figure derived from another metric: each implementation's median minus the floor's (cold start, node boot). */
  minusFloorOf?: string;
  /**
   * A difference of two process-wide readings that the process may lower on its own (RSS: the allocator returns
   * pages), so a short run can read at or below zero.
   */
  mayDropBelowZero?: boolean;
}

/**
 * Issue 14's targets: mcpkit ÷ the floor (`raw`) or ÷ official v2, same run, `≥ value` (higher is better) or
 * `≤ value`; or mcpkit's own figure against an absolute bound (`bound`, in the metric's unit).
 */
export interface Goal {
  vs: 'raw' | 'official-v2' | 'bound';
  value: number;
}

const KIB = 1024;

/** The stdio metrics whose zod-style twin (`<id>-zod`, zod schemas on both sides) the bench also measures. */
const ZOD_TWINS = new Set([
  'stdio-seq-calls-per-s',
  'stdio-seq-p50-us',
  'stdio-seq-p99-us',
  'stdio-seq-server-cpu-us',
  'stdio-seq-client-cpu-us',
  'stdio-pipelined-calls-per-s',
  'cold-start-ms',
  'cold-start-net-ms',
]);

/** What tmcp has a figure for: its zod setup over stdio (tmcp has no client and takes schemas through adapters). */
function tmcpMeasured(id: string): boolean {
  return id.endsWith('-zod') || id === 'install-server-packages';
}

/**
 * Each metric in ZOD_TWINS followed by its zod twin (same targets; no issue 7 target, which was set in JSON), and
 * tmcp skipped wherever it has no figure.
 */
function withZodTwins(metrics: MetricDef[]): MetricDef[] {
  return metrics
    .flatMap(twins)
    .map((metric) =>
      tmcpMeasured(metric.id) || metric.only !== undefined
        ? metric
        : { ...metric, skip: [...(metric.skip ?? []), 'tmcp' as const] },
    );
}

function twins(metric: MetricDef): MetricDef[] {
  if (!ZOD_TWINS.has(metric.id)) return [metric];
  const { target: _issue7, ...rest } = metric;
  const twin: MetricDef = {
    ...rest,
    id: `${metric.id}-zod`,
    title: `${metric.title} (zod)`,
    ...(metric.minusFloorOf ? { minusFloorOf: `${metric.minusFloorOf}-zod` } : {}),
  };
  return [{ ...metric, title: `${metric.title} (JSON Schema)` }, twin];
}

function httpMetrics(): MetricDef[] {
  const out: MetricDef[] = [];
  for (const mode of HTTP_MODES) {
    // The official v1 SDK does not speak 2026-07-28.
    const skip: Implementation[] | undefined = mode === 'modern' ? ['official-v1'] : undefined;
    for (const level of HTTP_LEVELS) {
      out.push({
        id: `http-${mode}-${level}-calls-per-s`,
        issueMetric: 3,
        group: 'http',
        title: `HTTP ${HTTP_MODE_TITLES[mode]}, ${level} client${level === 1 ? '' : 's'}`,
        unit: 'calls/s',
        better: 'higher',
        target: HTTP_TARGET_VS_V2,
        ...(skip ? { skip } : {}),
      });
      out.push({
        id: `http-${mode}-${level}-p99-us`,
        issueMetric: 3,
        group: 'http',
        title: `HTTP ${HTTP_MODE_TITLES[mode]}, ${level} client${level === 1 ? '' : 's'}, p99`,
        unit: 'µs',
        better: 'lower',
        ...(skip ? { skip } : {}),
      });
    }
    // Where the time of the 16-session run goes: each side's CPU per call (the floor: raw client and server).
    for (const side of ['server', 'client'] as const) {
      out.push({
        id: `http-${mode}-16-${side}-cpu-us`,
        issueMetric: 3,
        group: 'http',
        title: `HTTP ${HTTP_MODE_TITLES[mode]}, 16 clients, ${side} CPU per call`,
        unit: 'µs',
        better: 'lower',
        ...(skip ? { skip } : {}),
      });
    }
  }
  for (const [mode, target] of Object.entries(ALONE_TARGETS) as [HttpMode, number][]) {
    const skip: Implementation[] | undefined = mode === 'modern' ? ['official-v1'] : undefined;
    out.push({
      id: `http-alone-${mode}-server-cpu-us`,
      issueMetric: 3,
      group: 'http-alone',
      title: `server alone (raw client, 16 sessions), ${HTTP_MODE_TITLES[mode]}: server CPU per call`,
      unit: 'µs',
      better: 'lower',
      target,
      ...(skip ? { skip } : {}),
    });
    out.push({
      id: `http-alone-${mode}-calls-per-s`,
      issueMetric: 3,
      group: 'http-alone',
      title: `server alone (raw client, 16 sessions), ${HTTP_MODE_TITLES[mode]}`,
      unit: 'calls/s',
      better: 'higher',
      ...(skip ? { skip } : {}),
    });
  }
  return out;
}

function wsMetrics(): MetricDef[] {
  return [
    ...WS_LEVELS.map(
      (level): MetricDef => ({
        id: `ws-${level}-calls-per-s`,
        issueMetric: 8,
        group: 'ws',
        title: `WebSocket, ${level} connection${level === 1 ? '' : 's'}, sequential (mcpkit server; v1: its client; floor: bare ws)`,
        unit: 'calls/s',
        better: 'higher',
        only: ['mcpkit', 'official-v1', 'raw'],
      }),
    ),
    {
      id: 'ws-pipelined-calls-per-s',
      issueMetric: 8,
      group: 'ws',
      title: `WebSocket, ${WS_IN_FLIGHT} in flight on one connection (mcpkit server; v1: its client; floor: bare ws)`,
      unit: 'calls/s',
      better: 'higher',
      only: ['mcpkit', 'official-v1', 'raw'],
    },
  ];
}

export const METRICS: MetricDef[] = withZodTwins([
  {
    id: 'stdio-seq-calls-per-s',
    issueMetric: 1,
    group: 'stdio-seq',
    title: 'stdio sequential',
    unit: 'calls/s',
    better: 'higher',
    target: 2.5,
    goal: { vs: 'raw', value: 0.75 },
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
    goal: { vs: 'raw', value: 1.5 },
  },
  {
    id: 'stdio-seq-client-cpu-us',
    issueMetric: 1,
    group: 'stdio-seq',
    title: 'client CPU per call',
    unit: 'µs',
    better: 'lower',
    target: 0.4,
    goal: { vs: 'raw', value: 1.5 },
  },
  {
    id: 'stdio-pipelined-calls-per-s',
    issueMetric: 2,
    group: 'stdio-pipe',
    title: 'stdio pipelined (64 in flight)',
    unit: 'calls/s',
    better: 'higher',
    target: 3,
    goal: { vs: 'raw', value: 0.6 },
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
    id: 'cold-start-net-ms',
    issueMetric: 5,
    group: 'cold-start',
    title: 'cold start, node boot subtracted (minus the floor)',
    unit: 'ms',
    better: 'lower',
    minusFloorOf: 'cold-start-ms',
    skip: ['raw'],
    goal: { vs: 'official-v2', value: 0.5 },
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
    id: 'size-server-raw-bytes-zod',
    issueMetric: 6,
    group: 'size',
    title: 'minimal server bundle with zod (mcpkit: McpToolServer)',
    unit: 'bytes',
    better: 'lower',
    skip: ['raw'],
  },
  {
    id: 'size-server-nonzod-bytes-zod',
    issueMetric: 6,
    group: 'size',
    title: 'minimal server bundle with zod, non-zod bytes',
    unit: 'bytes',
    better: 'lower',
    skip: ['raw'],
    goal: { vs: 'bound', value: 60 * KIB },
  },
  {
    id: 'size-client-raw-bytes',
    issueMetric: 6,
    group: 'size',
    title: 'minimal client bundle',
    unit: 'bytes',
    better: 'lower',
    skip: ['raw'],
    goal: { vs: 'bound', value: 60 * KIB },
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
    id: 'stdio-big-ms',
    issueMetric: 7,
    group: 'large',
    title: 'small request, 10 MB text result, stdio (quick: 1 MB)',
    unit: 'ms',
    better: 'lower',
    target: 0.5,
  },
  {
    id: 'http-big-ms',
    issueMetric: 7,
    group: 'large',
    title: 'small request, 10 MB text result, HTTP stateful JSON (quick: 1 MB)',
    unit: 'ms',
    better: 'lower',
  },
  {
    id: 'memory-idle-session-heap-bytes',
    issueMetric: 4,
    group: 'memory',
    title: 'heap per idle HTTP session (legacy, stateful SSE; after GC)',
    unit: 'bytes',
    better: 'lower',
    target: 0.1,
    goal: { vs: 'bound', value: 1 * KIB },
  },
  {
    id: 'memory-idle-ws-connection-heap-bytes',
    issueMetric: 4,
    group: 'memory',
    title: 'heap per idle WebSocket connection (after GC; floor: a bare ws server)',
    unit: 'bytes',
    better: 'lower',
    only: ['mcpkit', 'raw'],
  },
  {
    id: 'memory-idle-ws-ours-bytes',
    issueMetric: 4,
    group: 'memory',
    title: 'heap per idle WebSocket connection, our own objects (mcpkit minus the floor)',
    unit: 'bytes',
    better: 'lower',
    minusFloorOf: 'memory-idle-ws-connection-heap-bytes',
    only: ['mcpkit'],
    goal: { vs: 'bound', value: 4 * KIB },
  },
  {
    id: 'memory-idle-session-rss-bytes',
    issueMetric: 4,
    group: 'memory',
    title: 'RSS per idle HTTP session (after GC)',
    unit: 'bytes',
    better: 'lower',
    mayDropBelowZero: true,
  },
  ...httpMetrics(),
  ...wsMetrics(),
]);

/** `--only` accepts group names or issue 7's metric numbers, comma-separated (`--only 3,4`, `--only ws`). */
export function groupsFor(only: string | undefined): MetricGroup[] {
  if (only === undefined) return [...ALL_GROUPS];
  const byNumber: Record<string, MetricGroup[]> = {
    '1': ['stdio-seq'],
    '2': ['stdio-pipe'],
    '3': ['http', 'http-alone'],
    '4': ['memory'],
    '5': ['cold-start'],
    '6': ['size'],
    '7': ['large'],
    '8': ['ws'],
  };
  const groups = new Set<MetricGroup>();
  for (const part of only.split(',')) {
    const named = ALL_GROUPS.includes(part as MetricGroup) ? [part as MetricGroup] : byNumber[part];
    if (named === undefined)
      throw new Error(`--only ${part}: expected one of ${ALL_GROUPS.join(', ')} or 1 to 8 (comma-separated)`);
    for (const group of named) groups.add(group);
  }
  return ALL_GROUPS.filter((group) => groups.has(group));
}
