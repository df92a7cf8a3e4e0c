import type { JsonRpcPeer } from '@mcpkit/jsonrpc-core';
import { describe, expect, it, vi } from 'vitest';
import { ResponseCache } from '../src/index';
import { cacheable, harness, legacyServer, modernServer, until } from './helpers/harness';

function countingServer(ttlMs: number, cacheScope: 'public' | 'private', counts: Record<string, number>) {
  return (peer: JsonRpcPeer) => {
    modernServer(peer, { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true } });
    for (const method of ['tools/list', 'resources/list', 'resources/read']) {
      peer.setRequestHandler(method, (params) => {
        counts[method] = (counts[method] ?? 0) + 1;
        const n = counts[method];
        if (method === 'tools/list') {
          return cacheable({ tools: [{ name: `tool-${n}`, inputSchema: { type: 'object' } }] }, ttlMs, cacheScope);
        }
        if (method === 'resources/list') return cacheable({ resources: [] }, ttlMs, cacheScope);
        const { uri } = params as { uri: string };
        return cacheable({ contents: [{ uri, text: `v${n}` }] }, ttlMs, cacheScope);
      });
    }
  };
}

describe('response cache (ttlMs / cacheScope)', () => {
  it('serves a fresh result from the cache and refetches once ttlMs has passed', async () => {
    let now = 1_000;
    const counts: Record<string, number> = {};
    const h = await harness({
      server: countingServer(5_000, 'public', counts),
      client: { cache: new ResponseCache({ now: () => now }) },
    });
    const first = await h.client.listTools();
    const second = await h.client.listTools();
    expect(second).toBe(first);
    expect(counts['tools/list']).toBe(1);
    now += 4_999;
    await h.client.listTools();
    expect(counts['tools/list']).toBe(1);
    now += 1;
    expect((await h.client.listTools()).tools[0]!.name).toBe('tool-2');
    expect(counts['tools/list']).toBe(2);
    // Per call opt-out of the read; the fresh answer replaces the entry.
    expect((await h.client.listTools(undefined, { cache: false })).tools[0]!.name).toBe('tool-3');
    expect((await h.client.listTools()).tools[0]!.name).toBe('tool-3');
    // Keys include the result-affecting params.
    await h.client.readResource({ uri: 'file:///a' });
    await h.client.readResource({ uri: 'file:///b' });
    await h.client.readResource({ uri: 'file:///a' });
    expect(counts['resources/read']).toBe(2);
    await h.client.close();
    h.checked.assertClean();
  });

  it('never stores ttlMs 0, and caches nothing in the legacy era', async () => {
    const counts: Record<string, number> = {};
    const h = await harness({ server: countingServer(0, 'public', counts) });
    await h.client.listTools();
    await h.client.listTools();
    expect(counts['tools/list']).toBe(2);
    await h.client.close();

    let legacyLists = 0;
    const legacy = await harness({
      server: (peer) => {
        legacyServer(peer, { tools: {} });
        peer.setRequestHandler('tools/list', () => {
          legacyLists++;
          return { tools: [], ttlMs: 60_000, cacheScope: 'public' };
        });
      },
    });
    await legacy.client.listTools();
    await legacy.client.listTools();
    expect(legacyLists).toBe(2);
    await legacy.client.close();
  });

  it('never shares private entries across authorization contexts; shares public ones', async () => {
    const cache = new ResponseCache();
    const privateCounts: Record<string, number> = {};
    const alice = await harness({
      server: countingServer(60_000, 'private', privateCounts),
      client: { cache, authContextKey: 'alice' },
    });
    const bobCounts: Record<string, number> = {};
    const bob = await harness({
      server: countingServer(60_000, 'private', bobCounts),
      client: { cache, authContextKey: 'bob' },
    });
    expect((await alice.client.listTools()).tools[0]!.name).toBe('tool-1');
    await alice.client.listTools();
    expect(privateCounts['tools/list']).toBe(1);
    await bob.client.listTools();
    expect(bobCounts['tools/list']).toBe(1);

    // One client whose auth context changes (token refresh to another user): private entries do not follow.
    let user = 'carol';
    const switchingCounts: Record<string, number> = {};
    const switching = await harness({
      server: countingServer(60_000, 'private', switchingCounts),
      client: { authContextKey: () => user },
    });
    await switching.client.listTools();
    user = 'dave';
    await switching.client.listTools();
    expect(switchingCounts['tools/list']).toBe(2);
    user = 'carol';
    await switching.client.listTools();
    expect(switchingCounts['tools/list']).toBe(2);

    const publicCache = new ResponseCache();
    const publicCounts: Record<string, number> = {};
    const first = await harness({
      server: countingServer(60_000, 'public', publicCounts),
      client: { cache: publicCache, authContextKey: 'alice' },
    });
    const second = await harness({
      server: countingServer(60_000, 'public', publicCounts),
      client: { cache: publicCache, authContextKey: 'bob' },
    });
    await first.client.listResources();
    await second.client.listResources();
    expect(publicCounts['resources/list']).toBe(1);
    for (const client of [alice, bob, switching, first, second]) await client.client.close();
  });

  it('list_changed invalidates the cached list and refreshes lists fetched with listAll*', async () => {
    const counts: Record<string, number> = {};
    const onListRefreshed = vi.fn();
    let serverPeer!: JsonRpcPeer;
    const h = await harness({
      server: (peer) => {
        serverPeer = peer;
        countingServer(60_000, 'public', counts)(peer);
      },
      client: { onListRefreshed, refreshListsOnChange: true },
      connect: { era: 'modern' },
    });
    const subscription = await (async () => {
      serverPeer.setRequestHandler('subscriptions/listen', async (_params, ctx) => {
        await ctx.notify('notifications/subscriptions/acknowledged', {
          _meta: { 'io.modelcontextprotocol/subscriptionId': ctx.requestId },
          notifications: { toolsListChanged: true, resourceSubscriptions: ['file:///a'] },
        });
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
      });
      return h.client.subscribe({ toolsListChanged: true, resources: ['file:///a'] }, () => {});
    })();
    expect((await h.client.listAllTools()).map((tool) => tool.name)).toEqual(['tool-1']);
    await h.client.readResource({ uri: 'file:///a' });
    await h.client.readResource({ uri: 'file:///a' });
    expect(counts['resources/read']).toBe(1);

    await serverPeer.notify('notifications/tools/list_changed', {
      _meta: { 'io.modelcontextprotocol/subscriptionId': subscription.id },
    });
    await until(() => onListRefreshed.mock.calls.length === 1, 'the tools refresh');
    expect(onListRefreshed).toHaveBeenCalledWith('tools', [expect.objectContaining({ name: 'tool-2' })]);
    expect(h.client.lists.tools?.map((tool) => tool.name)).toEqual(['tool-2']);
    expect((await h.client.listTools()).tools[0]!.name).toBe('tool-2');
    expect(counts['tools/list']).toBe(2);

    await serverPeer.notify('notifications/resources/updated', {
      uri: 'file:///a',
      _meta: { 'io.modelcontextprotocol/subscriptionId': subscription.id },
    });
    await until(() =>
      h.received.some((message) => 'method' in message && message.method === 'notifications/resources/updated'),
    );
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await h.client.readResource({ uri: 'file:///a' })).contents[0]).toMatchObject({ text: 'v2' });
    await subscription.close();
    await h.client.close();
    h.checked.assertClean();
  });
});
