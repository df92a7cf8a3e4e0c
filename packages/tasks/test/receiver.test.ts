import { McpServer, type ServerSession } from '@mcpkit/server';
import { afterEach, describe, expect, it } from 'vitest';
import { type Connected, connect, gate, LEGACY, type Loose } from './helpers';

const open: Connected[] = [];
afterEach(async () => {
  for (const connection of open.splice(0)) {
    connection.wire.assertClean();
    await connection.close();
  }
});

/** A 2025-11-25 server that hands out its session, to send the client task-augmented requests from the test. */
async function setup() {
  const mcp = new McpServer({ name: 'requestor', version: '1.0.0' });
  let session: ServerSession | undefined;
  mcp.registerTool('hello', {}, (_args, ctx) => {
    session = ctx.session;
    return { content: [{ type: 'text', text: 'hi' }] };
  });
  const answer = gate();
  const seen: { signal?: AbortSignal } = {};
  const connection = await connect(mcp, LEGACY, {
    client: {
      handlers: {
        sampling: async (_params, context) => {
          seen.signal = context.signal;
          await answer.wait;
          return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'a poem' } };
        },
        elicitation: async () => ({ action: 'accept', content: { ok: true } }),
      },
    },
  });
  open.push(connection);
  await connection.client.callTool({ name: 'hello', arguments: {} });
  return { session: session!, answer, seen, connection };
}

const SAMPLE = { messages: [{ role: 'user', content: { type: 'text', text: 'Write a poem' } }], maxTokens: 10 };

describe('the client as task receiver (2025-11-25 task-augmented sampling and elicitation)', () => {
  it('declares capabilities.tasks for the handlers it has', async () => {
    const { connection } = await setup();
    expect(connection.client.capabilities.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { sampling: { createMessage: {} }, elicitation: { create: {} } },
    });
  });

  it('answers with a task at once, runs its handler detached, serves tasks/get, tasks/list, tasks/result', async () => {
    const { session, answer } = await setup();
    const created = await session.request<Loose>('sampling/createMessage', { ...SAMPLE, task: { ttl: 60_000 } });
    const taskId = created.task.taskId;
    expect(created.task).toMatchObject({ status: 'working', ttl: 60_000 });
    expect(await session.request<Loose>('tasks/get', { taskId })).toMatchObject({ taskId, status: 'working' });
    expect((await session.request<Loose>('tasks/list', {})).tasks.map((task: Loose) => task.taskId)).toEqual([taskId]);
    const result = session.request<Loose>('tasks/result', { taskId });
    answer.open();
    expect(await result).toMatchObject({
      model: 'test-model',
      content: { text: 'a poem' },
      _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
    });
    expect((await session.request<Loose>('tasks/get', { taskId })).status).toBe('completed');
    await expect(session.request('tasks/get', { taskId: 'nope' })).rejects.toMatchObject({ code: -32602 });
  });

  it('tasks/cancel aborts the handler’s signal; a terminal task cannot be cancelled (-32602)', async () => {
    const { session, seen } = await setup();
    const created = await session.request<Loose>('sampling/createMessage', { ...SAMPLE, task: {} });
    const taskId = created.task.taskId;
    expect(await session.request<Loose>('tasks/cancel', { taskId })).toMatchObject({ status: 'cancelled' });
    expect(seen.signal?.aborted).toBe(true);
    await expect(session.request('tasks/cancel', { taskId })).rejects.toMatchObject({ code: -32602 });
    await expect(session.request('tasks/result', { taskId })).rejects.toMatchObject({ code: -32603 });
  });

  it('a request without params.task is answered inline as before', async () => {
    const { session, answer } = await setup();
    answer.open();
    expect(
      await session.request<Loose>('elicitation/create', {
        message: 'ok?',
        requestedSchema: { type: 'object', properties: {} },
      }),
    ).toEqual({
      action: 'accept',
      content: { ok: true },
    });
  });
});
