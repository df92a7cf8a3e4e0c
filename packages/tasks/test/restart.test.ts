import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpServer } from '@mcpkit/server';
import { afterAll, describe, expect, it } from 'vitest';
import { TaskServer } from '../src/index';
import { SqliteTaskStore } from '../src/sqlite/index';
import { connect, gate, LEGACY, type Loose, MODERN } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'mcpkit-tasks-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const user = { auth: { token: 't', clientId: 'demo', subject: 'ada' } };

/** One server process: the same tools every time, on the SQLite file at `path`. */
async function serverProcess(path: string) {
  const store = await SqliteTaskStore.open(path);
  const mcp = new McpServer({ name: 'restartable', version: '1.0.0' });
  const tasks = new TaskServer(mcp, { store, pollIntervalMs: 20, tools: { count: { resumable: true } } });
  const hold = gate();
  const runs = { count: 0 };
  mcp.registerTool('quick', { execution: { taskSupport: 'required' } }, () => ({
    content: [{ type: 'text', text: 'quick result' }],
  }));
  mcp.registerTool('slow', { execution: { taskSupport: 'required' } }, async () => {
    await hold.wait;
    return { content: [{ type: 'text', text: 'slow result' }] };
  });
  mcp.registerTool('count', { execution: { taskSupport: 'required' } }, async (args: Loose) => {
    runs.count++;
    await hold.wait;
    return { content: [{ type: 'text', text: `counted to ${args.to}` }] };
  });
  await tasks.ready;
  return { mcp, tasks, store, hold, runs };
}

describe.each([LEGACY, MODERN])('a server restart on SQLite loses no task (%s)', (version) => {
  it('finished results survive; a running task reads failed, saying why; a resumable one runs again', async () => {
    const path = join(dir, `${version}.db`);
    const before = await serverProcess(path);
    const first = await connect(before.mcp, version, { info: user });
    const quick = await first.tasks.callToolAsTask({ name: 'quick', arguments: {} });
    expect((await quick.wait()).content).toEqual([{ type: 'text', text: 'quick result' }]);
    const slow = await first.tasks.callToolAsTask({ name: 'slow', arguments: {} });
    const count = await first.tasks.callToolAsTask({ name: 'count', arguments: { to: 3 } });
    expect(before.runs.count).toBe(1);
    // The process dies: nothing more reaches the file (its handlers never finish).
    first.wire.assertClean();
    await first.close();
    await before.store.close();

    const after = await serverProcess(path);
    after.hold.open();
    const second = await connect(after.mcp, version, { info: user });
    const again = (taskId: string) => second.tasks.task(taskId);
    expect((await again(quick.taskId).wait()).content).toEqual([{ type: 'text', text: 'quick result' }]);
    const lost = await again(slow.taskId).status();
    expect(lost.status).toBe('failed');
    expect(lost.statusMessage).toMatch(/server restarted while this task was running/);
    await expect(again(slow.taskId).wait()).rejects.toMatchObject({ data: { reason: 'server_restarted' } });
    expect((await again(count.taskId).wait()).content).toEqual([{ type: 'text', text: 'counted to 3' }]);
    expect(after.runs.count).toBe(1);
    second.wire.assertClean();
    await second.close();
    await after.store.close();
  });
});
