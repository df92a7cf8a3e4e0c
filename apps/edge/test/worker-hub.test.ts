import { Client } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker, type RunningWorkers, startWorkers } from './workerd';

// workerd forbids one request to write to another request's stream: in the isolates, a 2026-07-28 listen stream never
// hears a change another request makes. With `hub`, those requests are served in one Durable Object, where it does.

let isolates: RunningWorkers;
let hub: RunningWorkers;
beforeAll(async () => {
  [isolates, hub] = await Promise.all([
    bundleWorker('src/worker.ts').then((script) => startWorkers(script)),
    bundleWorker('test/fixtures/hub-worker.ts').then((script) => startWorkers(script)),
  ]);
}, 40_000);
afterAll(async () => {
  await Promise.all([isolates?.dispose(), hub?.dispose()]);
});

/** Subscribes through Worker a, increments through `actorVia`; the URIs the listener heard within `waitMs`. */
async function heardUpdates(workers: RunningWorkers, actorVia: 'a' | 'b', waitMs: number): Promise<string[]> {
  const listener = new Client({ name: 'listener', version: '1.0.0' });
  const actor = new Client({ name: 'actor', version: '1.0.0' });
  await listener.connect(new StreamableHttpClientTransport(workers.url, { fetch: workers.fetchVia('a') }), {
    era: 'modern',
  });
  await actor.connect(new StreamableHttpClientTransport(workers.url, { fetch: workers.fetchVia(actorVia) }), {
    era: 'modern',
  });
  const heard: string[] = [];
  const subscription = await listener.subscribe({ resources: ['edge://counter'] }, (notification) => {
    if (notification.method === 'notifications/resources/updated') heard.push(notification.params.uri);
  });
  await actor.callTool({ name: 'increment' });
  for (let waited = 0; waited < waitMs && heard.length === 0; waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await subscription.close();
  await Promise.all([listener.close(), actor.close()]);
  return heard;
}

describe('2026-07-28 listen streams on Workers', () => {
  it('in the isolates: a change made by another request, even in the same Worker, does not reach the stream', async () => {
    // Documents workerd's rule (and the reason for `hub`): this fails the day a Worker may write to another request's
    // stream, and the README's advice must change with it.
    expect(await heardUpdates(isolates, 'a', 500)).toEqual([]);
  });

  it('with hub: the change reaches the stream, from any Worker', async () => {
    expect(await heardUpdates(hub, 'b', 3000)).toEqual(['edge://counter']);
  });
});
