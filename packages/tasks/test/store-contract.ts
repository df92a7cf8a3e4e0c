// The contract every store keeps, written as a store's author would: against what `@mcpkit/tasks/store` exports.
import { expect, it } from 'vitest';
import { newTaskId, type TaskRecord, type TaskStore, TaskStoreError } from '../src/store/index';

/** A fresh store on the given clock; `maxTasks` bounds it. */
export type MakeStore = (clock: { now: number }, maxTasks: number) => Promise<TaskStore>;

export function record(overrides: Partial<TaskRecord> = {}): TaskRecord {
  const createdAt = overrides.createdAt ?? 1_000;
  const ttlMs = overrides.ttlMs === undefined ? 60_000 : overrides.ttlMs;
  return {
    taskId: newTaskId(),
    owner: 'alice',
    status: 'working',
    createdAt,
    lastUpdatedAt: createdAt,
    ttlMs,
    expiresAt: ttlMs === null ? null : createdAt + ttlMs,
    pollIntervalMs: 500,
    era: 'modern',
    request: { method: 'tools/call', params: { name: 'job', arguments: { n: 1 } } },
    context: { protocolVersion: '2026-07-28', clientCapabilities: {} },
    ...overrides,
  };
}

const LIMITS = { maxLivePerOwner: 100 };

/** The behaviour every TaskStore must have, run against one implementation. */
export function storeContract(make: MakeStore): void {
  it('creates, reads back the same JSON, and misses unknown ids', async () => {
    const clock = { now: 1_000 };
    const store = await make(clock, 100);
    const task = record({ result: undefined, statusMessage: 'started' });
    await store.create(task, LIMITS);
    expect(await store.get(task.taskId)).toEqual(task);
    expect(await store.get('nope')).toBeUndefined();
    await expect(store.create(task, LIMITS)).rejects.toMatchObject({ code: 'ERR_DUPLICATE_TASK' });
    await store.close();
  });

  it('updates until terminal, then refuses every change (a late result after a cancel is dropped)', async () => {
    const store = await make({ now: 1_000 }, 100);
    const task = record();
    await store.create(task, LIMITS);
    const input = await store.update(task.taskId, {
      status: 'input_required',
      inputRequests: { 'elicit-1': { method: 'elicitation/create', params: { message: 'ok?' } } as never },
    });
    expect(input).toMatchObject({ applied: true, record: { status: 'input_required' } });
    const cleared = await store.update(task.taskId, { status: 'working', inputRequests: undefined });
    expect(cleared.record).not.toHaveProperty('inputRequests');
    await store.update(task.taskId, { status: 'cancelled', statusMessage: 'stop' });
    const late = await store.update(task.taskId, { status: 'completed', result: { content: [] } });
    expect(late).toMatchObject({ applied: false, record: { status: 'cancelled', statusMessage: 'stop' } });
    expect((await store.get(task.taskId))?.status).toBe('cancelled');
    expect(await store.update('nope', { status: 'failed' })).toEqual({ record: undefined, applied: false });
    await store.close();
  });

  it('limits unfinished tasks per owner (finished ones do not count) and the total', async () => {
    const store = await make({ now: 1_000 }, 5);
    const first = record();
    await store.create(first, { maxLivePerOwner: 2 });
    await store.create(record(), { maxLivePerOwner: 2 });
    const refused = store.create(record(), { maxLivePerOwner: 2 });
    await expect(refused).rejects.toBeInstanceOf(TaskStoreError);
    await expect(refused).rejects.toMatchObject({ code: 'ERR_TASK_LIMIT', data: { limit: 2, live: 2 } });
    await store.create(record({ owner: 'bob' }), { maxLivePerOwner: 2 });
    await store.update(first.taskId, { status: 'completed', result: { content: [] } });
    await store.create(record(), { maxLivePerOwner: 2 });
    await store.create(record({ owner: null }), { maxLivePerOwner: 2 });
    await expect(store.create(record({ owner: 'carol' }), LIMITS)).rejects.toMatchObject({ code: 'ERR_STORE_FULL' });
    await store.close();
  });

  it('expires tasks at createdAt + ttl: reads miss them, sweeps delete them, and they free their slot', async () => {
    const clock = { now: 1_000 };
    const store = await make(clock, 2);
    const short = record({ ttlMs: 1_000 });
    const forever = record({ ttlMs: null });
    await store.create(short, LIMITS);
    await store.create(forever, LIMITS);
    clock.now = 1_999;
    expect(await store.get(short.taskId)).toBeDefined();
    clock.now = 2_000;
    expect(await store.get(short.taskId)).toBeUndefined();
    expect((await store.unfinished()).map((task) => task.taskId)).toEqual([forever.taskId]);
    // Full (2 of 2) until the create sweeps the expired one.
    await store.create(record({ createdAt: 2_000 }), LIMITS);
    clock.now = 10_000_000;
    expect(await store.sweep(clock.now)).toBe(1);
    expect(await store.get(forever.taskId)).toBeDefined();
    await store.close();
  });

  it('lists one owner’s tasks oldest first, in pages with opaque cursors', async () => {
    const store = await make({ now: 1_000 }, 100);
    const mine: TaskRecord[] = [];
    for (let index = 0; index < 5; index++) {
      const task = record({ createdAt: 1_000 + index });
      mine.push(task);
      await store.create(task, LIMITS);
      await store.create(record({ owner: 'mallory', createdAt: 1_000 + index }), LIMITS);
    }
    const first = await store.list('alice', { limit: 2 });
    expect(first.tasks.map((task) => task.taskId)).toEqual([mine[0]!.taskId, mine[1]!.taskId]);
    const second = await store.list('alice', { limit: 2, cursor: first.nextCursor });
    expect(second.tasks.map((task) => task.taskId)).toEqual([mine[2]!.taskId, mine[3]!.taskId]);
    const last = await store.list('alice', { limit: 2, cursor: second.nextCursor });
    expect(last.tasks.map((task) => task.taskId)).toEqual([mine[4]!.taskId]);
    expect(last.nextCursor).toBeUndefined();
    expect((await store.list('nobody', { limit: 2 })).tasks).toEqual([]);
    await expect(store.list('alice', { limit: 2, cursor: 'garbage' })).rejects.toMatchObject({
      code: 'ERR_INVALID_CURSOR',
    });
    await store.close();
  });

  it('refuses use after close', async () => {
    const store = await make({ now: 1_000 }, 100);
    await store.close();
    await expect(store.get('x')).rejects.toMatchObject({ code: 'ERR_STORE_CLOSED' });
  });
}
