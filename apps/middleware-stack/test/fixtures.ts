// Runs the sample's servers as people run them (child processes: stdio, and HTTP on 127.0.0.1 with PORT=0) and reads
// what they print on stderr: JSON log records (`"msg":"mcp request"`) and spans (`{"span":…}`).
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { StdioClientTransport } from '@mcpkit/transport-stdio';
import type { PrintedSpan } from '../src/telemetry';

const app = fileURLToPath(new URL('..', import.meta.url));
const NODE_ARGS = ['--conditions=@mcpkit/source', '--import', 'tsx'];
const START_TIMEOUT_MS = 20_000;

/** What a server printed on stderr, parsed. */
export class ServerOutput {
  text = '';

  add(chunk: string): void {
    this.text += chunk;
  }

  #objects(): Record<string, unknown>[] {
    return this.text
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  get spans(): PrintedSpan[] {
    return this.#objects()
      .filter((object) => object.span !== undefined)
      .map((object) => object.span as PrintedSpan);
  }

  get records(): Record<string, unknown>[] {
    return this.#objects().filter((object) => object.msg === 'mcp request');
  }
}

/** A stdio transport to `src/stdio.ts` in a child process, and what it prints. */
export function stdioServer(): { transport: StdioClientTransport; output: ServerOutput } {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...NODE_ARGS, 'src/stdio.ts'],
    cwd: app,
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const output = new ServerOutput();
  return { transport, output };
}

/** Starts reading a stdio server's stderr (call after connect: the child exists then). */
export function readStderr(transport: StdioClientTransport, output: ServerOutput): void {
  transport.stderr?.setEncoding('utf8').on('data', (chunk: string) => output.add(chunk));
}

export interface HttpServer {
  url: URL;
  output: ServerOutput;
  stop(): Promise<void>;
}

/** Starts `src/http.ts` on a free port of 127.0.0.1. */
export function httpServer(): Promise<HttpServer> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [...NODE_ARGS, 'src/http.ts'], {
      cwd: app,
      env: { ...process.env, NODE_OPTIONS: '', PORT: '0' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const output = new ServerOutput();
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the HTTP server did not start within ${START_TIMEOUT_MS} ms:\n${output.text}`));
    }, START_TIMEOUT_MS);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      output.add(chunk);
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(output.text);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve({
          url: new URL(match[1]),
          output,
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
            await exited;
            clearTimeout(kill);
          },
        });
      }
    });
    child.once('error', reject);
  });
}

/** Waits until `check` holds (bounded). */
export async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('until: condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
