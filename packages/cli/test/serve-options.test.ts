// `mcpkit serve`'s options and guarantees, on the wire: CORS only with --cors (preflight included), the Host and
// Origin checks (DNS rebinding refused by default, --allowed-host), resumability through the bridge (a POST stream and
// the GET stream cut and resumed with Last-Event-ID, nothing lost), and per-session children against --shared.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServeProcess, startServe, stdioServer } from './serve-process';

const FIXTURE = stdioServer('packages/cli/test/fixtures/serve-fixture-server.ts');
const LEGACY = '2025-11-25';
const APP = 'https://app.example';

let perSession: ServeProcess;
let shared: ServeProcess;
let anyOrigin: ServeProcess;
beforeAll(async () => {
  [perSession, shared, anyOrigin] = await Promise.all([
    startServe([], FIXTURE),
    startServe(['--shared', '--cors', APP, '--allowed-host', 'mcp.example.com'], FIXTURE),
    startServe(['--shared', '--cors', '*'], FIXTURE),
  ]);
}, 40_000);
afterAll(() => Promise.all([perSession?.stop(), shared?.stop(), anyOrigin?.stop()]));

/** One SSE event as the stream carried it. */
interface SseEvent {
  id?: string;
  data: string;
}

/** Reads the SSE events of a response body one at a time (no parser dependency: the format is four lines of spec). */
class SseReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  #buffer = '';

  constructor(response: Response) {
    this.#reader = response.body!.getReader();
  }

  /** The next event; fails after `timeoutMs` or when the stream ends first. */
  async next(timeoutMs = 10_000): Promise<SseEvent> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.#buffer.search(/\r?\n\r?\n/);
      if (end >= 0) {
        const block = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        const event: SseEvent = { data: '' };
        for (const line of block.split(/\r?\n/)) {
          const [field, ...rest] = line.split(':');
          const value = rest.join(':').replace(/^ /, '');
          if (field === 'id') event.id = value;
          else if (field === 'data') event.data += event.data === '' ? value : `\n${value}`;
        }
        return event;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no SSE event within ${timeoutMs} ms; buffered: ${this.#buffer}`);
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        this.#reader.read(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no SSE event within ${timeoutMs} ms`)), left);
        }),
      ]).finally(() => clearTimeout(timer));
      if (chunk.done) throw new Error(`the stream ended; buffered: ${this.#buffer}`);
      this.#buffer += this.#decoder.decode(chunk.value, { stream: true });
    }
  }

  /** The next event that carries a JSON-RPC message (priming events carry none), parsed. */
  async nextMessage(timeoutMs?: number): Promise<{ id?: string; message: Record<string, unknown> }> {
    for (;;) {
      const event = await this.next(timeoutMs);
      if (event.data.trim() !== '') return { id: event.id, message: JSON.parse(event.data) };
    }
  }

  cancel(): Promise<void> {
    return this.#reader.cancel().catch(() => {});
  }
}

/** A 2025-era session spoken by hand, so streams can be cut and resumed where a client library would hide it. */
class LegacySession {
  #nextId = 1;
  private constructor(
    readonly url: string,
    readonly id: string,
  ) {}

  static async open(url: string): Promise<LegacySession> {
    const response = await post(url, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'serve-test', version: '1.0.0' } },
    });
    expect(response.status).toBe(200);
    await response.body?.cancel();
    const session = new LegacySession(url, response.headers.get('mcp-session-id')!);
    expect(session.id).toBeTruthy();
    const initialized = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, session.headers());
    expect(initialized.status).toBe(202);
    return session;
  }

  headers(): Record<string, string> {
    return { 'mcp-session-id': this.id, 'mcp-protocol-version': LEGACY };
  }

  /** Sends a request and returns its SSE response, unread. */
  async stream(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<SseReader> {
    const response = await post(
      this.url,
      { jsonrpc: '2.0', id: this.#nextId++, method, params },
      this.headers(),
      signal,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    return new SseReader(response);
  }

  async call(name: string, args: Record<string, unknown> = {}): Promise<string> {
    const reader = await this.stream('tools/call', { name, arguments: args });
    const { message } = await reader.nextMessage();
    await reader.cancel();
    const result = message.result as { content: Array<{ text: string }> } | undefined;
    if (result === undefined) throw new Error(`tools/call ${name} failed: ${JSON.stringify(message)}`);
    return result.content[0]!.text;
  }

  /** GET: the standalone stream, or with `lastEventId` the rest of the stream that event was on. */
  async get(lastEventId?: string, signal?: AbortSignal): Promise<SseReader> {
    const response = await fetch(this.url, {
      headers: {
        accept: 'text/event-stream',
        ...this.headers(),
        ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
      },
      signal,
    });
    expect(response.status).toBe(200);
    return new SseReader(response);
  }

  async close(): Promise<void> {
    await fetch(this.url, { method: 'DELETE', headers: this.headers() });
  }
}

function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
    signal,
  });
}

/** A raw request with the Host header of our choice (fetch does not let a caller set it). */
function rawPost(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    });
    request.once('response', (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.once('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    request.once('error', reject);
    request.end(JSON.stringify(body));
  });
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
};

describe('mcpkit serve: CORS', () => {
  it('sends no CORS headers without --cors', async () => {
    const preflight = await fetch(perSession.url, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    // A local page is not refused (its origin passes the host check) but gets no CORS header to read the answer.
    const answer = await rawPost(perSession.url, { origin: 'http://localhost:5173' }, INITIALIZE);
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('with --cors: answers the preflight and decorates answers for that origin only', async () => {
    const preflight = await fetch(shared.url, {
      method: 'OPTIONS',
      headers: {
        origin: APP,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, mcp-protocol-version, mcp-session-id, authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(APP);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const allowed = preflight.headers.get('access-control-allow-headers')!.split(/,\s*/);
    expect(allowed).toEqual(expect.arrayContaining(['content-type', 'mcp-protocol-version', 'mcp-session-id']));
    const answer = await rawPost(shared.url, { origin: APP }, INITIALIZE);
    expect(answer.status).toBe(200);
    expect(answer.headers['access-control-allow-origin']).toBe(APP);
    // The session id must be readable by the page, or it could not send its next request.
    expect(String(answer.headers['access-control-expose-headers']).toLowerCase()).toContain('mcp-session-id');

    // Another origin: no preflight grant, and its requests are refused by the Origin check.
    const other = await fetch(shared.url, {
      method: 'OPTIONS',
      headers: { origin: 'https://other.example', 'access-control-request-method': 'POST' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const refused = await rawPost(shared.url, { origin: 'https://other.example' }, INITIALIZE);
    expect(refused.status).toBe(403);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });
  it("with --cors '*': every origin may call (preflight and requests), and a rebinding Host is still refused", async () => {
    const preflight = await fetch(anyOrigin.url, {
      method: 'OPTIONS',
      headers: { origin: 'https://anywhere.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    for (const origin of ['https://anywhere.example', 'http://localhost:5173']) {
      const answer = await rawPost(anyOrigin.url, { origin }, INITIALIZE);
      expect(answer.status, answer.body).toBe(200);
      expect(answer.headers['access-control-allow-origin']).toBe('*');
    }
    const port = new URL(anyOrigin.url).port;
    const rebound = await rawPost(anyOrigin.url, { host: `evil.example:${port}`, origin: APP }, INITIALIZE);
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatch(/Host 'evil\.example:\d+' is not allowed/);
    expect((await rawPost(anyOrigin.url, { host: `[::1]:${port}` }, INITIALIZE)).status).toBe(200);
  });
});

describe('mcpkit serve: Host and Origin checks', () => {
  it('refuses a rebinding Host or Origin with 403 by default, before anything reaches the child', async () => {
    const port = new URL(perSession.url).port;
    const rebound = await rawPost(perSession.url, { host: `evil.example:${port}` }, INITIALIZE);
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatch(/Host 'evil\.example:\d+' is not allowed/);
    const foreign = await rawPost(perSession.url, { origin: 'http://evil.example' }, INITIALIZE);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatch(/Origin 'http:\/\/evil\.example' is not allowed/);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      expect((await rawPost(perSession.url, { host }, INITIALIZE)).status).toBe(200);
    }
  });

  it('--allowed-host adds a name and keeps the local ones; others are still refused', async () => {
    const port = new URL(shared.url).port;
    expect((await rawPost(shared.url, { host: `mcp.example.com:${port}` }, INITIALIZE)).status).toBe(200);
    expect((await rawPost(shared.url, { host: `localhost:${port}` }, INITIALIZE)).status).toBe(200);
    expect((await rawPost(shared.url, { host: `evil.example:${port}` }, INITIALIZE)).status).toBe(403);
  });
});

describe('mcpkit serve: resumability', () => {
  it('a tools/call stream cut mid-call is resumed with Last-Event-ID: every progress event and the result arrive once', async () => {
    // On the --shared bridge, whose child already runs: no child to start for this session.
    const session = await LegacySession.open(shared.url);
    const cut = new AbortController();
    const steps = 6;
    const first = await session.stream(
      'tools/call',
      { name: 'slow', arguments: { steps, delayMs: 150 }, _meta: { progressToken: 'p' } },
      cut.signal,
    );
    const before = await first.nextMessage(15_000);
    expect(before.message).toMatchObject({ method: 'notifications/progress', params: { progress: 1 } });
    expect(before.id).toBeTruthy();
    cut.abort();

    // The call goes on while nobody listens; what it sends is kept for the session and replayed after `before`.
    const resumed = await session.get(before.id);
    const progress = [1];
    let result: Record<string, unknown> | undefined;
    while (result === undefined) {
      const { message } = await resumed.nextMessage(15_000);
      if (message.method === 'notifications/progress') progress.push((message.params as { progress: number }).progress);
      else result = message;
    }
    await resumed.cancel();
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
    expect(result).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'done after 6 steps' }] } });
    await session.close();
  });

  it('the GET stream cut and resumed: a list change sent while it was down arrives', async () => {
    // --shared: the one child's list changes reach every session, so a second session's open stream shows when the
    // change was sent (a fresh stream opened after that must not pass for a resumed one).
    const [session, witness] = await Promise.all([LegacySession.open(shared.url), LegacySession.open(shared.url)]);
    const cut = new AbortController();
    const standalone = await session.get(undefined, cut.signal);
    const priming = await standalone.next();
    expect(priming.id).toBeTruthy();
    cut.abort();
    await standalone.cancel();
    const watching = await witness.get();
    await watching.next(); // its priming event

    expect(await session.call('add-tool')).toBe('added');
    expect((await watching.nextMessage(10_000)).message).toMatchObject({
      method: 'notifications/tools/list_changed',
    });
    const resumed = await session.get(priming.id);
    const { message } = await resumed.nextMessage(10_000);
    expect(message).toMatchObject({ method: 'notifications/tools/list_changed' });
    await Promise.all([resumed.cancel(), watching.cancel()]);
    await Promise.all([session.close(), witness.close()]);
  });
});

describe('mcpkit serve: one child per session, or --shared', () => {
  const counted = async (session: LegacySession) =>
    JSON.parse(await session.call('count')) as { count: number; pid: number };

  it('by default each session has its own child (its own state), which ends with the session', async () => {
    const [a, b] = await Promise.all([LegacySession.open(perSession.url), LegacySession.open(perSession.url)]);
    const a1 = await counted(a);
    const a2 = await counted(a);
    const b1 = await counted(b);
    expect([a1.count, a2.count, b1.count]).toEqual([1, 2, 1]);
    expect(a2.pid).toBe(a1.pid);
    expect(b1.pid).not.toBe(a1.pid);

    // A's child changing its tools is news for A's host only; B hears of its own child's change.
    const [aStream, bStream] = await Promise.all([a.get(), b.get()]);
    await Promise.all([aStream.next(), bStream.next()]); // priming events
    expect(await a.call('add-tool')).toBe('added');
    expect((await aStream.nextMessage()).message).toMatchObject({ method: 'notifications/tools/list_changed' });
    expect(await b.call('add-tool')).toBe('added');
    expect((await bStream.nextMessage()).message).toMatchObject({ method: 'notifications/tools/list_changed' });
    // Sent to A in the same turn if it were broadcast: a short grace is enough to see it did not come.
    const extra = await aStream.nextMessage(300).then(
      ({ message }) => message,
      () => undefined,
    );
    expect(extra, "B's child's change reached A's host").toBeUndefined();
    await Promise.all([aStream.cancel(), bStream.cancel()]);

    await a.close();
    const deadline = Date.now() + 10_000;
    while (alive(a1.pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(a1.pid), 'the closed session kept its child').toBe(false);
    expect(alive(b1.pid)).toBe(true);
    await b.close();
  });

  it('with --shared every session reaches the one child (its state is shared)', async () => {
    const [a, b] = await Promise.all([LegacySession.open(shared.url), LegacySession.open(shared.url)]);
    const a1 = await counted(a);
    const b1 = await counted(b);
    expect(b1.count).toBe(a1.count + 1);
    expect(b1.pid).toBe(a1.pid);
    await Promise.all([a.close(), b.close()]);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
