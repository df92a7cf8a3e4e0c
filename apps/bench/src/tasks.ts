// `pnpm --filter @mcpkit/app-bench bench:tasks [--quick] [--out file]`: @mcpkit/tasks on this machine, in-memory and
// SQLite stores side by side. Two figures per store:
//   - tasks/s: 2026-07-28 tools/call answered with a task, the tool finishing at once, then tasks/get until it reads
//     completed — created + completed per second, `concurrency` requestors at a time, through `Server.handle` (the
//     stateless path HTTP uses, without the socket), so the figure is the task machinery's, not a transport's;
//   - heap per live task: tasks whose handler waits, the heap (after GC) divided by their number — what holding one
//     unfinished task costs the process (the record, the running handler's closure and abort controller).
// No official SDK implements the 2026-07-28 tasks extension, so there is no peer column. Needs --expose-gc (the
// script re-runs itself with it).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { McpServer } from '@mcpkit/server';
import { InMemoryTaskStore, TaskServer, type TaskStore } from '@mcpkit/tasks';
import { SqliteTaskStore } from '@mcpkit/tasks/sqlite';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) {
  const again = spawnSync(
    process.execPath,
    ['--expose-gc', ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    {
      stdio: 'inherit',
    },
  );
  process.exit(again.status ?? 1);
}

const { values: options } = parseArgs({
  args: process.argv.slice(2).filter((arg) => arg !== '--'),
  options: { quick: { type: 'boolean', default: false }, out: { type: 'string' } },
});
const quick = options.quick === true;
const TASKS = quick ? 500 : 10_000;
const LIVE = quick ? 500 : 10_000;
const CONCURRENCY = 32;
const ROUNDS = quick ? 1 : 3;
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};
const dir = mkdtempSync(join(tmpdir(), 'mcpkit-bench-tasks-'));
let files = 0;

type StoreKind = 'memory' | 'sqlite';

async function newStore(kind: StoreKind, maxTasks: number): Promise<TaskStore> {
  return kind === 'memory'
    ? new InMemoryTaskStore({ maxTasks, sweepIntervalMs: 0 })
    : SqliteTaskStore.open(join(dir, `bench-${files++}.db`), { maxTasks, sweepIntervalMs: 0 });
}

function server(store: TaskStore, hold?: Promise<void>) {
  const mcp = new McpServer({ name: 'bench-tasks', version: '1.0.0' }, { logging: false });
  const tasks = new TaskServer(mcp, { store, maxLiveTasksPerRequestor: 1_000_000, recover: false });
  mcp.registerTool('work', { execution: { taskSupport: 'required' } }, async () => {
    if (hold !== undefined) await hold;
    return { content: [{ type: 'text', text: 'done' }] };
  });
  return { mcp, tasks };
}

let nextId = 1;
async function call(mcp: McpServer, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = (await mcp.handle({
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: { ...params, _meta: MODERN_META },
  })) as {
    result?: Record<string, unknown>;
    error?: { message: string };
  };
  if (response.result === undefined) throw new Error(`${method}: ${response.error?.message}`);
  return response.result;
}

/** Created + completed tasks per second. */
async function throughput(kind: StoreKind): Promise<number> {
  const store = await newStore(kind, TASKS + 10);
  const { mcp } = server(store);
  let remaining = TASKS;
  const started = performance.now();
  const worker = async () => {
    while (remaining-- > 0) {
      const created = await call(mcp, 'tools/call', { name: 'work', arguments: {} });
      for (;;) {
        const task = await call(mcp, 'tasks/get', { taskId: created.taskId });
        if (task.status === 'completed') break;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  return TASKS / seconds;
}

/** Heap bytes per unfinished task. */
async function heapPerLiveTask(kind: StoreKind): Promise<number> {
  let release!: () => void;
  const hold = new Promise<void>((resolve) => {
    release = resolve;
  });
  const store = await newStore(kind, LIVE + 10);
  const { mcp } = server(store, hold);
  await call(mcp, 'tools/call', { name: 'work', arguments: {} }); // warm every code path once
  gc!();
  const before = process.memoryUsage().heapUsed;
  for (let index = 1; index < LIVE; index++) await call(mcp, 'tools/call', { name: 'work', arguments: {} });
  gc!();
  const after = process.memoryUsage().heapUsed;
  release();
  await new Promise((resolve) => setTimeout(resolve, 50));
  await store.close();
  return (after - before) / (LIVE - 1);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const results: Record<string, { tasksPerSecond: number; heapBytesPerLiveTask: number }> = {};
try {
  for (const kind of ['memory', 'sqlite'] as const) {
    const rates: number[] = [];
    const heaps: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      rates.push(await throughput(kind));
      heaps.push(await heapPerLiveTask(kind));
    }
    results[kind] = { tasksPerSecond: Math.round(median(rates)), heapBytesPerLiveTask: Math.round(median(heaps)) };
    process.stderr.write(
      `${kind.padEnd(6)} ${String(results[kind].tasksPerSecond).padStart(7)} tasks/s created+completed  ` +
        `${String(results[kind].heapBytesPerLiveTask).padStart(6)} B heap per live task\n`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const report = {
  schema: 'mcpkit-bench-tasks/1',
  mode: quick ? 'quick' : 'full',
  date: new Date().toISOString(),
  node: process.version,
  tasks: TASKS,
  liveTasks: LIVE,
  concurrency: CONCURRENCY,
  rounds: ROUNDS,
  results,
};
if (options.out !== undefined) writeFileSync(options.out, `${JSON.stringify(report, null, 2)}\n`);
else process.stdout.write(`${JSON.stringify(report)}\n`);
