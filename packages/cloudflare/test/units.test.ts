import { McpServer } from '@mcpkit/server';
import type { StoredEvent } from '@mcpkit/transport-http';
import { describe, expect, it } from 'vitest';
import { DurableObjectEventStore } from '../src/event-store';
import type { DurableObjectStorageLike } from '../src/platform';
import { publicSessionId, splitSessionId } from '../src/routing';
import { defineMcpSessionObject } from '../src/session-object';
import { DurableObjectSessionStore } from '../src/session-store';

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

  it('keeps its bound across a restart of the object: the stored events count, oldest (by seq) first', async () => {
    const storage = memoryStorage();
    const before = new DurableObjectEventStore(storage, { maxEventsPerSession: 3 });
    await before.append('s1', 'b', event(1));
    await before.append('s1', 'a', event(2));
    const after = new DurableObjectEventStore(storage, { maxEventsPerSession: 3 });
    await after.append('s1', 'c', event(3));
    await after.append('s1', 'c', event(4));
    expect(storage.keys()).toHaveLength(3);
    expect(await after.replayAfter('s1', 'b', 0)).toEqual([]);
    expect((await after.replayAfter('s1', 'a', 0)).map((e) => e.seq)).toEqual([2]);
  });

  it('refuses a bound below one', () => {
    expect(() => new DurableObjectEventStore(memoryStorage(), { maxEventsPerSession: 0 })).toThrow(RangeError);
  });
});

describe('DurableObjectSessionStore', () => {
  const record = (sessionId: string) => ({
    sessionId,
    principal: null,
    protocolVersion: '2025-11-25',
    clientCapabilities: { sampling: {} },
    clientInfo: { name: 'c', version: '1' },
    resourceSubscriptions: [],
    initialized: false,
    home: 'i1',
    createdAt: 1,
    version: 1,
  });

  it('keeps what a session negotiated and what changed, for the next incarnation of the object', async () => {
    const storage = memoryStorage();
    let now = 1000;
    const first = new DurableObjectSessionStore(storage, { now: () => now });
    await first.create(record('s1'), 60_000);
    expect(
      await first.update('s1', { logLevel: 'info', initialized: true, subscribe: ['a://1', 'a://2'] }, 60_000),
    ).toBe(2);
    expect(await first.update('s1', { unsubscribe: ['a://1'] }, 60_000)).toBe(3);
    expect(await first.touch('s1', 60_000, { id: 'i1.1', requests: [7] })).toBe(3);
    const copy = (await first.get('s1'))!;
    copy.logLevel = 'debug'; // a copy: the handler's changes reach the store only through update
    const second = new DurableObjectSessionStore(storage, { now: () => now });
    expect(await second.get('s1')).toMatchObject({
      protocolVersion: '2025-11-25',
      clientCapabilities: { sampling: {} },
      clientInfo: { name: 'c', version: '1' },
      logLevel: 'info',
      initialized: true,
      resourceSubscriptions: ['a://2'],
      version: 3,
    });
    expect(await second.streamRequests('s1', 'i1.1')).toEqual([7]);
    expect(await second.claimHome('s1', 'i1', 'i2')).toBe('i2');
    expect(await second.claimHome('s1', 'i1', 'i3')).toBe('i2');
    expect(await second.expiresAt()).toBe(61_000);
    now += 60_001;
    expect(await second.expiresAt()).toBeUndefined();
    expect(await second.get('s1')).toBeUndefined();
    expect(await second.touch('s1', 60_000)).toBeUndefined();
    expect(storage.keys()).toEqual([]);
  });

  it('extends the expiry on touch, and a deleted session is gone', async () => {
    let now = 0;
    const store = new DurableObjectSessionStore(memoryStorage(), { now: () => now });
    await store.create(record('s1'), 1600);
    now = 1000;
    expect(await store.touch('s1', 1600)).toBe(1);
    now = 2000;
    expect(await store.get('s1')).toBeDefined();
    await store.delete('s1');
    expect(await store.get('s1')).toBeUndefined();
  });
});

describe('defineMcpSessionObject', () => {
  it('keeps no handler (nor its timers, which would keep the object in memory) once it holds no session', async () => {
    let built = 0;
    const SessionObject = defineMcpSessionObject({
      server: () => {
        built += 1;
        return new McpServer({ name: 'unit', version: '1.0.0' });
      },
    });
    const object = new SessionObject(
      { id: { toString: () => 'o' }, storage: memoryStorage(), blockConcurrencyWhile: (callback) => callback() },
      {},
    );
    const post = (body: unknown, sessionId?: string) =>
      object.fetch(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-11-25',
            ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId }),
          },
          body: JSON.stringify(body),
        }),
      );
    const opened = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    });
    const sessionId = opened.headers.get('mcp-session-id')!;
    await opened.text();
    expect(built).toBe(1);
    expect((await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, sessionId)).status).toBe(200);
    const deleted = await object.fetch(
      new Request('http://127.0.0.1/mcp', { method: 'DELETE', headers: { 'mcp-session-id': sessionId } }),
    );
    expect(deleted.ok).toBe(true);
    // Gone with the session: the next request builds a handler again, answers 404, and lets that one go too.
    expect((await post({ jsonrpc: '2.0', id: 3, method: 'ping' }, sessionId)).status).toBe(404);
    expect(built).toBe(2);
    expect((await post({ jsonrpc: '2.0', id: 4, method: 'ping' }, sessionId)).status).toBe(404);
    expect(built).toBe(3);
  });
});
