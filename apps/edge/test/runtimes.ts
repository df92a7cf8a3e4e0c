// Starts the edge app on the Bun and Deno binaries that npm installs (`bun` → @oven/bun-<platform>, `deno` →
// @deno/<platform>): the platform binary is an optional dependency of the package, found next to it.

import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const APP = fileURLToPath(new URL('..', import.meta.url));

/** The binary of `runtime` from its npm package, or `undefined` when this platform has none installed. */
export function runtimeBinary(runtime: 'bun' | 'deno'): string | undefined {
  const arch = process.arch === 'x64' ? 'x64' : process.arch === 'arm64' ? 'aarch64' : undefined;
  if (process.platform !== 'linux' || arch === undefined) return undefined;
  try {
    const from = createRequire(require.resolve(`${runtime}/package.json`));
    return runtime === 'bun'
      ? join(dirname(from.resolve(`@oven/bun-linux-${arch}/package.json`)), 'bin', 'bun')
      : join(dirname(from.resolve(`@deno/linux-${arch === 'x64' ? 'x64' : 'arm64'}-glibc/package.json`)), 'deno');
  } catch {
    return undefined;
  }
}

/** The arguments that run this app's entry for `runtime`, from the app folder. */
export function runtimeArgs(runtime: 'bun' | 'deno'): string[] {
  return runtime === 'bun'
    ? ['--conditions=@mcpkit/source', 'src/bun.ts']
    : // The workspace's sources import without extensions (bundler style): Deno needs --sloppy-imports for them.
      [
        'run',
        '--allow-net',
        '--allow-env',
        '--allow-read',
        '--sloppy-imports',
        '--no-lock',
        '--conditions=@mcpkit/source',
        'src/deno.ts',
      ];
}

export interface RunningRuntime {
  readonly url: URL;
  stop(): Promise<void>;
}

/** Runs src/<runtime>.ts on port 0 and waits for its "listening on" line. */
export async function startRuntime(runtime: 'bun' | 'deno', binary: string, tmp: string): Promise<RunningRuntime> {
  const args = runtimeArgs(runtime);
  const child: ChildProcess = spawn(binary, args, {
    cwd: APP,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: tmp,
      DENO_DIR: join(tmp, 'deno'),
      DENO_NO_UPDATE_CHECK: '1',
      NO_COLOR: '1',
      PORT: '0',
    },
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${runtime} did not start in 20 s: ${stderr}`)), 20_000);
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match !== null) {
        clearTimeout(timer);
        resolve(new URL(match[1]!));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${runtime} exited with ${code}: ${stderr}`));
    });
  });
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
