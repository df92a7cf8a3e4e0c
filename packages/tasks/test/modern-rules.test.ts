import type { AuthInfo } from '@mcpkit/jsonrpc-core';
import { TASKS_EXTENSION_ID } from '@mcpkit/protocol';
import { describe, expect, it } from 'vitest';
import { InMemoryTaskStore } from '../src/index';
import { type Loose, MODERN, sleep, taskServer } from './helpers';

const WITH_TASKS = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION_ID]: {} } };
let nextId = 1;

/** One stateless 2026-07-28 request through `Server.handle`, as HTTP would run it. */
async function call(
  mcp: ReturnType<typeof taskServer>['mcp'],
  method: string,
  params: Record<string, unknown> = {},
  options: { capabilities?: Record<string, unknown>; auth?: AuthInfo } = {},
): Promise<Loose> {
  const response = (await mcp.handle(
    {
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? WITH_TASKS,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        },
      },
    },
    { info: options.auth === undefined ? {} : { auth: options.auth } },
  )) as Loose;
  return response;
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let round = 0; round < 200; round++) {
    if (await check()) return;
    await sleep(5);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('2026-07-28: the tasks extension’s rules', () => {
  it('advertises the extension in server/discover, not the 2025 capabilities.tasks', async () => {
    const { mcp } = taskServer();
    const { result } = await call(mcp, 'server/discover');
    expect(result.capabilities.extensions[TASKS_EXTENSION_ID]).toEqual({});
    expect(result.capabilities.tasks).toBeUndefined();
  });

  it('answers resultType task only when the request declares the extension; a required tool gets -32021', async () => {
    const { mcp, release } = taskServer();
    release.current.open();
    const created = await call(mcp, 'tools/call', { name: 'job', arguments: {} });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working', pollIntervalMs: 20 });
    expect(created.result).not.toHaveProperty('task');
    expect(created.result).not.toHaveProperty('ttl');
    // tasks/get finds it at once (durably created before the answer).
    expect((await call(mcp, 'tasks/get', { taskId: created.result.taskId })).result.taskId).toBe(created.result.taskId);
    const inline = await call(mcp, 'tools/call', { name: 'job', arguments: {} }, { capabilities: {} });
    expect(inline.result).toMatchObject({ resultType: 'complete', content: [{ text: 'job done (task false)' }] });
    const refused = await call(mcp, 'tools/call', { name: 'must', arguments: {} }, { capabilities: {} });
    expect(refused.error.code).toBe(-32021);
    expect(refused.error.data.requiredCapabilities).toEqual({ extensions: { [TASKS_EXTENSION_ID]: {} } });
  });

  it('ignores a 2025-style task param: a sync tool stays sync', async () => {
    const { mcp } = taskServer();
    const response = await call(mcp, 'tools/call', { name: 'plain', arguments: {}, task: { ttl: 5 } });
    expect(response.result).toMatchObject({ resultType: 'complete', content: [{ text: 'plain' }] });
  });

  it('refuses the tasks methods without the extension (-32021); tasks/result and tasks/list do not exist (-32601)', async () => {
    const { mcp } = taskServer();
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const response = await call(mcp, method, { taskId: 'x', inputResponses: {} }, { capabilities: {} });
      expect(response.error.code, method).toBe(-32021);
    }
    expect((await call(mcp, 'tasks/result', { taskId: 'x' })).error.code).toBe(-32601);
    expect((await call(mcp, 'tasks/list')).error.code).toBe(-32601);
  });

  it('unknown, malformed and other principals’ ids are -32602 on get, update and cancel', async () => {
    const { mcp } = taskServer();
    const alice: AuthInfo = { token: 'a', clientId: 'app', subject: 'alice' };
    const bob: AuthInfo = { token: 'b', clientId: 'app', subject: 'bob' };
    const { result } = await call(mcp, 'tools/call', { name: 'job', arguments: {} }, { auth: alice });
    expect((await call(mcp, 'tasks/get', { taskId: result.taskId }, { auth: alice })).result.status).toBe('working');
    for (const [method, params] of [
      ['tasks/get', { taskId: result.taskId }],
      ['tasks/cancel', { taskId: result.taskId }],
      ['tasks/update', { taskId: result.taskId, inputResponses: {} }],
    ] as const) {
      expect((await call(mcp, method, params, { auth: bob })).error.code, `${method} as bob`).toBe(-32602);
      expect((await call(mcp, method, params)).error.code, `${method} anonymously`).toBe(-32602);
      expect((await call(mcp, method, { ...params, taskId: 'nope' }, { auth: alice })).error.code).toBe(-32602);
    }
    expect((await call(mcp, 'tasks/get', { taskId: 42 })).error.code).toBe(-32602);
    // Bob's cancel did nothing.
    expect((await call(mcp, 'tasks/get', { taskId: result.taskId }, { auth: alice })).result.status).toBe('working');
  });

  it('input_required: inputRequests on tasks/get, partial tasks/update, unknown keys ignored, bad answers -32602', async () => {
    const { mcp } = taskServer();
    mcp.registerTool('two', { execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
      const schema = { type: 'object' as const, properties: {} };
      const [first, second] = await Promise.all([
        ctx.elicit({ message: 'first?', requestedSchema: schema }),
        ctx.elicit({ message: 'second?', requestedSchema: schema }),
      ]);
      return { content: [{ type: 'text', text: `${first.action}+${second.action}` }] };
    });
    const { result } = await call(mcp, 'tools/call', { name: 'two', arguments: {} });
    const taskId = result.taskId;
    let task: Loose = {};
    await until(async () => {
      task = (await call(mcp, 'tasks/get', { taskId })).result;
      return Object.keys(task.inputRequests ?? {}).length === 2;
    }, 'two input requests');
    expect(task.status).toBe('input_required');
    const [first, second] = Object.keys(task.inputRequests);
    expect(task.inputRequests[first!]).toMatchObject({ method: 'elicitation/create', params: { message: 'first?' } });
    expect((await call(mcp, 'tasks/update', { taskId, inputResponses: { [first!]: 12 } })).error.code).toBe(-32602);
    expect((await call(mcp, 'tasks/update', { taskId })).error.code).toBe(-32602);
    const ack = await call(mcp, 'tasks/update', {
      taskId,
      inputResponses: { [first!]: { action: 'accept', content: {} }, 'no-such-key': { action: 'accept' } },
    });
    expect(ack.result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    task = (await call(mcp, 'tasks/get', { taskId })).result;
    expect(task.status).toBe('input_required');
    expect(Object.keys(task.inputRequests)).toEqual([second]);
    await call(mcp, 'tasks/update', { taskId, inputResponses: { [second!]: { action: 'decline' } } });
    await until(async () => (await call(mcp, 'tasks/get', { taskId })).result.status === 'completed', 'completion');
    expect((await call(mcp, 'tasks/get', { taskId })).result.result.content[0].text).toBe('accept+decline');
    // A task that waits for nothing: the answers are ignored, the ack is the same.
    expect(
      (await call(mcp, 'tasks/update', { taskId, inputResponses: { [first!]: { action: 'accept' } } })).result,
    ).toMatchObject({ resultType: 'complete' });
  });

  it('cancel is an idempotent empty ack; the handler’s signal aborts', async () => {
    const { mcp, release, seen } = taskServer();
    const { result } = await call(mcp, 'tools/call', { name: 'job', arguments: {} });
    const ack = await call(mcp, 'tasks/cancel', { taskId: result.taskId });
    expect(Object.keys(ack.result).sort()).toEqual(['_meta', 'resultType']);
    expect((await call(mcp, 'tasks/get', { taskId: result.taskId })).result.status).toBe('cancelled');
    expect((await call(mcp, 'tasks/cancel', { taskId: result.taskId })).result.resultType).toBe('complete');
    release.current.open();
    await sleep(10);
    expect(seen.aborted).toBe(1);
    expect((await call(mcp, 'tasks/get', { taskId: result.taskId })).result.status).toBe('cancelled');
  });

  it('a task expires with its TTL: then -32602', async () => {
    const clock = { now: 1_000_000 };
    const now = () => clock.now;
    const { mcp, release } = taskServer({
      defaultTtlMs: 5_000,
      now,
      store: new InMemoryTaskStore({ now, sweepIntervalMs: 0 }),
    });
    release.current.open();
    const { result } = await call(mcp, 'tools/call', { name: 'job', arguments: {} });
    expect(result.ttlMs).toBe(5_000);
    clock.now += 4_999;
    expect((await call(mcp, 'tasks/get', { taskId: result.taskId })).result.taskId).toBe(result.taskId);
    clock.now += 1;
    expect((await call(mcp, 'tasks/get', { taskId: result.taskId })).error.code).toBe(-32602);
  });

  it('per-requestor cap and a full store: -32600 with the reason; others still get tasks', async () => {
    const { mcp } = taskServer({ maxLiveTasksPerRequestor: 2, store: new InMemoryTaskStore({ maxTasks: 3 }) });
    const alice: AuthInfo = { token: 'a', subject: 'alice' };
    await call(mcp, 'tools/call', { name: 'job', arguments: {} }, { auth: alice });
    await call(mcp, 'tools/call', { name: 'job', arguments: {} }, { auth: alice });
    const third = await call(mcp, 'tools/call', { name: 'job', arguments: {} }, { auth: alice });
    expect(third.error).toMatchObject({ code: -32600, data: { reason: 'task_limit', limit: 2 } });
    expect(third.error.message).toMatch(/Too many unfinished tasks/);
    expect((await call(mcp, 'tools/call', { name: 'job', arguments: {} })).result.resultType).toBe('task');
    const full = await call(mcp, 'tools/call', { name: 'job', arguments: {} }, { auth: { token: 'c', subject: 'c' } });
    expect(full.error).toMatchObject({ code: -32600, data: { reason: 'store_full' } });
  });

  it('lists no execution field in tools/list (2026-07-28 Tool has none)', async () => {
    const { mcp } = taskServer();
    const { result } = await call(mcp, 'tools/list');
    expect(result.tools.find((tool: Loose) => tool.name === 'job')).not.toHaveProperty('execution');
  });

  it('MRTR then task: a start:"handler" tool gathers input inline, then becomes a task with runAsTask', async () => {
    const { mcp, tasks } = taskServer({ tools: { gather: { start: 'handler' } } });
    mcp.registerTool('gather', { execution: { taskSupport: 'required' } }, async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      });
      return tasks.runAsTask(ctx, async () => ({ content: [{ type: 'text', text: `hi ${answer.content?.name}` }] }));
    });
    const round1 = (await call(mcp, 'tools/call', { name: 'gather', arguments: {} })).result;
    expect(round1.resultType).toBe('input_required');
    expect(round1).not.toHaveProperty('taskId');
    const key = Object.keys(round1.inputRequests)[0]!;
    const round2 = (
      await call(mcp, 'tools/call', {
        name: 'gather',
        arguments: {},
        inputResponses: { [key]: { action: 'accept', content: { name: 'Alice' } } },
        requestState: round1.requestState,
      })
    ).result;
    expect(round2).toMatchObject({ resultType: 'task', status: 'working' });
    expect(round2).not.toHaveProperty('requestState');
    await until(
      async () => (await call(mcp, 'tasks/get', { taskId: round2.taskId })).result.status === 'completed',
      'the task',
    );
    const done = (await call(mcp, 'tasks/get', { taskId: round2.taskId })).result;
    expect(done.result.content[0].text).toBe('hi Alice');
    expect(done.result._meta?.['io.modelcontextprotocol/related-task']).toBeUndefined();
  });
});
