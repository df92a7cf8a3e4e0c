import { describe, expect, it } from 'vitest';
import { InMemoryOAuthProxyStore } from './store';

describe('InMemoryOAuthProxyStore', () => {
  it('expires entries after their ttl', async () => {
    let now = 1_000;
    const store = new InMemoryOAuthProxyStore({ now: () => now });
    await store.set('code:a', { v: 1 }, 60);
    await store.set('client:b', { v: 2 });
    now += 59_999;
    expect(await store.get('code:a')).toEqual({ v: 1 });
    now += 1;
    expect(await store.get('code:a')).toBeUndefined();
    now += 10 ** 12;
    expect(await store.get('client:b')).toEqual({ v: 2 });
  });

  it('gives a value to one take only', async () => {
    const store = new InMemoryOAuthProxyStore();
    await store.set('refresh:x', { grant: 1 }, 60);
    const [first, second] = await Promise.all([store.take('refresh:x'), store.take('refresh:x')]);
    expect([first, second]).toEqual([{ grant: 1 }, undefined]);
  });

  it('stays within maxEntries, dropping expired entries first, then the oldest', async () => {
    let now = 0;
    const store = new InMemoryOAuthProxyStore({ maxEntries: 3, now: () => now });
    await store.set('a', { n: 1 });
    await store.set('b', { n: 2 }, 1);
    await store.set('c', { n: 3 });
    now = 2_000; // b has expired
    await store.set('d', { n: 4 });
    expect(store.size).toBe(3);
    expect(await store.get('a')).toEqual({ n: 1 });
    await store.set('e', { n: 5 });
    expect(store.size).toBe(3);
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('e')).toEqual({ n: 5 });
  });
});
