import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@mcpkit/server';
import { createStreamableHttpHandler } from '@mcpkit/transport-http';
import { type ListeningServer, listen } from '@mcpkit/transport-http/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tsServer } from './run-cli';

const QUICKSTART = tsServer('apps/quickstart/src/server.ts');
const FIXTURE = tsServer('packages/cli/test/fixtures/fixture-server.ts');

let http: ListeningServer;
let plainWeb: Server;
let plainWebUrl: string;

beforeAll(async () => {
  const server = new McpServer({ name: 'http-fixture', version: '2.0.0' }, { instructions: 'Says hello.' });
  server.registerTool(
    'hello',
    {
      description: 'Greets',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
    ({ name }) => ({
      content: [{ type: 'text', text: `hello ${name}` }],
    }),
  );
  http = await listen(createStreamableHttpHandler(server), { port: 0 });
  // Not an MCP server: a web page, and a 401 with no challenge and no metadata.
  plainWeb = createServer((request, response) => {
    if (request.url?.startsWith('/locked')) {
      response.writeHead(401).end('go away');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>');
  });
  await new Promise<void>((resolve) => plainWeb.listen(0, '127.0.0.1', resolve));
  plainWebUrl = `http://127.0.0.1:${(plainWeb.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await http?.close();
  await new Promise((resolve) => plainWeb?.close(resolve));
});

describe('--json: one JSON document on stdout', { timeout: 60_000 }, () => {
  it('info over stdio names the era, the version, the server and its instructions', async () => {
    const result = await runCli(['info', '--json', ...QUICKSTART]);
    expect(result.code).toBe(0);
    const info = result.json() as Record<string, unknown>;
    expect(info).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28', serverInfo: { name: 'trattoria' } });
    expect(String(info.instructions)).toContain('Trattoria');
    expect(info.capabilities).toHaveProperty('tools');
  });

  it('a pinned legacy version is used as it is', async () => {
    const result = await runCli(['info', '--json', '--protocol-version', '2025-06-18', '--url', http.url.href]);
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({ era: 'legacy', protocolVersion: '2025-06-18', instructions: 'Says hello.' });
  });

  it('tools list and tools call over HTTP', async () => {
    const list = await runCli(['tools', 'list', '--json', '--url', http.url.href]);
    expect(list.code).toBe(0);
    expect((list.json() as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toEqual(['hello']);
    const call = await runCli(['tools', 'call', 'hello', '--arg', 'name=Ada', '--json', '--url', http.url.href]);
    expect(call.code).toBe(0);
    expect(call.json()).toMatchObject({ content: [{ type: 'text', text: 'hello Ada' }] });
  });

  it('reads, lists and gets over stdio (resources, templates, prompts, complete, ping)', async () => {
    const read = await runCli(['resources', 'read', 'trattoria://menu', '--json', ...QUICKSTART]);
    expect(read.code).toBe(0);
    expect(JSON.stringify(read.json())).toContain('Spaghetti alla carbonara');
    const prompt = await runCli(['prompts', 'get', 'pair-wine', '--arg', 'dish=tiramisu', '--json', ...QUICKSTART]);
    expect(JSON.stringify(prompt.json())).toContain('Tiramisù');
    const complete = await runCli([
      'complete',
      '--template',
      'trattoria://dishes/{dish}',
      'dish',
      'ti',
      '--json',
      ...QUICKSTART,
    ]);
    expect(complete.json()).toMatchObject({ completion: { values: ['tiramisu'] } });
    const ping = await runCli(['ping', '--json', ...QUICKSTART]);
    expect(ping.json()).toMatchObject({ ok: true });
  });

  it('JSON values, strings kept as typed when the schema says string, and a progress line per update on stderr', async () => {
    const echo = await runCli(['tools', 'call', 'echo', '--arg', 'text=42', '--arg', 'times=2', '--json', ...FIXTURE]);
    expect(echo.json()).toMatchObject({ content: [{ text: '4242' }] });
    const order = await runCli([
      'tools',
      'call',
      'prepare-order',
      '--arg',
      'dishes=["tiramisu","margherita"]',
      ...QUICKSTART,
    ]);
    expect(order.code).toBe(0);
    expect(order.stdout).toBe('Order ready: tiramisu, margherita\n');
    expect(order.stderr).toContain('progress 2/2 Pizza margherita is ready');
  });
});

describe('exit codes', { timeout: 60_000 }, () => {
  it('2: usage errors (unknown command, missing argument without a terminal, no target)', async () => {
    expect((await runCli(['frobnicate'])).code).toBe(2);
    const missing = await runCli(['tools', 'call', 'opening-hours', '--json', ...QUICKSTART]);
    expect(missing.code).toBe(2);
    expect(missing.json()).toEqual({
      error: { kind: 'usage', message: 'Missing required argument of tool "opening-hours": day (add --arg day=…)' },
    });
    const none = await runCli(['tools', 'list']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('No server given');
  });

  it('0 for --help on every command', async () => {
    const help = await runCli(['tools', 'call', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--arg <name=value>');
    expect(help.stdout).toContain('--json');
  });

  it('6: the tool answered isError (the result is still the JSON document)', async () => {
    const result = await runCli(['tools', 'call', 'fail', '--json', ...FIXTURE]);
    expect(result.code).toBe(6);
    expect(result.json()).toMatchObject({ isError: true, content: [{ text: 'the oven is cold' }] });
    const human = await runCli(['tools', 'call', 'fail', ...FIXTURE]);
    expect(human.code).toBe(6);
    expect(human.stderr).toContain('The tool reported an error:\nthe oven is cold');
  });

  it('5: the server answered with a JSON-RPC error', async () => {
    const result = await runCli(['resources', 'read', 'trattoria://dishes/pizza-hawaii', '--json', ...QUICKSTART]);
    expect(result.code).toBe(5);
    expect(result.json()).toMatchObject({ error: { kind: 'protocol' } });
  });

  it('3: a server that dies mid-call (its exit code and stderr are in the message)', async () => {
    const result = await runCli(['tools', 'call', 'die', ...FIXTURE]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('exited with code 7');
  });

  it('3: a command that is not an MCP server, or does not exist', async () => {
    const notMcp = await runCli([
      'info',
      '--timeout',
      '1',
      '--',
      process.execPath,
      '-e',
      'console.log("hello"); setTimeout(() => {}, 3000)',
    ]);
    expect(notMcp.code).toBe(3);
    expect(notMcp.stderr).toContain('not a JSON-RPC message on stdout');
    expect(notMcp.stderr).toContain('Could not connect to');
    const missing = await runCli(['info', '--', 'no-such-command-mcpkit']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('Could not start the MCP server process (no-such-command-mcpkit)');
  });

  it('a stray line on a stdio server stdout is reported, and the call still completes', async () => {
    const result = await runCli(['tools', 'call', 'garbage', ...FIXTURE]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('answered after garbage\n');
    expect(result.stderr).toContain('not a JSON-RPC message on stdout');
  });

  it('3: an HTTP URL that is a web page, not an MCP endpoint; a port nobody listens on; a URL that refuses TLS', async () => {
    const page = await runCli(['info', '--json', '--url', `${plainWebUrl}/`]);
    expect(page.code).toBe(3);
    expect(page.json()).toMatchObject({ error: { kind: 'connection' } });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await runCli(['info', '--url', `http://127.0.0.1:${closedPort}/mcp`]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('ECONNREFUSED');
    // https:// to a server that does not speak TLS: the handshake fails, and the message says so.
    const tls = await runCli(['info', '--url', `${plainWebUrl.replace('http:', 'https:')}/mcp`]);
    expect(tls.code).toBe(3);
    expect(tls.stderr).toContain('ERR_SSL_WRONG_VERSION_NUMBER');
  });

  it('4: HTTP 401 without a challenge or metadata (OAuth tried and refused; without OAuth, the 401 itself)', async () => {
    const result = await runCli(['info', '--json', '--url', `${plainWebUrl}/locked`]);
    expect(result.code).toBe(4);
    expect(result.json()).toMatchObject({
      error: { kind: 'authorization', data: { code: 'ERR_REGISTRATION_FAILED' } },
    });
    expect(result.stderr).toContain('the server publishes no usable OAuth metadata');
    const withoutOAuth = await runCli(['info', '--no-oauth', '--url', `${plainWebUrl}/locked`]);
    expect(withoutOAuth.code).toBe(4);
    expect(withoutOAuth.stderr).toContain(
      'The server refused the request with HTTP 401 (no WWW-Authenticate challenge',
    );
  });
});
