// `mcpkit serve` as a person starts it: a process of its own (the CLI from source, through tsx's loader), stopped
// by the test that started it.
import { type ChildProcess, spawn } from 'node:child_process';
import { REPO, TSX_LOADER } from './run-cli';

const NODE_TS = [process.execPath, '--import', TSX_LOADER, '--conditions=@mcpkit/source'];
const START_TIMEOUT_MS = 20_000;

/** The command line of a TypeScript stdio server of the repo (what goes after `--`). */
export const stdioServer = (path: string): string[] => [...NODE_TS, `${REPO}${path}`];

/** A running `mcpkit serve`. */
export interface ServeProcess {
  /** The MCP endpoint it printed (`http://127.0.0.1:<port>/mcp`). */
  url: string;
  /** Everything it wrote to stderr so far (its own notes and the child's stderr). */
  stderr(): string;
  /** SIGTERM, then SIGKILL after 5 s; resolves once it exited. */
  stop(): Promise<void>;
}

/** Starts `mcpkit serve --port 0 <args> -- <command>` and resolves once it prints where it listens. */
export async function startServe(args: readonly string[], command: readonly string[]): Promise<ServeProcess> {
  const child: ChildProcess = spawn(
    NODE_TS[0]!,
    [...NODE_TS.slice(1), `${REPO}packages/cli/src/bin.ts`, 'serve', '--port', '0', ...args, '--', ...command],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mcpkit serve did not start within ${START_TIMEOUT_MS} ms:\n${stderr}`));
    }, START_TIMEOUT_MS);
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
      const match = /mcpkit serve: (http:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`mcpkit serve exited with ${code}:\n${stderr}`));
    });
  });
  return {
    url,
    stderr: () => stderr,
    stop: async () => {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exit;
      clearTimeout(timer);
    },
  };
}
