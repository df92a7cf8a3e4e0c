// Runs src/bun.ts or src/deno.ts on the binary npm installed (`bun` → @oven/bun-<platform>, `deno` →
// @deno/<platform>), found the way the tests find it: pnpm does not run `bun`'s postinstall, which its bin shim needs.
// `pnpm dev:bun` / `pnpm dev:deno`; PORT picks the port (default 3000).

import { spawn } from 'node:child_process';
import { runtimeArgs, runtimeBinary } from '../test/runtimes';

const runtime = process.argv[2] === 'deno' ? 'deno' : 'bun';
const binary = runtimeBinary(runtime);
if (binary === undefined)
  throw new Error(`No ${runtime} binary for ${process.platform}-${process.arch} in node_modules`);
const child = spawn(binary, runtimeArgs(runtime), { stdio: 'inherit' });
child.once('exit', (code) => process.exit(code ?? 1));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => child.kill(signal));
