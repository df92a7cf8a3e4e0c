import { afterEach, describe, expect, it } from 'vitest';
import { type Connected, connect, LEGACY, type Loose, MODERN, sleep, taskServer } from './helpers';

const open: Connected[] = [];
afterEach(async () => {
  for (const connection of open.splice(0)) {
    connection.wire.assertClean();
    await connection.close();
  }
});

async function start(version: string, options: Parameters<typeof taskServer>[0] = {}) {
  const server = taskServer(options);
  const connection = await connect(server.mcp, version);
  open.push(connection);
  return { ...server, ...connection };
}

describe.each([LEGACY, MODERN])('the same client code against a %s server', (version) => {
  it('runs a tool as a task: handle, status, progress / status message, result', async () => {
    const { tasks, release, client } = await start(version);
    const progress: unknown[] = [];
    const statuses: string[] = [];
    const task = await tasks.callToolAsTask({ name: 'job', arguments: {} }, { onProgress: (p) => progress.push(p) });
    expect(task.immediate).toBe(false);
    expect(task.taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    task.onStatus((info) => statuses.push(`${info.status}${info.statusMessage ? `:${info.statusMessage}` : ''}`));
    await sleep(30);
    const working = await task.status();
    expect(working.status).toBe('working');
    expect(working.statusMessage).toBe('halfway');
    expect(working.ttlMs).toBeGreaterThan(0);
    expect(working.pollIntervalMs).toBe(20);
    release.current.open();
    const result = await task.wait();
    expect(result.content).toEqual([{ type: 'text', text: 'job done (task true)' }]);
    expect(statuses.at(-1)).toMatch(/^completed/);
    if (version === LEGACY) {
      // Progress for the whole life of the task, after tools/call was answered.
      expect(progress).toEqual([
        { progress: 1, total: 2, message: 'started' },
        { progress: 2, total: 2, message: 'done' },
      ]);
      expect(client.era).toBe('legacy');
    } else {
      expect(client.era).toBe('modern');
    }
  });

  it('answers the task’s elicitation with the client’s own handler, then completes', async () => {
    const { tasks } = await start(version);
    const task = await tasks.callToolAsTask({ name: 'ask', arguments: {} });
    expect((await task.wait()).content).toEqual([{ type: 'text', text: 'hello Ada' }]);
  });

  it('cancels: the handler’s signal aborts, the task reads cancelled, wait() says so', async () => {
    const { tasks, release, seen } = await start(version);
    const task = await tasks.callToolAsTask({ name: 'job', arguments: {} });
    // Already waiting when the task is cancelled (2025-11-25: a blocked tasks/result that the server fails).
    const waiting = task.result().catch((error: unknown) => error);
    await sleep(20);
    await task.cancel();
    expect(await waiting).toMatchObject({ name: 'TaskClientError', code: 'ERR_TASK_CANCELLED' });
    expect((await task.status()).status).toBe('cancelled');
    release.current.open();
    await sleep(20);
    expect(seen.aborted).toBe(1);
    // The error packages/tasks/README.md promises, in both eras (2025-11-25 used to give a JsonRpcError -32603).
    await expect(task.wait()).rejects.toMatchObject({ name: 'TaskClientError', code: 'ERR_TASK_CANCELLED' });
    await expect(task.result()).rejects.toMatchObject({ name: 'TaskClientError', code: 'ERR_TASK_CANCELLED' });
    expect((await task.status()).status).toBe('cancelled');
  });

  it('a tool error and a protocol error each end the task the era’s way', async () => {
    const { tasks } = await start(version);
    const oops = await tasks.callToolAsTask({ name: 'oops', arguments: {} });
    expect(await oops.wait()).toMatchObject({ isError: true, content: [{ text: 'it broke' }] });
    expect((await oops.status()).status).toBe(version === LEGACY ? 'failed' : 'completed');
    const boom = await tasks.callToolAsTask({ name: 'boom', arguments: {} });
    await expect(boom.wait()).rejects.toMatchObject({ code: -32603, message: 'boom happened' });
    expect((await boom.status()).status).toBe('failed');
  });

  it('a forbidden tool runs inline: the handle holds the result at once', async () => {
    const { tasks } = await start(version);
    const handle = await tasks.callToolAsTask({ name: 'never', arguments: {} });
    expect(handle.immediate).toBe(true);
    expect(await handle.wait()).toMatchObject({ content: [{ text: 'inline' }] });
  });

  it('client.callTool gets the plain result: inline in 2025-11-25, a task driven to its end in 2026-07-28', async () => {
    const { client, release } = await start(version);
    release.current.open();
    const result = await client.callTool({ name: 'job', arguments: {} });
    // 2025-11-25 runs a call without params.task inline; a 2026-07-28 server may make any call a task, and the
    // client (TasksClient installed) polls it to its end, so the caller's code does not change.
    const asTask = version === MODERN;
    expect(result.content).toEqual([{ type: 'text', text: `job done (task ${asTask})` }]);
  });

  it('finds a task again by id (a restarted client)', async () => {
    const { tasks, release } = await start(version);
    const started = await tasks.callToolAsTask({ name: 'job', arguments: {} });
    started.release();
    const again = tasks.task(started.taskId);
    release.current.open();
    expect((await again.wait()).content).toEqual([{ type: 'text', text: 'job done (task true)' }]);
  });

  it('wait() listens: a status notification ends the wait long before the next poll would', async () => {
    const { tasks, release } = await start(version, { pollIntervalMs: 5_000 });
    const task = await tasks.callToolAsTask({ name: 'job', arguments: {} });
    const started = Date.now();
    const waiting = task.wait();
    setTimeout(() => release.current.open(), 100);
    expect((await waiting).content).toEqual([{ type: 'text', text: 'job done (task true)' }]);
    // 2025-11-25: notifications/tasks/status to the session; 2026-07-28: notifications/tasks on a listen stream.
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('unknown ids are -32602', async () => {
    const { tasks } = await start(version);
    await expect(tasks.task('no-such-task').status()).rejects.toMatchObject({ code: -32602 });
  });
});

describe('what differs between the eras', () => {
  it('2025-11-25 lists tasks in pages; 2026-07-28 has no tasks/list', async () => {
    const legacy = await start(LEGACY, { listPageSize: 2 });
    legacy.release.current.open();
    for (let index = 0; index < 3; index++)
      await (await legacy.tasks.callToolAsTask({ name: 'must', arguments: {} })).wait();
    const first = await legacy.tasks.list();
    expect(first.tasks).toHaveLength(2);
    const second = await legacy.tasks.list({ cursor: first.nextCursor });
    expect(second.tasks).toHaveLength(1);
    expect(second.nextCursor).toBeUndefined();
    const modern = await start(MODERN);
    await expect(modern.tasks.list()).rejects.toMatchObject({ code: 'ERR_NOT_IN_REVISION' });
  });

  it('2026-07-28 pushes notifications/tasks on a listen stream that asked for the task', async () => {
    const { tasks, client, release } = await start(MODERN);
    const task = await tasks.callToolAsTask({ name: 'job', arguments: {} });
    const pushed: Loose[] = [];
    client.setNotificationHandler('notifications/tasks', (params) => void pushed.push(params as Loose));
    const subscription = await client.subscribe({ taskIds: [task.taskId] }, () => undefined);
    expect(subscription.honoured).toEqual({ taskIds: [task.taskId] });
    release.current.open();
    await sleep(50);
    await subscription.close();
    const completed = pushed.find((params) => params.status === 'completed');
    expect(completed).toMatchObject({ taskId: task.taskId, result: { content: [{ text: 'job done (task true)' }] } });
    expect(completed?._meta?.['io.modelcontextprotocol/subscriptionId']).toBe(subscription.id);
  });

  it('2025-11-25 sends notifications/tasks/status to the session that created the task', async () => {
    const { tasks, client, release } = await start(LEGACY);
    const pushed: Loose[] = [];
    const task = await tasks.callToolAsTask({ name: 'job', arguments: {} });
    client.setNotificationHandler('notifications/tasks/status', (params) => void pushed.push(params as Loose));
    release.current.open();
    await task.wait();
    await sleep(20);
    expect(pushed.map((params) => params.status)).toContain('completed');
    expect(pushed[0]).toMatchObject({ taskId: task.taskId, ttl: expect.any(Number) });
  });
});
