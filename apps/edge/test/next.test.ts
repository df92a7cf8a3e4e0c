import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as OfficialTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The Next.js App Router route handler (next/app/mcp/route.ts) after `next build && next start`: about 21 s on an idle
// two-core machine from a fresh clone. Once per suite, on the system Node: scripts/test-matrix.mjs runs the apps on
// Node 22 and 24 side by side (MCPKIT_NODE_LINE set), where two builds would write the same `next/.next` folder at
// once. MCPKIT_TEST_NEXT=0 skips it. Turbopack would be faster but cannot build the workspace's TypeScript source (no `.js` → `.ts` extension alias; see
// the README), so the build is webpack's.

const APP = fileURLToPath(new URL('..', import.meta.url));
const NEXT = fileURLToPath(new URL('../node_modules/.bin/next', import.meta.url));
const enabled = process.env.MCPKIT_NODE_LINE === undefined && process.env.MCPKIT_TEST_NEXT !== '0';

function run(args: string[]): ChildProcess {
  return spawn(NEXT, args, {
    cwd: APP,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_OPTIONS: '' },
  });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let started: ChildProcess | undefined;
let url: URL;
beforeAll(async () => {
  if (!enabled) return;
  const build = run(['build', '--webpack', 'next']);
  let output = '';
  build.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  build.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => build.once('exit', resolve));
  if (code !== 0) throw new Error(`next build failed (${code}):\n${output}`);
  const port = await freePort();
  started = run(['start', 'next', '--hostname', '127.0.0.1', '--port', String(port)]);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('next start did not get ready in 30 s')), 30_000);
    started!.stdout!.on('data', (chunk: Buffer) => {
      if (/Ready|started server/i.test(chunk.toString())) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  url = new URL(`http://127.0.0.1:${port}/mcp`);
}, 240_000);
afterAll(async () => {
  if (started === undefined || started.exitCode !== null) return;
  const exited = new Promise((resolve) => started!.once('exit', resolve));
  started.kill('SIGTERM');
  await exited;
});

function textOf(result: unknown): string {
  return (result as { content: Array<{ text: string }> }).content[0]!.text;
}

describe.skipIf(!enabled)('Next.js route handler (next build && next start)', () => {
  for (const era of ['modern', 'legacy'] as const) {
    it(`answers our client (${era})`, async () => {
      const client = new Client(
        { name: 'edge-test', version: '1.0.0' },
        { handlers: { elicitation: () => ({ action: 'accept', content: { goOn: true } }) } },
      );
      await client.connect(
        new StreamableHttpClientTransport(url),
        era === 'modern' ? { era: 'modern' } : { protocolVersion: '2025-11-25' },
      );
      expect(textOf(await client.callTool({ name: 'runtime' }))).toBe('node');
      expect(textOf(await client.callTool({ name: 'confirm' }))).toBe('going on');
      await client.close();
    });
  }

  it('answers the official SDK client, and DELETE ends its session', async () => {
    const client = new OfficialClient({ name: 'official', version: '1.0.0' });
    const transport = new OfficialTransport(url);
    await client.connect(transport);
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }))).toBe('3');
    await transport.terminateSession();
    await client.close();
  });
});
