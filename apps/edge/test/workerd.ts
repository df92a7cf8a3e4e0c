// Runs the edge app's Worker in workerd through miniflare: the Worker bundled once per test file with esbuild (the
// @mcpkit packages from source), then served on 127.0.0.1 as two Workers that share one Durable Object namespace, so
// a test can send the requests of one session through different isolates.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { Log, LogLevel, Miniflare } from 'miniflare';

/** Bundles a Worker entry of this app (a path from the app folder; ESM, web-standard). */
export async function bundleWorker(entry: string, plugins: Plugin[] = []): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`../${entry}`, import.meta.url))],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['module', 'main'],
    conditions: ['@mcpkit/source', 'workerd', 'worker', 'browser', 'import', 'default'],
    logLevel: 'silent',
    // Left to workerd's Node compatibility (nodejs_compat_v2), which provides the node: modules it supports.
    external: ['node:*'],
    plugins,
  });
  return result.outputFiles[0]!.text;
}

/** The compatibility date the tests and wrangler.toml use. */
export const COMPATIBILITY_DATE = '2026-04-01';

export interface RunningWorkers {
  readonly mf: Miniflare;
  /** The entry Worker's URL (`/mcp` on it). */
  readonly url: URL;
  /** Fetch through Worker `a` or `b` (separate isolates, one Durable Object namespace). */
  fetchVia(worker: 'a' | 'b'): typeof fetch;
  dispose(): Promise<void>;
}

/** Starts the bundled Worker in workerd; `persist` keeps Durable Object storage in that folder across restarts. */
export async function startWorkers(
  script: string,
  options: { persist?: string; bindings?: Record<string, string>; port?: number } = {},
): Promise<RunningWorkers> {
  const persist = options.persist ?? mkdtempSync(join(tmpdir(), 'mcpkit-edge-'));
  const owned = options.persist === undefined;
  const common = {
    modules: true,
    script,
    compatibilityDate: COMPATIBILITY_DATE,
    compatibilityFlags: ['nodejs_compat_v2'],
    bindings: { REQUEST_STATE_SECRET: 'edge-test-secret-0123456789abcdef', ...options.bindings },
  };
  const objects = (scriptName?: string) => ({
    MCP_SESSIONS: { className: 'McpSession', useSQLite: true, ...(scriptName === undefined ? {} : { scriptName }) },
    MCP_TASKS: { className: 'McpTasks', useSQLite: true, ...(scriptName === undefined ? {} : { scriptName }) },
    MCP_NONCES: { className: 'McpNonces', useSQLite: true, ...(scriptName === undefined ? {} : { scriptName }) },
  });
  const mf = new Miniflare({
    // EDGE_DEBUG=1 shows the Workers' console (errors of the server go there).
    ...(process.env.EDGE_DEBUG ? { log: new Log(LogLevel.DEBUG) } : {}),
    host: '127.0.0.1',
    port: options.port ?? 0,
    durableObjectsPersist: persist,
    workers: [
      {
        ...common,
        name: 'a',
        durableObjects: objects(),
      },
      {
        ...common,
        name: 'b',
        durableObjects: objects('a'),
      },
    ],
  });
  const base = await mf.ready;
  // miniflare types its Fetcher with workers-types; at run time it is a fetch into that Worker.
  type Fetcher = { fetch(input: string, init?: unknown): Promise<unknown> };
  const workers = {
    a: (await mf.getWorker('a')) as unknown as Fetcher,
    b: (await mf.getWorker('b')) as unknown as Fetcher,
  };
  return {
    mf,
    url: new URL('/mcp', base),
    fetchVia(worker) {
      return ((input: string | URL | Request, init?: RequestInit) =>
        workers[worker].fetch(String(input), init)) as unknown as typeof fetch;
    },
    async dispose() {
      await mf.dispose();
      if (owned) rmSync(persist, { recursive: true, force: true });
    },
  };
}
