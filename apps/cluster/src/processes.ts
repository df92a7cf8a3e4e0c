import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

// Starting and stopping instances as processes of their own (the sample's `start`, its tests and the bench).

const SERVER = fileURLToPath(new URL('./server.ts', import.meta.url));
const START_TIMEOUT_MS = 30_000;

/** An instance process. */
export interface InstanceProcess {
  readonly id: string;
  /** Its own endpoint (`http://127.0.0.1:<port>/mcp`). */
  readonly url: string;
  readonly child: ChildProcess;
  /** SIGTERM, then SIGKILL after 5 s. */
  stop(): Promise<void>;
  /** SIGKILL at once, as a crash. */
  kill(): Promise<void>;
}

function exited(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** The requestState secret shared by every instance this process starts (random per run). */
const CLUSTER_SECRET = randomBytes(32).toString('base64url');

/** Starts `src/server.ts` with tsx on this Node, and resolves once it listens (`redisUrl` undefined: no Redis). */
export function startInstance(id: string, redisUrl: string | undefined, port = 0): Promise<InstanceProcess> {
  return new Promise((resolve, reject) => {
    const args = ['--import', 'tsx', '--conditions=@mcpkit/source', SERVER, '--id', id, '--port', String(port)];
    // Without a Redis URL: the in-process defaults, no Redis at all.
    if (redisUrl === undefined) args.push('--local');
    // The instances this process starts form one cluster: one requestState secret, made here, never a fixed one.
    const env = {
      ...process.env,
      MCP_STATE_SECRET: process.env.MCP_STATE_SECRET ?? CLUSTER_SECRET,
      ...(redisUrl !== undefined && { REDIS_URL: redisUrl }),
    };
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`instance ${id} did not start within ${START_TIMEOUT_MS} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /listening (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(output);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve({
        id,
        url: match[1],
        child,
        async stop() {
          child.kill('SIGTERM');
          if (!(await exited(child, 5_000))) {
            child.kill('SIGKILL');
            await exited(child, 5_000);
          }
        },
        async kill() {
          child.kill('SIGKILL');
          await exited(child, 5_000);
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`instance ${id} exited with code ${code}:\n${output}`));
    });
  });
}
