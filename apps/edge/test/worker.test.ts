import { Client } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker, type RunningWorkers, startWorkers } from './workerd';

// The edge app's Worker in workerd (miniflare), started once for the file: two Workers (separate isolates) share the
// Durable Object namespace that holds legacy sessions.

let workers: RunningWorkers;
beforeAll(async () => {
  workers = await startWorkers(await bundleWorker('src/worker.ts'));
}, 30_000);
afterAll(async () => {
  await workers?.dispose();
});

const LEGACY = '2025-11-25';
const JSON_AND_SSE = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function textOf(result: { content?: unknown }): string {
  return (result.content as Array<{ text: string }>)[0]!.text;
}

/** A fetch that alternates between the two Workers, and counts which served what. */
function alternating(): { fetch: typeof fetch; served: Record<'a' | 'b', number> } {
  const served = { a: 0, b: 0 };
  let next: 'a' | 'b' = 'a';
  const fetchFn = ((input: string | URL | Request, init?: RequestInit) => {
    const worker = next;
    next = next === 'a' ? 'b' : 'a';
    served[worker] += 1;
    return workers.fetchVia(worker)(input, init);
  }) as typeof fetch;
  return { fetch: fetchFn, served };
}

async function legacyClient(fetchFn: typeof fetch = workers.fetchVia('a')) {
  const client = new Client(
    { name: 'edge-test', version: '1.0.0' },
    {
      handlers: {
        elicitation: () => ({ action: 'accept', content: { goOn: true } }),
        sampling: () => ({
          role: 'assistant',
          content: { type: 'text', text: 'cold start, warm cache' },
          model: 'test-model',
        }),
      },
    },
  );
  const transport = new StreamableHttpClientTransport(workers.url, { fetch: fetchFn });
  await client.connect(transport, { protocolVersion: LEGACY });
  return { client, transport };
}

function rpc(method: string, params: Record<string, unknown> = {}, id = 1) {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params });
}

async function openSession(): Promise<string> {
  const response = await fetch(workers.url, {
    method: 'POST',
    headers: JSON_AND_SSE,
    body: rpc('initialize', {
      protocolVersion: LEGACY,
      capabilities: {},
      clientInfo: { name: 'raw', version: '1.0.0' },
    }),
  });
  expect(response.status).toBe(200);
  await response.text();
  const sessionId = response.headers.get('mcp-session-id')!;
  const initialized = await fetch(workers.url, {
    method: 'POST',
    headers: { ...JSON_AND_SSE, 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  expect(initialized.status).toBe(202);
  return sessionId;
}

describe('the Worker in workerd: stateless', () => {
  it('answers a 2026-07-28 client in the isolate that got the request', async () => {
    const client = new Client({ name: 'edge-test', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(workers.url, { fetch: alternating().fetch }), {
      era: 'modern',
    });
    expect(textOf(await client.callTool({ name: 'runtime' }))).toBe('workerd');
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }))).toBe('5');
    await client.close();
  });

  it('serves a legacy request without a session on its own (legacy stateless mode)', async () => {
    const response = await fetch(workers.url, {
      method: 'POST',
      headers: { ...JSON_AND_SSE, 'mcp-protocol-version': LEGACY },
      body: rpc('tools/call', { name: 'add', arguments: { a: 20, b: 22 } }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(await response.text()).toContain('"text":"42"');
  });

  it('refuses a body over the limit with 413 before it opens a session', async () => {
    const big = rpc('initialize', { padding: 'x'.repeat(4 * 1024 * 1024 + 10) });
    // Declared too large: refused before reading.
    const declared = await workers.fetchVia('a')(workers.url, { method: 'POST', headers: JSON_AND_SSE, body: big });
    expect(declared.status).toBe(413);
    expect((await declared.json()).error.code).toBe(-32000);
    // Streamed without a length: counted while read, refused once past the limit.
    const bytes = new TextEncoder().encode(big);
    const streamed = await workers.fetchVia('a')(workers.url, {
      method: 'POST',
      headers: JSON_AND_SSE,
      body: new ReadableStream({
        start(controller) {
          for (let at = 0; at < bytes.length; at += 65_536) controller.enqueue(bytes.subarray(at, at + 65_536));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });
});

describe('the Worker in workerd: legacy sessions in Durable Objects', () => {
  it('serves one session through two isolates: tools, elicitation, sampling', async () => {
    const route = alternating();
    const { client, transport } = await legacyClient(route.fetch);
    expect(transport.sessionId).toMatch(/^[0-9a-f]{64}\.[A-Za-z0-9_-]{22}$/);
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }))).toBe('3');
    expect(textOf(await client.callTool({ name: 'confirm' }))).toBe('going on');
    expect(textOf(await client.callTool({ name: 'haiku' }))).toBe('cold start, warm cache');
    expect(route.served.a).toBeGreaterThan(1);
    expect(route.served.b).toBeGreaterThan(1);
    await client.close();
  });

  it('delivers a subscribed resource update on the session’s GET stream', async () => {
    const { client } = await legacyClient(alternating().fetch);
    const updates: string[] = [];
    const subscription = await client.subscribe({ resources: ['edge://counter'] }, (notification) => {
      if (notification.method === 'notifications/resources/updated') updates.push(notification.params.uri);
    });
    await client.callTool({ name: 'increment' });
    for (let i = 0; i < 100 && updates.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(updates).toEqual(['edge://counter']);
    await subscription.close();
    await client.close();
  });

  it('resumes a cut response stream with Last-Event-ID, in another isolate', async () => {
    const sessionId = await openSession();
    const headers = { ...JSON_AND_SSE, 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY };
    const controller = new AbortController();
    const response = await workers.fetchVia('a')(workers.url, {
      method: 'POST',
      headers,
      body: rpc(
        'tools/call',
        { name: 'countdown', arguments: { from: 6, stepMs: 40 }, _meta: { progressToken: 'p' } },
        7,
      ),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let seen = '';
    while ((seen.match(/notifications\/progress/g) ?? []).length < 2) {
      const { value } = await reader.read();
      seen += decoder.decode(value, { stream: true });
    }
    controller.abort();
    const ids = [...seen.matchAll(/^id: (.+)$/gm)].map((match) => match[1]!);
    const lastId = ids[ids.length - 1]!;
    const resumed = await workers.fetchVia('b')(workers.url, {
      method: 'GET',
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': LEGACY,
        'last-event-id': lastId,
      },
    });
    expect(resumed.status).toBe(200);
    const rest = await resumed.text();
    const progress = [...rest.matchAll(/"progress":(\d+)/g)].map((match) => Number(match[1]));
    const before = [...seen.matchAll(/"progress":(\d+)/g)].map((match) => Number(match[1]));
    expect([...before, ...progress]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rest).toContain('liftoff');
  });

  it('answers 404 with a JSON-RPC error for a session whose object holds nothing, or an id it never issued', async () => {
    const live = await openSession();
    const [objectId] = live.split('.');
    const probes = [
      `${objectId}.not-the-session`, // the object exists, the session does not
      `${'0'.repeat(64)}.whatever`, // not an id of this namespace
      'garbage',
    ];
    for (const sessionId of probes) {
      const response = await fetch(workers.url, {
        method: 'POST',
        headers: { ...JSON_AND_SSE, 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY },
        body: rpc('tools/list'),
      });
      expect(response.status, sessionId).toBe(404);
      const body = await response.json();
      expect(body.jsonrpc).toBe('2.0');
      expect(body.error.code).toBe(-32000);
    }
    const deleted = await fetch(workers.url, { method: 'DELETE', headers: { 'mcp-session-id': live } });
    expect(deleted.ok).toBe(true);
    const after = await fetch(workers.url, {
      method: 'POST',
      headers: { ...JSON_AND_SSE, 'mcp-session-id': live, 'mcp-protocol-version': LEGACY },
      body: rpc('tools/list'),
    });
    expect(after.status).toBe(404);
    expect((await after.json()).error.code).toBe(-32000);
  });
});
