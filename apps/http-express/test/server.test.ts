import { type ChildProcess, spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Client } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// The app runs as people run it (src/server.ts, PORT=0 on 127.0.0.1) in a child process, and mcpkit's own clients
// talk to it over real HTTP. Not in-process: under this repository's vitest resolve conditions express 5's router
// gets the ESM build of `is-promise` through `require`, so every route ends in a TypeError after its response is
// sent and the socket is destroyed — tests would pass against a server that is broken only inside vitest.

const app = fileURLToPath(new URL('..', import.meta.url));
const BROWSER_ORIGIN = 'http://localhost:5173';
const CALL = { timeoutMs: 5_000 } as const;
const START_TIMEOUT_MS = 20_000;

interface Running {
  readonly url: URL;
  readonly child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** SIGTERM, then the exit code (SIGKILL after 10 s). */
  stop(): Promise<number | null>;
}

function startApp(): Promise<Running> {
  return new Promise((resolve, reject) => {
    // One process (tsx as a loader): a signal reaches the server itself, not a tsx wrapper.
    const child = spawn(process.execPath, ['--conditions=@mcpkit/source', '--import', 'tsx', 'src/server.ts'], {
      cwd: app,
      env: { ...process.env, NODE_OPTIONS: '', PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the app did not start within ${START_TIMEOUT_MS} ms:\n${output}`));
    }, START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve({
          url: new URL(match[1]),
          child,
          output: () => output,
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
            const code = await exited;
            clearTimeout(kill);
            return code;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', reject);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the app exited with code ${code}:\n${output}`));
    });
  });
}

let running: Running;
const clients: Client[] = [];

beforeAll(async () => {
  running = await startApp();
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
});

afterAll(async () => {
  await running?.stop();
});

async function connect(
  protocolVersion?: string,
  url = running.url,
): Promise<{ client: Client; transport: StreamableHttpClientTransport }> {
  const client = new Client({ name: 'http-express-test', version: '1.0.0' }, { requestTimeoutMs: 5_000 });
  const transport = new StreamableHttpClientTransport(url, { reconnect: { maxAttempts: 0 } });
  clients.push(client);
  await client.connect(transport, { timeoutMs: 5_000, ...(protocolVersion === undefined ? {} : { protocolVersion }) });
  return { client, transport };
}

function textOf(result: { content: Array<{ type: string; text?: string }> }): string | undefined {
  return result.content[0]?.text;
}

async function health(): Promise<{ status: string; sessions: number }> {
  const response = await fetch(new URL('/healthz', running.url), { signal: AbortSignal.timeout(5_000) });
  expect(response.status).toBe(200);
  return (await response.json()) as { status: string; sessions: number };
}

/** A raw request, so the Host header can be anything (fetch always sends the URL's). */
function rawPost(headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      running.url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        timeout: 5_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

describe('both protocol eras on /mcp', () => {
  it('auto connects in 2026-07-28, statelessly, and lists, calls and reads', async () => {
    const { client, transport } = await connect();
    expect(client.era).toBe('modern');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(transport.sessionId).toBeUndefined();
    expect(client.serverInfo?.name).toBe('http-express-sample');

    const tools = await client.listTools({}, CALL);
    expect(tools.tools.map((tool) => tool.name)).toEqual(['echo', 'time']);
    const echoed = await client.callTool({ name: 'echo', arguments: { text: 'hello over http' } }, CALL);
    expect(textOf(echoed)).toBe('hello over http');

    const about = await client.readResource({ uri: 'sample://about' }, CALL);
    expect(JSON.parse((about.contents[0] as { text: string }).text)).toMatchObject({ endpoint: '/mcp' });
    expect((await health()).sessions).toBe(0); // 2026-07-28 keeps no session
  });

  it('pinned 2025-11-25 gets a session id, calls a tool, and DELETE ends the session', async () => {
    const { client, transport } = await connect('2025-11-25');
    expect(client.era).toBe('legacy');
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(transport.sessionId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect((await health()).sessions).toBe(1);

    const tools = await client.listTools({}, CALL);
    expect(tools.tools.map((tool) => tool.name)).toEqual(['echo', 'time']);
    const before = Date.now();
    const time = await client.callTool({ name: 'time', arguments: { timeZone: 'Europe/Paris' } }, CALL);
    const structured = time.structuredContent as { iso: string; timeZone: string; local: string };
    expect(structured.timeZone).toBe('Europe/Paris');
    expect(Date.parse(structured.iso)).toBeGreaterThanOrEqual(before - 1_000);
    expect(Date.parse(structured.iso)).toBeLessThanOrEqual(Date.now() + 1_000);

    const bad = await client.callTool({ name: 'time', arguments: { timeZone: 'Mars/Olympus' } }, CALL);
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('Mars/Olympus');

    await client.close();
    expect((await health()).sessions).toBe(0);
  });
});

describe('security defaults', () => {
  it('answers a CORS preflight from an allowed origin with the MCP headers allowed', async () => {
    const response = await fetch(running.url, {
      method: 'OPTIONS',
      headers: {
        origin: BROWSER_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-session-id, mcp-protocol-version, mcp-param-region',
      },
      signal: AbortSignal.timeout(5_000),
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(BROWSER_ORIGIN);
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-methods')).toContain('DELETE');
    const allowed = response.headers.get('access-control-allow-headers')?.split(', ') ?? [];
    expect(allowed).toEqual(
      expect.arrayContaining([
        'content-type',
        'mcp-session-id',
        'mcp-protocol-version',
        'mcp-method',
        'mcp-param-region',
      ]),
    );
  });

  it('exposes Mcp-Session-Id to a browser origin on the initialize response', async () => {
    const response = await fetch(running.url, {
      method: 'POST',
      headers: {
        origin: BROWSER_ORIGIN,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'browser', version: '1' } },
      }),
      signal: AbortSignal.timeout(5_000),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(response.headers.get('access-control-allow-origin')).toBe(BROWSER_ORIGIN);
    expect(response.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('mcp-session-id');
    await response.body?.cancel();
    expect((await health()).sessions).toBe(1);
    // The browser ends its session the way a client does: DELETE with the id.
    const ended = await fetch(running.url, {
      method: 'DELETE',
      headers: { origin: BROWSER_ORIGIN, 'mcp-session-id': response.headers.get('mcp-session-id') ?? '' },
      signal: AbortSignal.timeout(5_000),
    });
    expect(ended.status).toBe(200);
    expect(ended.headers.get('access-control-allow-origin')).toBe(BROWSER_ORIGIN);
    expect((await health()).sessions).toBe(0);
  });

  it('gives a preflight from another origin no CORS grant', async () => {
    const response = await fetch(running.url, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      signal: AbortSignal.timeout(5_000),
    });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a foreign Host or Origin with 403 (DNS-rebinding protection)', async () => {
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const host = await rawPost({ host: 'evil.example' }, ping);
    expect(host.status).toBe(403);
    expect(JSON.parse(host.body)).toMatchObject({ error: { data: { host: 'evil.example' } } });
    const origin = await rawPost({ origin: 'http://evil.example' }, ping);
    expect(origin.status).toBe(403);
    expect(JSON.parse(origin.body)).toMatchObject({ error: { data: { origin: 'http://evil.example' } } });
  });

  it('serves the health route without MCP', async () => {
    expect(await health()).toEqual({ status: 'ok', sessions: 0 });
  });
});

describe('shutdown', () => {
  it('on SIGTERM ends sessions and open streams, closes the http server and exits 0', async () => {
    const own = await startApp();
    try {
      const { client, transport } = await connect('2025-11-25', own.url);
      expect(transport.sessionId).toBeDefined();
      await client.listTools({}, CALL); // by now the standalone GET stream is open too

      const startedAt = Date.now();
      const code = await own.stop();
      expect(code).toBe(0);
      // Well under the 5 s grace period: open streams ended, nothing had to be cut.
      expect(Date.now() - startedAt).toBeLessThan(4_000);
      expect(own.output()).toMatch(/SIGTERM: closing\nclosed\n/);
      await expect(fetch(own.url, { method: 'OPTIONS', signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
      await expect(client.ping(CALL)).rejects.toThrow();
    } finally {
      await own.stop();
    }
  });
});
