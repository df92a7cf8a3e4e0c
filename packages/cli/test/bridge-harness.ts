// The bridges' harness. `mcpkit serve` as a child in front of a TypeScript stdio server of the repo; `mcpkit connect`
// in process: a remote MCP server over Streamable HTTP on 127.0.0.1, the bridge run by
// `run(['connect', …])` on in-memory stdio streams, and a host client on the other end of them.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { Client, type ClientOptions } from '@mcpkit/client';
import type { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/transport-http';
import { toNodeHandler } from '@mcpkit/transport-http/node';
import { StreamTransport } from '@mcpkit/transport-stdio';
import { run } from '../src/main';
import { CONFIG_DIR, REPO, TSX_LOADER } from './run-cli';

export interface Remote {
  url: string;
  close(): Promise<void>;
}

/** Serves `server` over Streamable HTTP (both eras, sessions) on a free local port. */
export async function serveRemote(server: McpServer): Promise<Remote> {
  const handler = createStreamableHttpHandler(server.server);
  const http: HttpServer = createServer(toNodeHandler(handler));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await handler.close().catch(() => {});
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

export interface Bridged {
  host: Client;
  stderr: () => string;
  /** Closes the host, ends the bridge's stdin and resolves with its exit code. */
  close(): Promise<number>;
}

/**
 * Starts `mcpkit connect <url> [args]` in process and connects a host to its stdio, in `hostEra`: `host` (a client
 * with its extensions installed), or a new client with these options.
 */
export async function connectThroughBridge(
  url: string,
  args: string[],
  hostEra: 'legacy' | 'modern',
  host: Client | ClientOptions = {},
): Promise<Bridged> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let errors = '';
  stderr.on('data', (chunk) => (errors += chunk));
  const exited = run(['connect', url, '--no-oauth', ...args], {
    stdin,
    stdout,
    stderr,
    env: { ...process.env, MCPKIT_NO_BROWSER: '1', MCPKIT_CONFIG_DIR: CONFIG_DIR },
    interactive: false,
    stderrIsTerminal: false,
  });
  const client = host instanceof Client ? host : new Client({ name: 'host', version: '1.0.0' }, host);
  await client.connect(new StreamTransport({ input: stdout, output: stdin }), { era: hostEra });
  return {
    host: client,
    stderr: () => errors,
    close: async () => {
      await client.close().catch(() => {});
      stdin.end();
      return await exited;
    },
  };
}

const NODE_TS = [process.execPath, '--import', TSX_LOADER, '--conditions=@mcpkit/source'];

export interface Served {
  url: string;
  stderr: () => string;
  stop(): void;
}

/** Starts `mcpkit serve --port 0 [args] -- <the repo's TypeScript server at path>`; resolves once it listens. */
export async function startServe(args: string[], path: string): Promise<Served> {
  const child: ChildProcess = spawn(
    NODE_TS[0]!,
    [
      ...NODE_TS.slice(1),
      `${REPO}packages/cli/src/bin.ts`,
      'serve',
      '--port',
      '0',
      ...args,
      '--',
      ...NODE_TS,
      `${REPO}${path}`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
      const match = /mcpkit serve: (http:\/\/\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`mcpkit serve exited with ${code}:\n${stderr}`)));
  });
  return { url, stderr: () => stderr, stop: () => void child.kill('SIGTERM') };
}
