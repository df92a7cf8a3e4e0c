import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const tsx = join(root, '../../node_modules/.bin/tsx');
// The tests run the TypeScript sources of the workspace packages (no build needed); `npm run demo` runs the built ones.
const tsxArgs = ['--conditions=@mcpkit/source'];

// The demo is what a newcomer runs first: it must keep working. It checks itself and exits non-zero on a mismatch;
// these assertions pin the lines that tell the two eras apart.
it('npm run demo: every step behaves as it says, in both eras', { timeout: 40_000 }, async () => {
  const { stdout } = await run(tsx, [...tsxArgs, 'src/demo.ts'], { cwd: root, timeout: 30_000 });
  const [modern = '', legacy = ''] = stdout.split('━━ ').slice(1);

  expect(modern).toContain('sent server/discover\n');
  expect(modern).toContain('speaks 2026-07-28 (era: modern)');
  expect(modern).toContain('inside an input_required result of tools/call');
  expect(modern).toContain('tools/call was sent 2 times; the second carried inputResponses and requestState');
  expect(modern).toContain('error -32602: Resource not found: trattoria://dishes/lasagne');

  expect(legacy).toContain('sent initialize, then notifications/initialized');
  expect(legacy).toContain('speaks 2025-11-25 (era: legacy)');
  expect(legacy).toContain('as a server→client request elicitation/create');
  expect(legacy).toContain('tools/call was sent once');
  expect(legacy).toContain('error -32002: Resource not found: trattoria://dishes/lasagne');

  for (const era of [modern, legacy]) {
    expect(era).toContain('← progress 3/3: Tiramisù is ready');
    expect(era).toContain('← Booked: Ada, 4 people, 2026-08-07 at 20:00.');
    expect(era).toContain('structuredContent {"perPerson":33,"tip":12,"totalWithTip":132}');
    expect(era).toContain("server's stderr: trattoria: ready on stdio");
  }
  expect(stdout).toMatch(/Done in \d+ ms: every step behaved as described, in both eras\.\n\nWhat next\n/);
  // The "what next" points at the sample apps and the README sections: every path it names exists.
  const next = stdout.slice(stdout.indexOf('What next'));
  const paths = [...next.matchAll(/\b((?:apps|packages)\/[\w./-]+|README\.md)/g)].map((match) => match[1]!);
  expect(paths).toEqual(expect.arrayContaining(['apps/http-express', 'apps/websocket', 'packages/server/README.md']));
  for (const path of paths) expect(existsSync(join(root, '../..', path)), path).toBe(true);
  expect(readFileSync(join(root, '../../README.md'), 'utf8')).toContain('## Use mcpkit in your own project');
});

/** Starts the server alone, writes `lines` to its stdin, closes it, and returns what came out of stdout and stderr. */
async function talkToServer(lines: unknown[]): Promise<{ stdout: string; stderr: string; exitCode: number | null }> {
  // One process: node with tsx's loader (resolved from the app's node_modules), rather than the tsx CLI and its child.
  const child = spawn(process.execPath, [...tsxArgs, '--import', 'tsx', 'src/server.ts'], { cwd: root, stdio: 'pipe' });
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.end(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  const exitCode = await new Promise<number | null>((resolve) => child.once('close', resolve));
  clearTimeout(timer);
  return { stdout, stderr, exitCode };
}

const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('the server alone, over raw stdio', () => {
  it('answers initialize (legacy era), writes nothing but JSON-RPC to stdout, and exits when stdin ends', async () => {
    const { stdout, stderr, exitCode } = await talkToServer([
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ]);
    const messages = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatchObject({
      id: 1,
      result: { protocolVersion: '2025-11-25', serverInfo: { name: 'trattoria', version: '1.0.0' } },
    });
    expect(messages[0].result.capabilities).toMatchObject({ tools: {}, resources: {}, prompts: {} });
    expect(messages[1].result.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'opening-hours',
      'split-bill',
      'prepare-order',
      'book-table',
    ]);
    expect(stderr).toContain('trattoria: ready on stdio');
    expect(exitCode).toBe(0);
  });

  it('answers server/discover (2026-07-28) and a modern tools/call', async () => {
    const { stdout, exitCode } = await talkToServer([
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: envelope } },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'split-bill', arguments: { total: 50, people: 2, tipPercent: 0 }, _meta: envelope },
      },
    ]);
    const messages = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const discover = messages.find((message) => message.id === 1);
    const call = messages.find((message) => message.id === 2);
    expect(discover.result.supportedVersions).toContain('2026-07-28');
    expect(discover.result.resultType).toBe('complete');
    expect(discover.result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('trattoria');
    expect(call.result).toMatchObject({
      resultType: 'complete',
      structuredContent: { perPerson: 25, tip: 0, totalWithTip: 50 },
    });
    expect(exitCode).toBe(0);
  });
});
