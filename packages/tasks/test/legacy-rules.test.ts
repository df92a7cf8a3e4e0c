import { TASKS_EXTENSION_ID } from '@mcpkit/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { type Connected, connect, LEGACY, type Loose, sleep, taskServer } from './helpers';

const open: Connected[] = [];
afterEach(async () => {
  for (const connection of open.splice(0)) {
    connection.wire.assertClean();
    await connection.close();
  }
});

async function session(mcp: ReturnType<typeof taskServer>['mcp'], version = LEGACY) {
  const connection = await connect(mcp, version, { client: { enforceServerCapabilities: false } });
  open.push(connection);
  return connection;
}

async function refused(promise: Promise<unknown>): Promise<Loose> {
  try {
    await promise;
  } catch (error) {
    return error as Loose;
  }
  throw new Error('expected the request to fail');
}

describe('2025-11-25: task-augmented tools/call and the tasks capability', () => {
  it('declares capabilities.tasks in initialize, not the 2026 extension; lists execution.taskSupport', async () => {
    const { mcp } = taskServer();
    const { client } = await session(mcp);
    expect(client.serverCapabilities?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    expect((client.serverCapabilities as Loose).extensions?.[TASKS_EXTENSION_ID]).toBeUndefined();
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'must')?.execution).toEqual({ taskSupport: 'required' });
    expect(tools.find((tool) => tool.name === 'plain')).not.toHaveProperty('execution');
  });

  it('taskSupport: forbidden with params.task and required without are -32601; older revisions cannot run required', async () => {
    const { mcp } = taskServer();
    const { client } = await session(mcp);
    const forbidden = await refused(client.request('tools/call', { name: 'never', arguments: {}, task: {} }));
    expect(forbidden).toMatchObject({
      code: -32601,
      message: expect.stringMatching(/does not support task-augmented/),
    });
    const required = await refused(client.request('tools/call', { name: 'must', arguments: {} }));
    expect(required).toMatchObject({ code: -32601, message: expect.stringMatching(/call it with params.task/) });
    const old = await session(mcp, '2025-06-18');
    expect(await refused(old.client.request('tools/call', { name: 'must', arguments: {} }))).toMatchObject({
      code: -32601,
    });
    // And optional tools run inline there, the task param ignored.
    expect(await old.client.request('tools/call', { name: 'plain', arguments: {} })).toMatchObject({
      content: [{ text: 'plain' }],
    });
  });

  it('ttl: granted within policy (cut to maxTtlMs), malformed is -32602', async () => {
    const { mcp } = taskServer({ maxTtlMs: 10_000 });
    const { client } = await session(mcp);
    const long = await client.request<Loose>('tools/call', { name: 'must', arguments: {}, task: { ttl: 86_400_000 } });
    expect(long.task.ttl).toBe(10_000);
    const short = await client.request<Loose>('tools/call', { name: 'must', arguments: {}, task: { ttl: 3_000 } });
    expect(short.task.ttl).toBe(3_000);
    // Malformed on purpose (the wire check would flag the requests themselves): a connection not checked.
    const unchecked = await connect(mcp, LEGACY, { client: { enforceServerCapabilities: false } });
    for (const ttl of [-1, 1.5, 'soon']) {
      const error = await refused(
        unchecked.client.request('tools/call', { name: 'must', arguments: {}, task: { ttl } }),
      );
      expect(error).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/ttl must be a non-negative integer/),
      });
    }
    await unchecked.close();
  });

  it('cancel of a terminal task is -32602; of a running one returns it cancelled', async () => {
    const { mcp } = taskServer();
    const { client } = await session(mcp);
    const done = await client.request<Loose>('tools/call', { name: 'must', arguments: {}, task: {} });
    await client.request('tasks/result', { taskId: done.task.taskId });
    const terminal = await refused(client.request('tasks/cancel', { taskId: done.task.taskId }));
    expect(terminal).toMatchObject({
      code: -32602,
      message: "Cannot cancel task: already in terminal status 'completed'",
    });
    const running = await client.request<Loose>('tools/call', { name: 'job', arguments: {}, task: {} });
    const cancelled = await client.request<Loose>('tasks/cancel', { taskId: running.task.taskId });
    expect(cancelled).toMatchObject({ taskId: running.task.taskId, status: 'cancelled' });
  });

  it('tasks/result returns exactly the underlying result (related-task _meta added) or its JSON-RPC error', async () => {
    const { mcp } = taskServer();
    const { client } = await session(mcp);
    const ok = await client.request<Loose>('tools/call', { name: 'must', arguments: {}, task: {} });
    expect(await client.request('tasks/result', { taskId: ok.task.taskId })).toEqual({
      content: [{ type: 'text', text: 'must done' }],
      _meta: { 'io.modelcontextprotocol/related-task': { taskId: ok.task.taskId } },
    });
    const boom = await client.request<Loose>('tools/call', { name: 'boom', arguments: {}, task: {} });
    expect(await refused(client.request('tasks/result', { taskId: boom.task.taskId }))).toMatchObject({
      code: -32603,
      message: 'boom happened',
      data: { why: 'test' },
    });
  });

  it('another session gets not found for get, result, cancel, and lists none of it', async () => {
    const { mcp } = taskServer();
    const alice = await session(mcp);
    const mallory = await session(mcp);
    const created = await alice.client.request<Loose>('tools/call', { name: 'job', arguments: {}, task: {} });
    const taskId = created.task.taskId;
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      expect(await refused(mallory.client.request(method, { taskId })), method).toMatchObject({ code: -32602 });
    }
    expect((await mallory.client.request<Loose>('tasks/list', {})).tasks).toEqual([]);
    expect((await alice.client.request<Loose>('tasks/list', {})).tasks.map((task: Loose) => task.taskId)).toEqual([
      taskId,
    ]);
    expect((await alice.client.request<Loose>('tasks/get', { taskId })).status).toBe('working');
    expect(await refused(alice.client.request('tasks/list', { cursor: '!!' }))).toMatchObject({ code: -32602 });
  });

  it('input_required: the elicitation goes out on the tasks/result stream with related-task _meta', async () => {
    const { mcp } = taskServer();
    const asked: Loose[] = [];
    const connection = await connect(mcp, LEGACY, {
      client: {
        handlers: {
          elicitation: async (params) => {
            asked.push(params as Loose);
            return { action: 'accept', content: { name: 'Grace' } };
          },
        },
      },
    });
    open.push(connection);
    const created = await connection.client.request<Loose>('tools/call', { name: 'ask', arguments: {}, task: {} });
    const taskId = created.task.taskId;
    for (let round = 0; round < 100; round++) {
      if ((await connection.client.request<Loose>('tasks/get', { taskId })).status === 'input_required') break;
      await sleep(5);
    }
    expect(asked).toEqual([]);
    const result = await connection.client.request<Loose>('tasks/result', { taskId });
    expect(result.content[0].text).toBe('hello Grace');
    expect(asked[0]?._meta?.['io.modelcontextprotocol/related-task']).toEqual({ taskId });
  });
});
