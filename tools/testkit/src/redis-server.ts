import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A redis-server of the test's own: on 127.0.0.1 at a free port, nothing saved (no RDB, no AOF), in a temporary
// folder, stopped by the test (and killed if it does not stop in time). Debian's package provides the binary;
// `.ci/run` installs it. Outside CI a machine without it skips the tests that need it, saying so; in CI (`CI=true`)
// they fail, since a skipped scale-out suite would pass for the wrong reason.

/** A running redis-server. */
export interface RedisServer {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** Stops it (SIGTERM, then SIGKILL after 5 s) and removes its folder. */
  stop(): Promise<void>;
  /** Kills it at once, as a crash would (the port is free again; `restart` brings it back there, empty). */
  kill(): Promise<void>;
  /** Starts it again on the same port after `kill`. */
  restart(): Promise<void>;
}

const BINARY = process.env.REDIS_SERVER ?? 'redis-server';
const READY_TIMEOUT_MS = 10_000;

/** Whether the redis-server binary can be run here. */
export function redisServerAvailable(): boolean {
  const probe = spawnSync(BINARY, ['--version'], { stdio: 'ignore', timeout: 5_000 });
  return probe.error === undefined && probe.status === 0;
}

/**
 * What a suite that needs Redis does when there is none: in CI, an error naming the fix; elsewhere, `true` after
 * printing why its tests are skipped.
 */
export function skipWithoutRedis(suite: string): boolean {
  if (redisServerAvailable()) return false;
  const why = `${suite}: redis-server is not installed (apt-get install -y redis-server; .ci/run does it)`;
  if (process.env.CI === 'true') throw new Error(`${why}. CI must run these tests.`);
  console.warn(`${why}: skipping its tests`);
  return true;
}

/** A free TCP port on 127.0.0.1 (the OS picks one; redis-server has no `--port 0`). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on the port and answers PING. */
async function waitReady(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode} before it was ready`);
    if (await pings(port)) return;
    if (Date.now() > deadline)
      throw new Error(`redis-server did not answer on port ${port} within ${READY_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

async function exited(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Starts a redis-server for one test suite. */
export async function startRedisServer(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'mcpkit-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const launch = async () => {
    const started = spawn(
      BINARY,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        '--daemonize',
        'no',
        '--loglevel',
        'warning',
      ],
      { stdio: 'ignore' },
    );
    child = started;
    await waitReady(port, started);
  };
  const kill = async () => {
    const running = child;
    child = undefined;
    if (running === undefined) return;
    running.kill('SIGKILL');
    await exited(running, 5_000);
  };
  await launch();
  return {
    host: '127.0.0.1',
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    restart: launch,
    async stop() {
      const running = child;
      child = undefined;
      if (running !== undefined) {
        running.kill('SIGTERM');
        if (!(await exited(running, 5_000))) {
          running.kill('SIGKILL');
          await exited(running, 5_000);
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Anything with ioredis's `sendCommand` (every command of a client goes through it). */
interface SendsCommands {
  sendCommand(...args: never[]): unknown;
}

/** What {@link countRedisRoundTrips} counts. */
export interface RoundTripCounter {
  /** Round trips since the last reset: commands sent in one tick of the event loop (a pipeline, a script) count once. */
  readonly roundTrips: number;
  /** Commands since the last reset. */
  readonly commands: number;
  reset(): void;
  /** Puts the client's own `sendCommand` back. */
  restore(): void;
}

/**
 * Counts what a Redis client sends: every command, and round trips — commands written in the same tick go out
 * together and come back together, so a pipeline or a script is one. Exact for one caller at a time (a benchmark's
 * sequential calls); concurrent callers sharing a tick would be counted once.
 */
export function countRedisRoundTrips(client: SendsCommands): RoundTripCounter {
  const own = client.sendCommand;
  let roundTrips = 0;
  let commands = 0;
  let inTick = false;
  client.sendCommand = function (this: unknown, ...args: never[]) {
    commands++;
    if (!inTick) {
      inTick = true;
      roundTrips++;
      setImmediate(() => {
        inTick = false;
      });
    }
    return own.apply(this, args);
  } as SendsCommands['sendCommand'];
  return {
    get roundTrips() {
      return roundTrips;
    },
    get commands() {
      return commands;
    },
    reset() {
      roundTrips = 0;
      commands = 0;
    },
    restore() {
      client.sendCommand = own;
    },
  };
}
