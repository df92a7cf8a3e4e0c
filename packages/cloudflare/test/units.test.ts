import type { StoredEvent } from '@mcpkit/transport-http';
import { describe, expect, it } from 'vitest';
import { DurableObjectEventStore } from '../src/event-store';
import type { DurableObjectStorageLike } from '../src/platform';
import { publicSessionId, splitSessionId } from '../src/routing';

// The parts of the package that need no workerd; apps/edge runs the rest in workerd (miniflare).

/** The key-value part of a Durable Object's storage, in a sorted Map (what `list` returns is ordered by key). */
function memoryStorage(): DurableObjectStorageLike & { keys(): string[] } {
  const data = new Map<string, unknown>();
  const sorted = () => [...data.keys()].sort();
  return {
    keys: sorted,
    async get<T>(key: string) {
      return data.get(key) as T | undefined;
    },
    async put(key: string | Record<string, unknown>, value?: unknown) {
      if (typeof key === 'string') data.set(key, value);
      else for (const [k, v] of Object.entries(key)) data.set(k, v);
    },
    async delete(keys: string[]) {
      let count = 0;
      for (const key of keys) if (data.delete(key)) count += 1;
      return count;
    },
    async list<T>(options: { prefix?: string; start?: string; limit?: number } = {}) {
      const found = new Map<string, T>();
      for (const key of sorted()) {
        if (options.prefix !== undefined && !key.startsWith(options.prefix)) continue;
        if (options.start !== undefined && key < options.start) continue;
        if (options.limit !== undefined && found.size >= options.limit) break;
        found.set(key, data.get(key) as T);
      }
      return found;
    },
    async deleteAll() {
      data.clear();
    },
    async setAlarm() {},
    async deleteAlarm() {},
  } as DurableObjectStorageLike & { keys(): string[] };
}

function event(seq: number, previousSeq = seq - 1): StoredEvent {
  return { id: `s-${seq.toString(36)}`, seq, previousSeq, data: `{"n":${seq}}` };
}

describe('session ids', () => {
  it('round-trips the object id and the session id, and refuses anything else', () => {
    const objectId = 'a'.repeat(64);
    expect(splitSessionId(publicSessionId(objectId, 'Abc_-123'))).toEqual({ objectId, sessionId: 'Abc_-123' });
    for (const bad of [
      '',
      'Abc',
      `${'a'.repeat(63)}.x`,
      `${'A'.repeat(64)}.x`,
      `${'a'.repeat(64)}.`,
      `${'g'.repeat(64)}.x`,
    ]) {
      expect(splitSessionId(bad), bad).toBeUndefined();
    }
  });
});

describe('DurableObjectEventStore', () => {
  it('replays a stream after a seq, in seq order, past base-36 width changes', async () => {
    const store = new DurableObjectEventStore(memoryStorage());
    for (const seq of [1, 2, 35, 36, 37, 1296]) await store.append('s1', 'get', event(seq));
    await store.append('s1', 'post-1', event(2000));
    const replay = await store.replayAfter('s1', 'get', 2);
    expect(replay.map((e) => e.seq)).toEqual([35, 36, 37, 1296]);
    expect(await store.replayAfter('s1', 'post-1', 0)).toEqual([event(2000)]);
  });

  it('keeps at most maxEventsPerSession events, dropping the oldest', async () => {
    const storage = memoryStorage();
    const store = new DurableObjectEventStore(storage, { maxEventsPerSession: 3 });
    for (let seq = 1; seq <= 5; seq++) await store.append('s1', 'get', event(seq));
    expect((await store.replayAfter('s1', 'get', 0)).map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(storage.keys()).toHaveLength(3);
  });

  it('forgets everything of a session, and only of that session', async () => {
    const storage = memoryStorage();
    const store = new DurableObjectEventStore(storage);
    for (let seq = 1; seq <= 200; seq++) await store.append('s1', `stream-${seq % 3}`, event(seq));
    await store.append('s2', 'get', event(1));
    await store.deleteSession('s1');
    expect(storage.keys()).toHaveLength(1);
    expect(await store.replayAfter('s2', 'get', 0)).toEqual([event(1)]);
  });

  it('refuses a bound below one', () => {
    expect(() => new DurableObjectEventStore(memoryStorage(), { maxEventsPerSession: 0 })).toThrow(RangeError);
  });
});
