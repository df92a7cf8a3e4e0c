import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { record, storeContract } from '../../tasks/test/store-contract';
import type { DurableObjectNamespaceLike, DurableObjectStorageLike, SqlStorageLike } from '../src/platform';
import { defineMcpTaskObject, TaskObjectStore } from '../src/task-object';
import { DurableObjectTaskStore } from '../src/task-store';

// DurableObjectTaskStore against the TaskStore contract every store passes, on SQLite through an adapter with the
// shape of a Durable Object's `storage.sql` (exec with positional bindings, a cursor with toArray and rowsWritten).
// apps/edge runs it in workerd, on a real Durable Object, across a restart.

function sqlStorage(): DurableObjectStorageLike {
  const db = new Database(':memory:');
  const sql: SqlStorageLike = {
    exec(query, ...bindings) {
      const statement = db.prepare(query);
      if (statement.reader) {
        const rows = statement.all(...bindings) as never[];
        return Object.assign(rows[Symbol.iterator](), { toArray: () => rows, rowsWritten: 0 }) as never;
      }
      const outcome = statement.run(...bindings);
      return Object.assign([][Symbol.iterator](), { toArray: () => [], rowsWritten: outcome.changes }) as never;
    },
  };
  // The key-value part the task object keeps leases in (an ordered Map is enough for prefix lists).
  const data = new Map<string, unknown>();
  return {
    sql,
    async put(entries: Record<string, unknown>) {
      for (const [key, value] of Object.entries(entries)) data.set(key, value);
    },
    async delete(keys: string[]) {
      for (const key of keys) data.delete(key);
      return keys.length;
    },
    async list(options: { prefix?: string } = {}) {
      return new Map([...data].filter(([key]) => key.startsWith(options.prefix ?? '')).sort());
    },
  } as unknown as DurableObjectStorageLike;
}

describe('DurableObjectTaskStore', () => {
  storeContract(
    async (clock, maxTasks) => new DurableObjectTaskStore(sqlStorage(), { maxTasks, now: () => clock.now }),
  );

  it('needs a SQLite-backed object, and says so', () => {
    expect(() => new DurableObjectTaskStore({} as DurableObjectStorageLike)).toThrow(/new_sqlite_classes/);
  });
});

describe('TaskObjectStore: recovery across isolates', () => {
  it('hands out only orphans (their isolate stopped renewing its lease), each to one caller', async () => {
    const clock = { now: 1_000_000 };
    const TaskObject = defineMcpTaskObject({ now: () => clock.now });
    const object = new TaskObject(
      {
        id: { toString: () => 'tasks' },
        storage: sqlStorage(),
        blockConcurrencyWhile: (callback) => callback(),
      },
      {},
    );
    const namespace = {
      idFromName: () => ({ toString: () => 'tasks' }),
      get: () => ({ fetch: (request: Request) => object.fetch(request) }),
    } as unknown as DurableObjectNamespaceLike;
    // Two isolates: a runs a task for its TaskServer instance 'ia'; b starts later.
    const a = new TaskObjectStore(namespace, { leaseMs: 1000 });
    const b = new TaskObjectStore(namespace, { leaseMs: 1000 });
    await a.create(record({ taskId: 't1', status: 'working', instance: 'ia', createdAt: clock.now }), {
      maxLivePerOwner: 10,
    });
    expect(await b.unfinished()).toEqual([]); // a holds it
    clock.now += 900;
    await a.get('t1'); // any call of a renews its lease
    clock.now += 900;
    expect(await b.unfinished()).toEqual([]);
    // a is gone (it calls no more): a lease later, t1 is an orphan, handed to the first caller only.
    clock.now += 1001;
    expect((await b.unfinished()).map((task) => task.taskId)).toEqual(['t1']);
    expect(await new TaskObjectStore(namespace, { leaseMs: 1000 }).unfinished()).toEqual([]);
    // b holds it until it resumes it (update naming its instance) or its claim runs out.
    let settled = false;
    const waiting = b.settled().then(() => {
      settled = true;
    });
    await b.update('t1', { status: 'working', instance: 'ib', lastUpdatedAt: clock.now });
    clock.now += 1500;
    await b.get('t1');
    expect(await a.unfinished()).toEqual([]);
    expect(settled).toBe(false);
    await b.update('t1', { status: 'completed', result: { content: [] }, lastUpdatedAt: clock.now });
    await waiting;
    await a.close();
    await b.close();
  });
});
