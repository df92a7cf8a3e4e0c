import { describe, expect, it } from 'vitest';
import { RequestTimeoutError } from '../src/errors';
import { createLinkedTransports } from '../src/memory-transport';
import { JsonRpcPeer } from '../src/peer';

async function linkedPeers(): Promise<{ client: JsonRpcPeer; server: JsonRpcPeer }> {
  const [left, right] = createLinkedTransports();
  const server = new JsonRpcPeer();
  const client = new JsonRpcPeer();
  await Promise.all([server.connect(right), client.connect(left)]);
  return { client, server };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('JsonRpcPeer.onFirstMessage', () => {
  it('calls the listener once, at the first message received, and at once after that', async () => {
    const { client, server } = await linkedPeers();
    const heard: string[] = [];
    client.onFirstMessage(() => heard.push('first'));
    const removed = client.onFirstMessage(() => heard.push('removed'));
    removed();
    await sleep(20);
    expect(heard).toEqual([]);
    await server.notify('hello');
    await sleep(20);
    await server.notify('again');
    await sleep(20);
    expect(heard).toEqual(['first']);
    client.onFirstMessage(() => heard.push('late'));
    expect(heard).toEqual(['first', 'late']);
    await client.close();
    await server.close();
  });

  it('counts per connection: a new connection starts unheard', async () => {
    const { client, server } = await linkedPeers();
    await server.notify('hello');
    await sleep(20);
    await client.close();
    await server.close();
    const [left, right] = createLinkedTransports();
    await Promise.all([server.connect(right), client.connect(left)]);
    let heard = 0;
    client.onFirstMessage(() => heard++);
    expect(heard).toBe(0);
    await server.notify('hello');
    await sleep(20);
    expect(heard).toBe(1);
    await client.close();
    await server.close();
  });
});

describe('JsonRpcPeer.holdTimeouts', () => {
  it('a request does not time out while held, and its deadline moves by the time held', async () => {
    const { client, server } = await linkedPeers();
    server.setRequestHandler('slow', () => sleep(400).then(() => 'done'));
    const release = client.holdTimeouts();
    const answer = client.request('slow', undefined, { timeoutMs: 100, maxTotalTimeoutMs: 150 });
    await sleep(350);
    release();
    release(); // harmless
    // Without the hold it would have failed at 100 ms; with it, the deadlines are ~450/500 ms.
    await expect(answer).resolves.toBe('done');
    await client.close();
    await server.close();
  });

  it('times out as usual once released, and holds nest', async () => {
    const { client, server } = await linkedPeers();
    server.setRequestHandler('never', () => new Promise(() => {}));
    const outer = client.holdTimeouts();
    const inner = client.holdTimeouts();
    const started = Date.now();
    const answer = client.request('never', undefined, { timeoutMs: 50 }).catch((error: unknown) => error);
    await sleep(100);
    inner();
    await sleep(100);
    outer();
    const error = await answer;
    expect(RequestTimeoutError.is(error)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    await client.close();
    await server.close();
  });
});
