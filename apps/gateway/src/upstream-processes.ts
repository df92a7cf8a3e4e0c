import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { upstream } from '@mcpkit/gateway/node';
import type { GatewayUpstreams } from './app';

const apps = fileURLToPath(new URL('../..', import.meta.url));
/** Each sample runs from its TypeScript source: node with tsx's loader, one process (killing it stops the server). */
const tsxArgs = ['--import', 'tsx', '--conditions=@mcpkit/source'];

/** Starts `apps/<app>/src/<entry>` with PORT=0 and resolves with the URL its output names. */
export function startApp(app: string, entry: string, pattern: RegExp): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...tsxArgs, `src/${entry}`], {
      cwd: `${apps}${app}`,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`apps/${app} did not start within 20 s:\n${output}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const url = pattern.exec(output)?.[1];
      if (url !== undefined) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        resolve({ child, url });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`apps/${app} exited with code ${code}:\n${output}`));
    });
  });
}

/** Stops a process `startApp` started: SIGTERM, then SIGKILL after 5 s. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** What apps/everything-server prints once it listens. */
export const EVERYTHING_LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/;

/**
 * The three sample servers as upstreams: the everything-server and the WebSocket sample are started as processes on
 * free ports, the quickstart is spawned by the gateway itself over stdio (and again on every reconnection).
 */
export async function startUpstreams(): Promise<{
  upstreams: GatewayUpstreams;
  urls: { everything: string; ws: string };
  close(): Promise<void>;
}> {
  const [everything, ws] = await Promise.all([
    startApp('everything-server', 'main.ts', EVERYTHING_LISTENING),
    startApp('websocket', 'server.ts', /MCP over WebSocket listening on (ws:\/\/[\w.]+:\d+\/mcp)/),
  ]);
  return {
    upstreams: {
      quick: upstream({ command: process.execPath, args: [...tsxArgs, 'src/server.ts'], cwd: `${apps}quickstart` }),
      everything: upstream({ url: everything.url }),
      ws: upstream({ url: ws.url }),
    },
    urls: { everything: everything.url, ws: ws.url },
    async close() {
      await Promise.all([stop(everything.child), stop(ws.child)]);
    },
  };
}
