// The commands that follow a server (logs, listen), tasks, roots and auth logout, against an in-process HTTP server.
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpServer } from '@mcpkit/server';
import { TaskServer } from '@mcpkit/tasks';
import { createStreamableHttpHandler } from '@mcpkit/transport-http';
import { type ListeningServer, listen } from '@mcpkit/transport-http/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileOAuthStore } from '../src/auth/file-store';
import { runCli } from './run-cli';

let http: ListeningServer;
let server: McpServer;

beforeAll(async () => {
  server = new McpServer({ name: 'commands-fixture', version: '1.0.0' });
  const tasks = new TaskServer(server, { identity: () => 'tester', pollIntervalMs: 50 });
  server.registerTool(
    'slow-sum',
    {
      description: 'Adds two numbers, slowly',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
      execution: { taskSupport: 'optional' },
    },
    async ({ a, b }) => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { content: [{ type: 'text', text: String(Number(a) + Number(b)) }] };
    },
  );
  server.registerTool('roots', { description: 'Lists the client roots' }, async (_args, ctx) => {
    const { roots } = await ctx.listRoots();
    return { content: [{ type: 'text', text: roots.map((root) => root.uri).join(' ') }] };
  });
  server.registerTool('sign-up', { description: 'Sends the user to a web page' }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      mode: 'url',
      message: 'Finish signing up in the browser',
      url: 'https://example.com/sign-up',
      elicitationId: 'e1',
    });
    return { content: [{ type: 'text', text: `url elicitation: ${answer.action}` }] };
  });
  await tasks.ready;
  http = await listen(createStreamableHttpHandler(server), { port: 0 });
});

afterAll(async () => {
  await http?.close();
});

describe('following, tasks, roots, auth', { timeout: 30_000 }, () => {
  it('tools call --task runs the call as a task; tasks get and tasks result find it (2026-07-28)', async () => {
    const called = await runCli([
      'tools',
      'call',
      'slow-sum',
      '--arg',
      'a=2',
      '--arg',
      'b=3',
      '--task',
      '--json',
      '--url',
      http.url.href,
    ]);
    expect(called.code, called.stderr).toBe(0);
    const { taskId, result } = called.json() as { taskId: string; result: unknown };
    expect(result).toMatchObject({ content: [{ type: 'text', text: '5' }] });
    const got = await runCli(['tasks', 'get', taskId, '--json', '--url', http.url.href]);
    expect(got.json()).toMatchObject({ taskId, status: 'completed' });
    const again = await runCli(['tasks', 'result', taskId, '--json', '--url', http.url.href]);
    expect(again.json()).toMatchObject({ content: [{ text: '5' }] });
    // 2026-07-28 has no tasks/list: a protocol error that says what to do instead.
    const list = await runCli(['tasks', 'list', '--url', http.url.href]);
    expect(list.code).toBe(5);
    expect(list.stderr).toContain('keep the ids of the tasks you start');
  });

  it('tasks list in 2025-11-25', async () => {
    const called = await runCli([
      'tools',
      'call',
      'slow-sum',
      '--arg',
      'a=1',
      '--arg',
      'b=1',
      '--task',
      '--json',
      '--protocol-version',
      '2025-11-25',
      '--url',
      http.url.href,
    ]);
    expect(called.code, called.stderr).toBe(0);
    const { taskId } = called.json() as { taskId: string };
    const list = await runCli(['tasks', 'list', '--json', '--protocol-version', '2025-11-25', '--url', http.url.href]);
    expect(list.code, list.stderr).toBe(0);
    expect((list.json() as { tasks: Array<{ taskId: string }> }).tasks.map((task) => task.taskId)).toContain(taskId);
  });

  it('listen prints list changes as they arrive (--for bounds it)', async () => {
    const listening = runCli(['listen', '--for', '1.5', '--json', '--url', http.url.href]);
    setTimeout(() => server.server.sendListChanged('tools'), 700);
    const result = await listening;
    expect(result.code, result.stderr).toBe(0);
    expect(result.json()).toMatchObject({ notifications: [{ method: 'notifications/tools/list_changed' }] });
  });

  it('logs sets the level and follows; a bad level is a usage error', async () => {
    const result = await runCli([
      'logs',
      '--level',
      'warning',
      '--for',
      '0.3',
      '--json',
      '--protocol-version',
      '2025-11-25',
      '--url',
      http.url.href,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.json()).toEqual({ messages: [] });
    expect((await runCli(['logs', '--level', 'loud', '--url', http.url.href])).code).toBe(2);
  });

  it('URL-mode elicitation: the URL is printed and opened in the browser', async () => {
    const opened: string[] = [];
    for (const version of ['2025-11-25', '2026-07-28']) {
      const result = await runCli(['tools', 'call', 'sign-up', '--protocol-version', version, '--url', http.url.href], {
        openUrl: async (url) => {
          opened.push(url);
          return true;
        },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain('The server asks you to open: https://example.com/sign-up');
      expect(result.stdout).toBe('url elicitation: accept\n');
    }
    expect(opened).toEqual(['https://example.com/sign-up', 'https://example.com/sign-up']);
  });

  it('--root answers roots/list', async () => {
    const result = await runCli([
      'tools',
      'call',
      'roots',
      '--root',
      '/tmp',
      '--protocol-version',
      '2025-11-25',
      '--url',
      http.url.href,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('file:///tmp\n');
  });

  it('auth logout forgets the tokens kept for a server, in a file only its owner reads', async () => {
    const config = mkdtempSync(join(tmpdir(), 'mcpkit-auth-'));
    const store = new FileOAuthStore(join(config, 'oauth.json'));
    const tokens = {
      accessToken: 'a',
      tokenType: 'Bearer',
      resource: 'x',
      issuer: 'i',
      authorizationServer: { issuer: 'i' },
    };
    store.setTokens('https://mcp.example.com/mcp', tokens as never);
    store.setTokens('https://other.example.com/mcp', tokens as never);
    expect(statSync(join(config, 'oauth.json')).mode & 0o777).toBe(0o600);
    const env = { ...process.env, MCPKIT_CONFIG_DIR: config };
    const result = await runCli(['auth', 'logout', 'https://mcp.example.com/mcp', '--json'], { env });
    expect(result.json()).toEqual({ url: 'https://mcp.example.com/mcp', forgotten: 1 });
    expect(Object.keys(JSON.parse(readFileSync(join(config, 'oauth.json'), 'utf8')).tokens)).toEqual([
      'https://other.example.com/mcp',
    ]);
    expect(existsSync(join(config, 'oauth.json.tmp'))).toBe(false);
  });
});
