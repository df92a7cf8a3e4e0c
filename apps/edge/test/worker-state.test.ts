import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@mcpkit/client';
import { TasksClient } from '@mcpkit/tasks';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker, type RunningWorkers, startWorkers } from './workerd';

// What outlives an isolate: tasks in a SQLite-backed Durable Object (found again after workerd restarts on the same
// storage), and requestState tokens that any isolate accepts once (shared secret, nonces in Durable Objects).

const persist = mkdtempSync(join(tmpdir(), 'mcpkit-edge-state-'));
let script: string;
let workers: RunningWorkers;
beforeAll(async () => {
  script = await bundleWorker('src/worker.ts');
  workers = await startWorkers(script, { persist });
}, 30_000);
afterAll(async () => {
  await workers?.dispose();
  rmSync(persist, { recursive: true, force: true });
});

function textOf(result: unknown): string {
  return (result as { content: Array<{ text: string }> }).content[0]!.text;
}

async function modernClient(via: 'a' | 'b', handlers = {}) {
  const client = new Client({ name: 'edge-test', version: '1.0.0' }, { handlers });
  const tasks = new TasksClient(client);
  await client.connect(new StreamableHttpClientTransport(workers.url, { fetch: workers.fetchVia(via) }), {
    era: 'modern',
  });
  return { client, tasks };
}

describe('state on the platform', () => {
  it('keeps a task through a restart of workerd (new isolates, same Durable Object storage)', async () => {
    const first = await modernClient('a');
    const task = await first.tasks.callToolAsTask({ name: 'slow-sum', arguments: { a: 19, b: 23 } });
    expect(textOf(await task.wait())).toBe('42');
    await first.client.close();

    await workers.dispose();
    workers = await startWorkers(script, { persist });

    const second = await modernClient('b');
    const again = second.tasks.task(task.taskId);
    expect((await again.status()).status).toBe('completed');
    expect(textOf(await again.result())).toBe('42');
    await second.client.close();
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
