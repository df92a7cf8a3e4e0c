import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Both entry points run as people run them, each in its own process: the server (src/server.ts, PORT=0) and the Node
// client (src/node-client.ts) talking to it over a real WebSocket. One process per program, tsx as a loader, so a
// signal reaches the server itself rather than a tsx wrapper.
const run = promisify(execFile);
const app = fileURLToPath(new URL('..', import.meta.url));
const NODE_ARGS = ['--conditions=@mcpkit/source', '--import', 'tsx'];
const START_TIMEOUT_MS = 20_000;

interface Running {
  readonly mcpUrl: string;
  readonly pageUrl: string;
  output(): string;
  /** SIGTERM, then the exit code (SIGKILL after 10 s). */
  stop(): Promise<number | null>;
}

function startServer(): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [...NODE_ARGS, 'src/server.ts'], {
      cwd: app,
      env: { ...process.env, NODE_OPTIONS: '', PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not start within ${START_TIMEOUT_MS} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const page = /page listening on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)?.[1];
      const mcp = /MCP over WebSocket listening on (ws:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(output)?.[1];
      if (page === undefined || mcp === undefined) return;
      clearTimeout(timer);
      resolve({
        mcpUrl: mcp,
        pageUrl: page,
        output: () => output,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
          const code = await exited;
          clearTimeout(kill);
          return code;
        },
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', reject);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with code ${code}:\n${output}`));
    });
  });
}

async function runClient(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [...NODE_ARGS, 'src/node-client.ts', ...args], {
    cwd: app,
    env: { ...process.env, NODE_OPTIONS: '' },
    timeout: 20_000,
  });
  return stdout;
}

describe('the Node client against the running sample', () => {
  let server: Running;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('speaks 2026-07-28 by default: lists and calls the tools', async () => {
    const stdout = await runClient(server.mcpUrl);
    expect(stdout).toBe(
      [
        `connected to websocket-sample at ${server.mcpUrl}: 2026-07-28 (modern era)`,
        'tools: echo, add',
        'echo → hello from node',
        'add(2, 3) → {"sum":5}',
        '',
      ].join('\n'),
    );
  });

  it('speaks the initialize era with --legacy', async () => {
    const stdout = await runClient(server.mcpUrl, '--legacy');
    expect(stdout).toContain(`connected to websocket-sample at ${server.mcpUrl}: 2025-11-25 (legacy era)`);
    expect(stdout).toContain('tools: echo, add\necho → hello from node\nadd(2, 3) → {"sum":5}\n');
  });

  it('both eras at once, on concurrent connections', async () => {
    const outputs = await Promise.all([
      runClient(server.mcpUrl),
      runClient(server.mcpUrl, '--legacy'),
      runClient(server.mcpUrl),
    ]);
    expect(outputs.map((stdout) => /: (\S+) \((\w+) era\)/.exec(stdout)?.slice(1))).toEqual([
      ['2026-07-28', 'modern'],
      ['2025-11-25', 'legacy'],
      ['2026-07-28', 'modern'],
    ]);
    for (const stdout of outputs) expect(stdout).toContain('add(2, 3) → {"sum":5}');
  });

  it('exits non-zero with the reason when nothing listens there', async () => {
    const wrong = server.mcpUrl.replace(/\/mcp$/, '/elsewhere');
    const failed = await runClient(wrong).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/websocket sample client failed: .*404/);
  });

  it('the server shuts down cleanly on SIGTERM', async () => {
    // Last: stops the shared server. A connected client must not hold the shutdown open.
    const exitCode = await server.stop();
    expect(exitCode).toBe(0);
    expect(server.output()).toContain('SIGTERM: closing');
  });
});
