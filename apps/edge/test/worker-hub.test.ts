import { Client } from '@mcpkit/client';
import { StreamableHttpClientTransport } from '@mcpkit/transport-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker, type RunningWorkers, startWorkers } from './workerd';

// workerd forbids one request to touch an I/O object another request created (a native stream, an AbortSignal). A
// 2026-07-28 listen stream's events go through plain JavaScript (its cancellation is an AbortLink, not an AbortSignal),
// so a change made by another request of the same isolate reaches it; isolates share no memory, so a change made in
// another one never does. With `hub`, every such request is served in one Durable Object, where all of them do.

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
  it('in the isolates: a change made by another request of the same isolate reaches the stream', async () => {
    expect(await heardUpdates(isolates, 'a', 3000)).toEqual(['edge://counter']);
  });

  it('in the isolates: a change made in another isolate does not (the reason for `hub`)', async () => {
    expect(await heardUpdates(isolates, 'b', 500)).toEqual([]);
  });

  it('with hub: the change reaches the stream, from any Worker', async () => {
    expect(await heardUpdates(hub, 'b', 3000)).toEqual(['edge://counter']);
  });
});
