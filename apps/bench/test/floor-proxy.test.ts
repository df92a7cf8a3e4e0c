// The gateway hop bench's floor proxy (src/gateway/floor-proxy.ts) must do what any MCP-aware proxy does, or its
// figures are not a floor: read each message, forward the MCP headers and never `Authorization`, re-serialize JSON
// answers and pass SSE ones through, give concurrent callers on one pipe ids of its own and map them back, and answer
// bad input and a dead upstream with errors instead of hanging.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const APP_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** Starts the proxy (from the sources, through tsx) and resolves with its URL and process. */
function startProxy(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=@mcpkit/source', '--import', 'tsx', join(APP_DIR, 'src', 'gateway', 'floor-proxy.ts'), ...args],
      { cwd: APP_DIR, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the proxy did not start: ${output}`)), 15_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk;
      const line = output.split('\n').find((candidate) => candidate.startsWith('{"url"'));
      if (line === undefined) return;
      clearTimeout(timer);
      resolve({ url: (JSON.parse(line) as { url: string }).url, child });
    });
    child.stderr?.resume();
  });
}

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

describe('floor proxy, HTTP upstream', () => {
  const seen: { headers: IncomingHttpHeaders; body: string }[] = [];
  const upstream = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      seen.push({ headers: req.headers, body });
      const message = JSON.parse(body) as { id?: number; method: string };
      if (message.id === undefined) res.writeHead(202).end();
      else if (message.method === 'sse') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`event: message\ndata: {"jsonrpc":"2.0","id":${message.id},"result":{}}\n\n`);
      } else {
        // Spaces the proxy's re-serialization drops: the answer was read, not piped.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{ "jsonrpc": "2.0", "id": ${message.id}, "result": { "method": "${message.method}" } }`);
      }
    });
  });
  afterAll(() => upstream.close());

  it('forwards the MCP headers, not Authorization, and re-serializes JSON answers', async () => {
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { url } = await startProxy([
      '--upstream',
      `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`,
    ]);
    const call = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}';
    const answer = await post(url, call, {
      accept: 'application/json, text/event-stream',
      authorization: 'Bearer downstream-token',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'echo',
      'mcp-param-region': 'eu',
    });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('{"jsonrpc":"2.0","id":7,"result":{"method":"tools/call"}}');
    expect(seen[0]?.body).toBe(call);
    expect(seen[0]?.headers).toMatchObject({
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'echo',
      'mcp-param-region': 'eu',
    });
    expect(seen[0]?.headers.authorization).toBeUndefined();

    const sse = await post(url, '{"jsonrpc":"2.0","id":8,"method":"sse"}');
    expect(sse.headers.get('content-type')).toBe('text/event-stream');
    expect(await sse.text()).toBe('event: message\ndata: {"jsonrpc":"2.0","id":8,"result":{}}\n\n');
    expect((await post(url, '{"jsonrpc":"2.0","method":"notifications/x"}')).status).toBe(202);

    const broken = await post(url, '{"jsonrpc":');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ id: null, error: { code: -32700 } });
    const nameless = await post(url, '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{}}');
    expect(await nameless.json()).toMatchObject({ id: 9, error: { code: -32600 } });
    expect((await fetch(url)).status).toBe(405);
    expect(seen).toHaveLength(3);
  }, 20_000);
});

describe('floor proxy, stdio upstream', () => {
  it('gives callers ids of its own on the shared pipe and maps the answers back; a dead upstream answers 502', async () => {
    // The upstream holds the first two requests and answers them in reverse order, each with the id it received.
    const script = join(mkdtempSync(join(tmpdir(), 'mcpkit-floor-')), 'upstream.mjs');
    writeFileSync(
      script,
      `let partial = '';
const held = [];
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  const lines = (partial + chunk).split('\\n');
  partial = lines.pop();
  for (const line of lines) {
    const message = JSON.parse(line);
    if (message.method === 'die') process.exit(3);
    if (message.id === undefined) continue;
    held.push(message);
    if (held.length < 2) continue;
    process.stdout.write('{"jsonrpc":"2.0","method":"notifications/message","params":{}}\\n');
    for (const each of held.reverse()) {
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: each.id, result: { upstreamId: each.id, text: each.params.text } }) + '\\n');
    }
    held.length = 0;
  }
});
`,
    );
    const { url, child } = await startProxy(['--upstream-command', script]);
    const request = (text: string) =>
      post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', text } }));
    const [first, second] = await Promise.all([request('a'), request('b')]);
    const a = (await first?.json()) as { id: number; result: { upstreamId: number; text: string } };
    const b = (await second?.json()) as { id: number; result: { upstreamId: number; text: string } };
    expect([a.id, a.result.text, b.id, b.result.text]).toEqual([1, 'a', 1, 'b']);
    expect(a.result.upstreamId).not.toBe(b.result.upstreamId);
    expect((await post(url, '{"jsonrpc":"2.0","method":"notifications/x"}')).status).toBe(202);

    const exited = new Promise((resolve) => child.once('exit', resolve));
    const waiting = request('never answered');
    await new Promise((resolve) => setTimeout(resolve, 100));
    void post(url, '{"jsonrpc":"2.0","method":"die"}').catch(() => undefined);
    const failed = await waiting;
    expect(failed.status).toBe(502);
    expect(await failed.json()).toMatchObject({ id: 1, error: { code: -32603 } });
    expect(await exited).toBe(1);
  }, 20_000);
});
