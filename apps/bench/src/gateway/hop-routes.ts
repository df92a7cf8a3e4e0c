// The routes of the gateway hop bench (`gateway-hop.ts`) and the processes behind them: what each route starts, how
// its 16 clients connect, and the /proc accounting of each process's CPU. Every process runs built code (esbuild from
// the sources, as the main bench, not tsx).
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { build } from 'esbuild';
import { BUILD_DIR } from '../build';

/**
 * direct: the bench server; gateway-*: our gateway in front of it; floor-*: the hand-written proxy
 * (`floor-proxy.ts`) in front of it. `*-stdio`: the upstream is the server over stdio, the front's child;
 * `*-http`: the server over Streamable HTTP, in a process of its own.
 */
export const ROUTES = ['direct', 'gateway-stdio', 'gateway-http', 'floor-stdio', 'floor-http'] as const;
export type Route = (typeof ROUTES)[number];

/** The number of clients on every route. */
export const CLIENTS = 16;

/** `BENCH_CPU_PROF=<dir>`: the servers and proxies write V8 CPU profiles there (node --cpu-prof). */
const PROFILE = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
const SRC = join(new URL('.', import.meta.url).pathname, '..');
const OUT_DIR = join(BUILD_DIR, 'gateway-hop');

/** The bundled processes: the server over stdio and over HTTP, the gateway, the floor proxy. */
export interface Built {
  stdioServer: string;
  httpServer: string;
  gateway: string;
  floor: string;
}

/** Bundles the processes from the sources. */
export async function bundle(): Promise<Built> {
  await build({
    entryPoints: [
      { in: join(SRC, 'servers', 'mcpkit-server.ts'), out: 'mcpkit-server' },
      { in: join(SRC, 'servers', 'http', 'mcpkit-http-server.ts'), out: 'mcpkit-http-server' },
      { in: join(SRC, 'gateway', 'gateway-server.ts'), out: 'gateway-server' },
      { in: join(SRC, 'gateway', 'floor-proxy.ts'), out: 'floor-proxy' },
    ],
    outdir: OUT_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@mcpkit/source'],
    // ws (the gateway's WebSocket upstreams) is CommonJS and requires node built-ins.
    banner: {
      js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  const out = (name: string) => join(OUT_DIR, `${name}.mjs`);
  return {
    stdioServer: out('mcpkit-server'),
    httpServer: out('mcpkit-http-server'),
    gateway: out('gateway-server'),
    floor: out('floor-proxy'),
  };
}

/** Starts a process that announces its URL as a JSON line on stdout. */
function startAnnouncing(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...PROFILE, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} did not announce a URL within 20 s: ${output}`));
    }, 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk;
      const line = output.split('\n').find((candidate) => candidate.startsWith('{"url"'));
      if (line !== undefined) {
        clearTimeout(timer);
        resolve({ child, url: (JSON.parse(line) as { url: string }).url });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code}: ${output}`));
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux); undefined elsewhere. */
export function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
const CLOCK_TICKS = 100;

/** The pids of a process's children (a front's stdio upstream). */
function childrenOf(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** One route, started: its processes (front first) and its 16 connected clients. */
export interface Running {
  route: Route;
  /** The process the clients reach (the server, the gateway or the floor proxy). */
  front: number | undefined;
  /** The upstream server's processes (none on the direct route). */
  upstreams: number[];
  clients: Client[];
  close(): Promise<void>;
}

/** The command line of the front of `route`, given the upstream HTTP server's URL where it has one. */
async function frontArgs(built: Built, route: Route, upstreamUrl: () => Promise<string>): Promise<string[]> {
  switch (route) {
    case 'direct':
      return [built.httpServer, '--mode', 'modern'];
    case 'gateway-stdio':
      return [built.gateway, '--upstream-command', built.stdioServer];
    case 'gateway-http':
      return [built.gateway, '--upstream', await upstreamUrl()];
    case 'floor-stdio':
      return [built.floor, '--upstream-command', built.stdioServer];
    case 'floor-http':
      return [built.floor, '--upstream', await upstreamUrl()];
  }
}

/** Starts what `route` needs and connects the 16 clients to its front. */
export async function setUp(built: Built, route: Route): Promise<Running> {
  const started: ChildProcess[] = [];
  const start = async (args: string[]) => {
    const process = await startAnnouncing(args);
    started.push(process.child);
    return process.url;
  };
  const clients: Client[] = [];
  let front: ChildProcess;
  try {
    const url = await start(await frontArgs(built, route, () => start([built.httpServer, '--mode', 'modern'])));
    front = started.at(-1) as ChildProcess;
    for (let i = 0; i < CLIENTS; i++) {
      const client = new Client({ name: 'bench', version: '1.0.0' }, { cache: false });
      await client.connect(new StreamableHttpClientTransport(new URL(url)), { protocolVersion: '2026-07-28' });
      clients.push(client);
    }
  } catch (error) {
    await Promise.all(started.map(stop));
    throw error;
  }
  // A stdio upstream is the front's child, not ours: found in /proc. An HTTP upstream is the other process started.
  const upstreams =
    route === 'direct'
      ? []
      : [...started.filter((child) => child !== front).map((child) => child.pid as number), ...childrenOf(front.pid)];
  return {
    route,
    front: front.pid,
    upstreams,
    clients,
    async close() {
      await Promise.all(clients.map((client) => client.close()));
      await Promise.all(started.map(stop));
    },
  };
}
