// Child processes of the bench: one driver run (a client SDK measuring its own server), and one cold start. Every
// child is killed when its time budget runs out, so a hung SDK fails the bench instead of stalling it.
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConcurrentConfig, ConcurrentResult } from './drivers/concurrent';
import type { DriverConfig, DriverResult } from './drivers/drive';

/** Runs a bundled driver with plain node; resolves with its JSON line. */
export function runDriverProcess(
  driver: string,
  config: Omit<DriverConfig, 'command' | 'args' | 'cpuFile'>,
  server: string,
): Promise<DriverResult> {
  const cpuFile = join(tmpdir(), `mcpkit-bench-cpu-${process.pid}-${Date.now()}.json`);
  const full: DriverConfig = {
    ...config,
    command: process.execPath,
    args: [server, '--cpu-file', cpuFile],
    cpuFile,
  };
  return spawnDriver<DriverResult>(driver, full, config.deadlineMs);
}

/** Milliseconds from spawning `server` until its answer to `initialize` arrives (bounded: 30 s). */
export function coldStart(server: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [server], { stdio: ['pipe', 'pipe', 'ignore'] });
    let buffered = '';
    const killer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${server} did not answer initialize in 30 s`));
    }, 30_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      if (!buffered.includes('\n')) return;
      const elapsed = performance.now() - started;
      clearTimeout(killer);
      const reply = JSON.parse(buffered.slice(0, buffered.indexOf('\n'))) as { id?: number; result?: unknown };
      const ok = reply.id === 1 && reply.result !== undefined;
      // Wait for the exit so the next spawn does not share the CPU with a dying process.
      child.once('exit', () =>
        ok ? resolve(elapsed) : reject(new Error(`${server} answered initialize with ${buffered.slice(0, 200)}`)),
      );
      child.stdin.end();
      child.kill('SIGTERM');
    });
    child.stdin.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'cold', version: '1' } },
      })}\n`,
    );
  });
}

/** A bench server listening on 127.0.0.1 (HTTP or WebSocket), started by {@link startNetworkServer}. */
export interface RunningServer {
  url: string;
  pid: number;
  cpuFile: string;
  /** Kills the server and waits for its exit. */
  stop(): Promise<void>;
}

/**
 * Spawns a bundled HTTP/WebSocket server (`args`: its mode) and resolves once it printed its URL (bounded: 30 s).
 * `gc`: run it with `--expose-gc` so its reporter collects garbage before reading memory.
 */
export function startNetworkServer(server: string, args: string[], gc = false): Promise<RunningServer> {
  const cpuFile = join(
    tmpdir(),
    `mcpkit-bench-srv-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`,
  );
  const nodeArgs = [...(gc ? ['--expose-gc'] : []), server, ...args, '--cpu-file', cpuFile, ...(gc ? ['--gc'] : [])];
  const child = spawn(process.execPath, nodeArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const killer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${server} ${args.join(' ')} did not start in 30 s: ${stderr.trim()}`));
    }, 30_000);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4_000);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(killer);
      reject(new Error(`${server} ${args.join(' ')} exited ${code ?? signal} before listening: ${stderr.trim()}`));
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const newline = stdout.indexOf('\n');
      if (newline === -1) return;
      clearTimeout(killer);
      const { url } = JSON.parse(stdout.slice(0, newline)) as { url: string };
      const pid = child.pid;
      if (pid === undefined) throw new Error(`${server} has no pid`);
      resolve({
        url,
        pid,
        cpuFile,
        stop: async () => {
          child.kill('SIGKILL');
          await exited;
        },
      });
    });
  });
}

/** Runs a bundled HTTP/WebSocket driver against a running server; resolves with its JSON line. */
export function runConcurrentProcess(driver: string, config: ConcurrentConfig): Promise<ConcurrentResult> {
  return spawnDriver<ConcurrentResult>(driver, config, config.deadlineMs);
}

/**
 * Runs a bundled driver with its config as the one argument; resolves with the JSON of its last stdout line. The
 * driver stops its loops at deadlineMs; connect, close and the large phase get a fixed margin on top.
 */
function spawnDriver<Result>(driver: string, config: object, deadlineMs: number): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [driver, JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4_000);
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), deadlineMs + 30_000);
    child.on('exit', (code, signal) => {
      clearTimeout(killer);
      const line = stdout.trim().split('\n').at(-1) ?? '';
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line) as Result);
      else reject(new Error(`driver ${driver} exited ${code ?? signal}: ${stderr.trim() || stdout.trim()}`));
    });
  });
}
