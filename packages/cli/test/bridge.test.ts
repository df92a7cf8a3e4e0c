// The bridges, end to end: `mcpkit serve` in front of apps/quickstart (and of a server that dies or writes garbage),
// reached by the official SDK's client and ours over HTTP and WebSocket; `mcpkit connect` in front of apps/http-oauth,
// driven over stdio by our client and by the official SDK's, the OAuth sign-in included (the "browser" is a script).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { StdioClientTransport } from '@mcpkit/transport-stdio';
import { WebSocketClientTransport } from '@mcpkit/transport-websocket';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as SdkStdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as SdkHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { start as startOAuthApp } from '../../../apps/http-oauth/src/start';
import { REPO, TSX_LOADER } from './run-cli';

const CLI = [process.execPath, '--import', TSX_LOADER, '--conditions=@mcpkit/source', `${REPO}packages/cli/src/bin.ts`];
const server = (path: string) => [
  process.execPath,
  '--import',
  TSX_LOADER,
  '--conditions=@mcpkit/source',
  `${REPO}${path}`,
];
const TOKEN = 'test-token-0123456789';
const running: ChildProcess[] = [];

/** Starts `mcpkit serve` and resolves once it prints where it listens; its stderr is kept. */
async function serve(
  args: string[],
  command: string[],
): Promise<{ url: string; stderr: () => string; child: ChildProcess }> {
  const child = spawn(CLI[0]!, [...CLI.slice(1), 'serve', '--port', '0', ...args, '--', ...command], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.push(child);
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
      const match = /mcpkit serve: (http:\/\/\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`mcpkit serve exited with ${code}:\n${stderr}`)));
  });
  return { url, stderr: () => stderr, child };
}

/** The bridge writes its diagnostics as they happen, which may be after the answer that caused them arrived. */
async function stderrShows(stderr: () => string, text: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!stderr().includes(text) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(stderr()).toContain(text);
}

afterAll(() => {
  for (const child of running) child.kill('SIGTERM');
});

describe('mcpkit serve', { timeout: 60_000 }, () => {
  it('serves apps/quickstart to the official SDK client and to ours (HTTP both eras, WebSocket), behind a bearer token', async () => {
    const { url } = await serve(['--ws', '--token', TOKEN], server('apps/quickstart/src/server.ts'));
    const headers = { authorization: `Bearer ${TOKEN}` };

    // No token: 401 with a Bearer challenge; the health endpoint needs none.
    const refused = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('Bearer');
    // The transport's DNS-rebinding protection is on: a foreign Origin is refused before anything is forwarded.
    const foreign = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(url, {
        method: 'POST',
        headers: { origin: 'http://evil.example', 'content-type': 'application/json', ...headers },
      });
      request.once('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.once('error', reject);
      request.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    });
    expect(foreign).toBe(403);
    const health = await (await fetch(new URL('/health', url))).json();
    expect(health).toMatchObject({ ok: true, server: { name: 'trattoria' } });

    // The official SDK's client (2025-era, sessions): tools, progress, and an elicitation answered by its handler.
    const sdk = new SdkClient({ name: 'sdk', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    sdk.setRequestHandler(ElicitRequestSchema, async () => ({
      action: 'accept',
      content: { name: 'Ada', partySize: 2 },
    }));
    await sdk.connect(new SdkHttpTransport(new URL(url), { requestInit: { headers } }));
    expect((await sdk.listTools()).tools.map((tool) => tool.name)).toContain('book-table');
    const progress: number[] = [];
    const order = await sdk.callTool(
      { name: 'prepare-order', arguments: { dishes: ['carbonara', 'tiramisu'] } },
      undefined,
      {
        onprogress: (update) => progress.push(update.progress),
      },
    );
    expect(order.content).toEqual([{ type: 'text', text: 'Order ready: carbonara, tiramisu' }]);
    expect(progress).toEqual([1, 2]);
    const booked = await sdk.callTool({ name: 'book-table', arguments: { date: '2026-12-24', time: '20:00' } });
    expect(booked.content).toEqual([{ type: 'text', text: 'Booked: Ada, 2 people, 2026-12-24 at 20:00.' }]);
    await sdk.close();

    // Ours, in 2026-07-28 over HTTP (the elicitation becomes an input round) and over WebSocket.
    for (const transport of [
      new StreamableHttpClientTransport(new URL(url), { headers }),
      new WebSocketClientTransport(url.replace(/^http/, 'ws'), { WebSocket, headers }),
    ]) {
      const ours = new Client(
        { name: 'ours', version: '1.0.0' },
        { handlers: { elicitation: async () => ({ action: 'accept', content: { name: 'Grace', partySize: 3 } }) } },
      );
      await ours.connect(transport);
      expect(ours.era).toBe('modern');
      const result = await ours.callTool({ name: 'book-table', arguments: { date: '2026-12-31', time: '21:00' } });
      expect(result.content).toEqual([{ type: 'text', text: 'Booked: Grace, 3 people, 2026-12-31 at 21:00.' }]);
      await ours.close();
    }
  });

  it('a child that dies mid-call: the call gets an error, the next request a restarted child; garbage on stdout is reported', async () => {
    const bridge = await serve(['--shared'], server('packages/cli/test/fixtures/fixture-server.ts'));
    const client = new Client({ name: 'ours', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(new URL(bridge.url)), { era: 'legacy' });
    await expect(client.callTool({ name: 'die' })).rejects.toThrow(
      /upstream server connection ended during the request/,
    );
    const echoed = await client.callTool({ name: 'echo', arguments: { text: 'back' } });
    expect(echoed.content).toEqual([{ type: 'text', text: 'back' }]);
    await stderrShows(bridge.stderr, 'fixture: dying now');
    await stderrShows(bridge.stderr, 'the server process ended');
    const garbage = await client.callTool({ name: 'garbage' });
    expect(garbage.content).toEqual([{ type: 'text', text: 'answered after garbage' }]);
    await stderrShows(bridge.stderr, 'not a JSON-RPC message on stdout');
    await client.close();
  });
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('mcpkit connect', { timeout: 60_000 }, () => {
  it('bridges apps/http-oauth to stdio, signing in with OAuth once; our client and the official SDK client use it', async () => {
    const app = await startOAuthApp({ port: 0, authorizationServerPort: 0 });
    const config = mkdtempSync(join(tmpdir(), 'mcpkit-connect-'));
    const callbackPort = await freePort();
    const env = { MCPKIT_CONFIG_DIR: config, BROWSER: `${REPO}packages/cli/test/fixtures/browser.mjs` };
    const args = [...CLI.slice(1), 'connect', app.url.href, '--callback-port', String(callbackPort)];
    try {
      // A 2026-07-28 host (ours) in front of a remote pinned to 2025-11-25 here; the official SDK below is a 2025-era
      // host in front of the remote's 2026-07-28: the bridge speaks each side's era.
      const ours = new Client({ name: 'host', version: '1.0.0' });
      await ours.connect(
        new StdioClientTransport({
          command: CLI[0]!,
          args: [...args, '--protocol-version', '2025-11-25'],
          env,
          stderr: 'ignore',
        }),
      );
      expect(ours.era).toBe('modern');
      const whoami = await ours.callTool({ name: 'whoami' });
      expect(JSON.stringify(whoami.content)).toMatch(/mcp:tools/);
      await ours.close();
      // The tokens are in the config folder, readable by the owner only.
      expect(statSync(join(config, 'oauth.json')).mode & 0o777).toBe(0o600);

      // The official SDK's client, over stdio, with the tokens kept from the first sign-in (no browser this time).
      const sdk = new SdkClient({ name: 'sdk-host', version: '1.0.0' });
      await sdk.connect(
        new SdkStdioClientTransport({
          command: CLI[0]!,
          args,
          env: { ...env, BROWSER: '/bin/false', PATH: process.env.PATH ?? '' },
          stderr: 'ignore',
        }),
      );
      const again = await sdk.callTool({ name: 'whoami' });
      expect(JSON.stringify(again.content)).toMatch(/mcp:tools/);
      await sdk.close();
    } finally {
      await app.close();
    }
  });
});
