import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteDatabase, SqliteTaskStore } from '../src/sqlite/index';
import { record, storeContract } from './store-contract';

const dir = mkdtempSync(join(tmpdir(), 'mcpkit-tasks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

// Whichever driver this Node has: node:sqlite on Node >= 22.13, better-sqlite3 (built for the workspace's Node 20)
// on Node 20. The other cannot load here, and `open` says so (tested below).
const nodeHasSqlite =
  Number(process.versions.node.split('.')[0]) >= 23 || /^22\.(1[3-9]|[2-9]\d)/.test(process.versions.node);

describe(`SqliteTaskStore (${nodeHasSqlite ? 'node:sqlite' : 'better-sqlite3'})`, () => {
  storeContract((clock, maxTasks) =>
    SqliteTaskStore.open(join(dir, `contract-${files++}.db`), { maxTasks, now: () => clock.now, sweepIntervalMs: 0 }),
  );

  it('opens with the driver this Node has', async () => {
    const store = await SqliteTaskStore.open(join(dir, `driver-${files++}.db`));
    expect(store.driver).toBe(nodeHasSqlite ? 'node:sqlite' : 'better-sqlite3');
    await store.close();
  });

  it('keeps every task across a close and reopen of the file (a server restart)', async () => {
    const path = join(dir, `restart-${files++}.db`);
    const clock = { now: 1_000 };
    const before = await SqliteTaskStore.open(path, { now: () => clock.now, sweepIntervalMs: 0 });
    const done = record({ status: 'working' });
    const running = record({ status: 'working' });
    await before.create(done, { maxLivePerOwner: 10 });
    await before.create(running, { maxLivePerOwner: 10 });
    await before.update(done.taskId, { status: 'completed', result: { content: [{ type: 'text', text: 'hi' }] } });
    await before.close();
    const after = await SqliteTaskStore.open(path, { now: () => clock.now, sweepIntervalMs: 0 });
    expect(await after.get(done.taskId)).toMatchObject({ status: 'completed', result: { content: [{ text: 'hi' }] } });
    expect((await after.unfinished()).map((task) => task.taskId)).toEqual([running.taskId]);
    await after.close();
  });

  it('takes an open handle of either driver and leaves it open on close', async () => {
    const { db } = await openSqliteDatabase(join(dir, `handle-${files++}.db`));
    const store = new SqliteTaskStore(db, { table: 'my_tasks', sweepIntervalMs: 0 });
    const task = record({ createdAt: Date.now(), ttlMs: 60_000, expiresAt: Date.now() + 60_000 });
    await store.create(task, { maxLivePerOwner: 1 });
    await store.close();
    expect(db.prepare('SELECT COUNT(*) AS n FROM my_tasks').get()).toMatchObject({ n: 1 });
    db.close();
    expect(() => new SqliteTaskStore(db, { table: 'x; DROP TABLE y' })).toThrow(RangeError);
  });

  // Node 20 has no node:sqlite (on Node >= 22.13 both drivers may load, so there is nothing to refuse).
  it.skipIf(nodeHasSqlite)('names the driver that cannot load here', async () => {
    await expect(openSqliteDatabase(join(dir, 'x.db'), 'node:sqlite')).rejects.toThrow(
      /node:sqlite could not be loaded/,
    );
  });
});
