import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@mcpkit/client';
import { TasksClient } from '@mcpkit/tasks';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker, type RunningWorkers, startWorkers } from './workerd';

// What outlives an isolate: tasks in a SQLite-backed Durable Object (found again after workerd restarts on the same
// storage), a legacy session in its Durable Object's storage (restored when the object starts again), and
// requestState tokens that any isolate accepts once (shared secret, nonces in Durable Objects).

/** The isolates' hold on their running tasks (the app's default is 30 s): a gone isolate's tasks are orphans after it. */
const LEASE_MS = 1000;
const persist = mkdtempSync(join(tmpdir(), 'mcpkit-edge-state-'));
let script: string;
let workers: RunningWorkers;
beforeAll(async () => {
  script = await bundleWorker('src/worker.ts');
  workers = await startWorkers(script, { persist, bindings: { TASK_LEASE_MS: String(LEASE_MS) } });
}, 30_000);
afterAll(async () => {
  await workers?.dispose();
  rmSync(persist, { recursive: true, force: true });
});

function textOf(result: unknown): string {
  return (result as { content: Array<{ text: string }> }).content[0]!.text;
}

async function restartWorkerd(): Promise<void> {
  await workers.dispose();
  workers = await startWorkers(script, { persist, bindings: { TASK_LEASE_MS: String(LEASE_MS) } });
}

const LEGACY = '2025-11-25';

async function modernClient(via: 'a' | 'b', handlers = {}) {
  const client = new Client({ name: 'edge-test', version: '1.0.0' }, { handlers });
  const tasks = new TasksClient(client);
  await client.connect(new StreamableHttpClientTransport(workers.url, { fetch: workers.fetchVia(via) }), {
    era: 'modern',
  });
  return { client, tasks };
}

describe('state on the platform', () => {
  it('keeps a task through a restart of workerd, and recovers one the restart cut (resumed, as on Node)', async () => {
    const first = await modernClient('a');
    const task = await first.tasks.callToolAsTask({ name: 'slow-sum', arguments: { a: 19, b: 23 } });
    expect(textOf(await task.wait())).toBe('42');
    // Still running when workerd stops: its isolate is gone, and its lease runs out LEASE_MS later.
    const cut = await first.tasks.callToolAsTask({ name: 'slow-sum', arguments: { a: 40, b: 2, ms: 800 } });
    expect((await cut.status()).status).toBe('working');
    const stopped = Date.now();
    await first.client.close();

    await restartWorkerd();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, stopped + LEASE_MS + 100 - Date.now())));

    // The first request builds the server in a new isolate; its TaskServer recovers the orphan (slow-sum is resumable).
    const second = await modernClient('b');
    const again = second.tasks.task(task.taskId);
    expect((await again.status()).status).toBe('completed');
    expect(textOf(await again.result())).toBe('42');
    // Polled, not waited on: a listen stream (what `wait` opens) is another request, which in the isolates hears of the
    // task only if its own isolate resumed it (isolates share no memory; see the `hub` option).
    const resumed = second.tasks.task(cut.taskId);
    let status = (await resumed.status()).status;
    for (let i = 0; i < 100 && status === 'working'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await resumed.status()).status;
    }
    expect(status).toBe('completed');
    expect(textOf(await resumed.result())).toBe('42');
    await second.client.close();
  });

  it('continues a legacy session after workerd restarts (its object evicted): no new initialize', async () => {
    const sent: string[] = [];
    // Through whichever workerd runs now: the client keeps one transport across the restart.
    const recording = ((input: string | URL | Request, init?: RequestInit) => {
      if (typeof init?.body === 'string') sent.push(init.body);
      return workers.fetchVia(sent.length % 2 === 0 ? 'a' : 'b')(input, init);
    }) as typeof fetch;
    const client = new Client(
      { name: 'edge-test', version: '1.0.0' },
      {
        handlers: {
          elicitation: () => ({ action: 'accept', content: { goOn: true } }),
          sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'evicted, restored' }, model: 'm' }),
        },
      },
    );
    // The GET stream retries while workerd is down (each attempt fails at once), soon enough to be back in the test.
    const transport = new StreamableHttpClientTransport(workers.url, {
      fetch: recording,
      reconnect: { initialDelayMs: 100, maxDelayMs: 500, maxAttempts: 100 },
    });
    await client.connect(transport, { protocolVersion: LEGACY });
    const sessionId = transport.sessionId!;
    const updates: string[] = [];
    await client.subscribe({ resources: ['edge://counter'] }, (notification) => {
      if (notification.method === 'notifications/resources/updated') updates.push(notification.params.uri);
    });
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } }))).toBe('2');

    // A call cut mid-stream by the restart: its client resumes it in the next incarnation with Last-Event-ID.
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': LEGACY,
    };
    const cut = new AbortController();
    const call = await workers.fetchVia('a')(workers.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'cut-1',
        method: 'tools/call',
        params: { name: 'countdown', arguments: { from: 50, stepMs: 100 }, _meta: { progressToken: 'p' } },
      }),
      signal: cut.signal,
    });
    const reader = call.body!.getReader();
    let seen = '';
    while ((seen.match(/notifications\/progress/g) ?? []).length < 2) {
      seen += new TextDecoder().decode((await reader.read()).value);
    }
    cut.abort();
    const lastId = [...seen.matchAll(/^id: (.+)$/gm)].at(-1)![1]!;

    await restartWorkerd();

    const resumed = await workers.fetchVia('b')(workers.url, {
      method: 'GET',
      headers: { ...headers, accept: 'text/event-stream', 'last-event-id': lastId },
    });
    expect(resumed.status).toBe(200);
    const rest = await resumed.text();
    // What the old incarnation sent after lastId, then the call's end: it died with that incarnation, so the client
    // is told to send it again rather than left waiting.
    const progress = [...`${seen}${rest}`.matchAll(/"progress":(\d+)/g)].map((match) => Number(match[1]));
    expect(progress).toEqual(progress.map((_, index) => index + 1));
    expect(rest).toMatch(/"id":"cut-1","error":\{"code":-32000/);
    expect(rest).toContain('instance_gone');

    // The same session goes on: capabilities restored (elicitation, sampling), subscriptions restored.
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }))).toBe('5');
    expect(textOf(await client.callTool({ name: 'confirm' }))).toBe('going on');
    expect(textOf(await client.callTool({ name: 'haiku' }))).toBe('evicted, restored');
    // An update made before the client's GET stream is back has nowhere to go (the spec lets the server drop it):
    // increment until one arrives, within a bound.
    for (let i = 0; i < 50 && updates.length === 0; i++) {
      await client.callTool({ name: 'increment' });
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(updates[0]).toBe('edge://counter');
    expect(transport.sessionId).toBe(sessionId);
    expect(sent.filter((body) => body.includes('"method":"initialize"'))).toHaveLength(1);
    await client.close();

    // Deleted (DELETE above, by close) is gone for good: 404 with the JSON-RPC error.
    const after = await workers.fetchVia('a')(workers.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
    expect((await after.json()).error.code).toBe(-32000);
  });

  it('accepts a requestState token in another isolate, once', async () => {
    // Round one in isolate a asks for input (input_required with a requestState); the client answers through b.
    let asked = 0;
    const route = { next: 'a' as 'a' | 'b' };
    const client = new Client(
      { name: 'edge-test', version: '1.0.0' },
      {
        handlers: {
          elicitation: () => {
            asked += 1;
            route.next = 'b';
            return { action: 'accept', content: { goOn: true } };
          },
        },
      },
    );
    const fetchFn = ((input: string | URL | Request, init?: RequestInit) =>
      workers.fetchVia(route.next)(input, init)) as typeof fetch;
    const sent: string[] = [];
    const recording = ((input: string | URL | Request, init?: RequestInit) => {
      if (typeof init?.body === 'string') sent.push(init.body);
      return fetchFn(input, init);
    }) as typeof fetch;
    await client.connect(new StreamableHttpClientTransport(workers.url, { fetch: recording }), { era: 'modern' });
    expect(textOf(await client.callTool({ name: 'confirm' }))).toBe('going on');
    expect(asked).toBe(1);
    await client.close();

    // Replaying the second round (same requestState) is refused: the nonce was used.
    const replay = sent.find((body) => body.includes('"requestState"'));
    expect(replay).toBeDefined();
    const response = await workers.fetchVia('a')(workers.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'confirm',
      },
      body: replay,
    });
    const text = await response.text();
    expect(text).not.toContain('going on');
    expect(text).toMatch(/"error"|input_required/);
  });
});
